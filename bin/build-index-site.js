#!/usr/bin/env node
// bin/build-index-site.js
// The installed command: runs the compiled CLI (compiled by `npm ci` through the `prepare` script).
import { main } from "../lib/cli.js";

process.exitCode = await main(process.argv);
