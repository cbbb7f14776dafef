#!/usr/bin/env node
import { setFlagsFromString } from "node:v8";
const t0 = performance.now();
const { main } = await import("../lib/cli-bundle/cli.js");
const t1 = performance.now();
setFlagsFromString("--heap-growing-percent=20");
process.exitCode = await main(process.argv);
const t2 = performance.now();
process.on("exit", () => process.stderr.write(`tt boot ${t0.toFixed(1)} load ${(t1 - t0).toFixed(1)} main ${(t2 - t1).toFixed(1)} exit ${(performance.now()).toFixed(1)}\n`));
