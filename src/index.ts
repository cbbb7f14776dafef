// src/index.ts
// Public API: the build, the preview server, the route table evaluator and the reference answers.

export { build, compile, type BuildOptions, type BuildResult } from "./build.js";
export { startPreview, createPreviewHandler, type Preview, type PreviewOptions } from "./preview/server.js";
export * from "./routes/route-table.js";
export { answer, answerHeaders, answerText, type Answer, type Query } from "./api/answers.js";
export { versionCompare } from "./model/version-compare.js";
export { BuildError, ContentError, UsageError, formatError, type Diagnostic } from "./errors.js";
