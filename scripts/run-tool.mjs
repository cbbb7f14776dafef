#!/usr/bin/env node
// scripts/run-tool.mjs
// I/O: runs a test tool (vitest, prettier, oxlint) from the test install (test/runtimes, linked as test/node_modules),
// installing it first when missing: the root package holds only what `prepare` needs. vitest gets the suite's config
// (test/vitest.config.ts) unless the arguments name one. A signal to this process is passed on to the tool.
//   usage: node scripts/run-tool.mjs <vitest|prettier|oxlint|…> [arguments]

import { spawn, spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runtimeBin, toolsReady } from "../test/runtimes/locate.mjs";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CONFIG = path.join(REPO, "test", "vitest.config.ts");

const [name, ...args] = process.argv.slice(2);
if (!name) {
  process.stderr.write("usage: node scripts/run-tool.mjs <tool> [arguments]\n");
  process.exit(2);
}
if (!toolsReady()) {
  const installed = spawnSync(process.execPath, [path.join(REPO, "scripts", "test-runtimes.mjs")], {
    stdio: "inherit",
  });
  if (installed.status !== 0) process.exit(installed.status ?? 1);
}
const bin = runtimeBin(name);
if (bin === null) {
  process.stderr.write(`run-tool: ${name} is not in test/runtimes (its package.json lists the tools).\n`);
  process.exit(2);
}
const namesConfig = args.some((a) => a === "-c" || a === "--config" || a.startsWith("--config="));
const toolArgs = name === "vitest" && !namesConfig ? [...args, "--config", CONFIG] : args;

const child = spawn(bin, toolArgs, { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.once("error", (error) => {
  process.stderr.write(`run-tool: ${name}: ${error.message}\n`);
  process.exit(1);
});
child.once("exit", (code, signal) => process.exit(code ?? 128 + (os.constants.signals[signal] ?? 0)));
