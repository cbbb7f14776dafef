#!/usr/bin/env node
// bin/build-index-site.js
// The installed command: runs the CLI as one bundle (src/cli.ts and its dependencies, esbuild, `npm run build:cli`; made
// by `npm ci` through the `prepare` script), the pipeline's modules evaluated when a build needs them, and compiled
// from V8's code cache when one is kept (src/cli/load-bundle.ts). Loading one file instead of each compiled module and
// dependency takes some 40–60 ms off every command's start, and the code cache 30–50 ms more.
import { respawnArgs, runInChild } from "../lib/cli/respawn.js";

// `dev` runs in a child process with a larger young generation, which only a process's start can set
// (src/cli/respawn.ts); this one waits for it, without loading the command.
const child = respawnArgs(process.argv, process.execArgv, process.env);
const code = child === null ? null : await runInChild(child);
if (code !== null) {
  process.exitCode = code;
} else {
  const { loadBundle, BUNDLE } = await import("../lib/cli/load-bundle.js");
  const bundle = loadBundle(BUNDLE);
  process.exitCode = await bundle.main(process.argv);
  bundle.keepCompiled();
}
