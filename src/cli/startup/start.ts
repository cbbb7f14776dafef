// src/cli/startup/start.ts
// What bin/build-index-site.js needs before the command's bundle: the `dev` child's start and the bundle's loader,
// bundled by scripts/build-cli.mjs into one CommonJS file (lib/cli/startup/start.cjs) that the bin requires, instead
// of importing their ES modules one by one (docs/startup.md).

export { respawnArgs, runInChild } from "./dev-child.js";
export { BUNDLE, loadBundle } from "./code-cache.js";
