#!/usr/bin/env node
// bin/build-index-site.js
// The installed command: runs the CLI as one bundle (src/cli.ts and its dependencies, esbuild, `npm run build:cli`; made
// by `npm ci` through the `prepare` script), the pipeline's modules evaluated when a build needs them. Loading one file
// instead of each compiled module and dependency takes some 40–60 ms off every command's start.
import { setFlagsFromString } from "node:v8";
import { respawnArgs, runInChild } from "../lib/cli/respawn.js";

// `dev` runs in a child process with a larger young generation, which only a process's start can set
// (src/cli/respawn.ts); this one waits for it, without loading the command.
const child = respawnArgs(process.argv, process.execArgv, process.env);
const code = child === null ? null : await runInChild(child);
if (code !== null) {
  process.exitCode = code;
} else {
  // A build's live data stays steady while it writes (a ×100 site: some 300 MB for 640,000 files), but V8 lets the heap
  // grow to several times that between full collections by default. Growing it by at most 20% keeps the peak near what
  // is live (measured: ×100 peak RSS, bench/results/latest.md), at no cost in time for small sites. A rebuild over an
  // earlier build gets V8's own growth back (src/cli/build.ts: runBuild): it is faster so.
  setFlagsFromString("--heap-growing-percent=20");
  const { main } = await import("../lib/cli-bundle/cli.js");
  process.exitCode = await main(process.argv);
}
