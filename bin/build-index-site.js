#!/usr/bin/env node
// bin/build-index-site.js
// The installed command: runs the CLI as one bundle (src/cli.ts and its dependencies, esbuild, `npm run build:cli`; made
// by `npm ci` through the `prepare` script), the pipeline's modules evaluated when a build needs them. Loading one file
// instead of each compiled module and dependency takes some 40–60 ms off every command's start.
import { setFlagsFromString } from "node:v8";
import { main } from "../lib/cli-bundle/cli.js";

// A build's live data stays steady while it writes (a ×100 site: some 300 MB for 640,000 files), but V8 lets the heap
// grow to several times that between full collections by default. Growing it by at most 20% keeps the peak near what
// is live (measured: ×100 peak RSS, bench/results/latest.md), at no cost in time for small sites. A rebuild over an
// earlier build gets V8's own growth back (src/cli/build.ts: runBuild): it is faster so.
setFlagsFromString("--heap-growing-percent=20");

process.exitCode = await main(process.argv);
