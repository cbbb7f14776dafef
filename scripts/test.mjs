#!/usr/bin/env node
// scripts/test.mjs
// I/O: `npm test`: installs the test tools and runtimes when missing (scripts/test-runtimes.mjs, timed apart, linked as
// test/node_modules), then builds, lints, runs every vitest project (arguments after `--` go to vitest; its config is
// test/vitest.config.ts) and the pack test, stopping at the first failure. A signal (Ctrl-C, or a tool's SIGINT/SIGTERM
// to npm alone) is passed to the step running, so that vitest's cleanup stops the servers it started
// (test/helpers/run-cleanup.ts); no later step starts.

import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CONFIG = path.join(REPO, "test", "vitest.config.ts");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const node = process.execPath;

const runtimes = [node, [path.join(REPO, "scripts", "test-runtimes.mjs")]];
const steps = [
  [npm, ["run", "build"]],
  [npm, ["run", "lint"]],
  [
    node,
    [
      path.join(REPO, "test", "node_modules", "vitest", "vitest.mjs"),
      "run",
      "--config",
      CONFIG,
      ...process.argv.slice(2),
    ],
  ],
  [npm, ["run", "test:pack"]],
];

let running;
let interrupted;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    interrupted = signal;
    running?.kill(signal);
  });
}

/** Runs one step in the foreground; resolves with its exit code (a signal's 128 + n). */
function run([command, args]) {
  return new Promise((resolve) => {
    running = spawn(command, args, { cwd: REPO, stdio: "inherit" });
    running.once("error", (error) => {
      process.stderr.write(`npm test: ${command}: ${error.message}\n`);
      resolve(1);
    });
    running.once("exit", (code, signal) => resolve(code ?? 128 + (os.constants.signals[signal] ?? 0)));
  });
}

const seconds = (since) => ((performance.now() - since) / 1000).toFixed(1);
const installStart = performance.now();
let code = await run(runtimes);
const installTime = seconds(installStart);
const suiteStart = performance.now();
for (const step of steps) {
  if (code !== 0 || interrupted) break;
  code = await run(step);
}
if (interrupted) {
  process.stderr.write(`npm test: stopped by ${interrupted}.\n`);
  process.exit(128 + os.constants.signals[interrupted]);
}
process.stdout.write(
  `npm test: ${code === 0 ? "passed" : "failed"} in ${seconds(suiteStart)} s (build, lint, vitest, pack test); ` +
    `the test runtimes' check or install took ${installTime} s besides.\n`,
);
process.exit(code);
