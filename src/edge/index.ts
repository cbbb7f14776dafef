// src/edge/index.ts
// The request-time handler's module, Node side: its data files, the handler, and its bundles' text.

export { EdgeDataMemo, edgeDataFiles } from "./data-files.js";
export { createApiHandler, type DataReader } from "./handler.js";
export { handlerBundle, entryBundle, BUNDLE_PATH, entryPath } from "./bundle.js";
export { DATA_DIR, DATA_FOLDER } from "./data.js";
