// src/edge/index.ts
// The request-time handler's module, Node side: the data it answers from, the handler, and its bundle's text.

export { toSiteData, fromSiteData, type SiteData } from "./site-data.js";
export { createApiHandler } from "./handler.js";
export { handlerBundle, BUNDLE_PATH } from "./bundle.js";
