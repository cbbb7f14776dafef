#!/usr/bin/env node
// bin/build-index-site.js
// The installed command: runs the CLI as one bundle (src/cli.ts and its dependencies, esbuild, `npm run build:cli`; made
// by `npm ci` through the `prepare` script), the pipeline's modules evaluated when a build needs them, and compiled
// from V8's code cache when one is kept (src/cli/startup/code-cache.ts). One file loads faster than each compiled
// module and dependency (docs/startup.md); so does the loader, bundled as lib/cli/startup/start.cjs.
import { createRequire } from "node:module";

const { respawnArgs, runInChild, loadBundle, BUNDLE } = createRequire(import.meta.url)("../lib/cli/startup/start.cjs");

// `dev` runs in a child process with a larger young generation, which only a process's start can set
// (src/cli/startup/dev-child.ts); this one waits for it, without loading the command.
const child = respawnArgs(process.argv, process.execArgv, process.env);
const code = child === null ? null : await runInChild(child);
if (code !== null) {
  process.exitCode = code;
} else {
  const bundle = loadBundle(BUNDLE);
  process.exitCode = await bundle.main(process.argv);
  bundle.keepCompiled();
}
