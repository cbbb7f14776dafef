// bench/module-eval.mjs
// One handler bundle's start-up as a fresh isolate pays it, in this (fresh) process, split in its parts:
// - read: Node reading the file (an isolate gets the script from the host, not from a disk);
// - compile: V8 parsing and compiling the module (vm.SourceTextModule in the main context);
// - evaluate: running its top level (module evaluation proper: what the handler's own code costs at start-up);
// - import: a plain `await import(file)` of the same file, for comparison (Node's loader, the read and both of the above).
// Wall and CPU (process.cpuUsage: this process's user + system time) for each, as JSON on stdout.
// Usage: node --experimental-vm-modules bench/module-eval.mjs <bundle.js> [--import-first]

import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import vm from "node:vm";

const file = process.argv[2];
const cpuMs = (c) => (c.user + c.system) / 1000;
const timed = async (work) => {
  const c = process.cpuUsage();
  const t = performance.now();
  const value = await work();
  return { wall: performance.now() - t, cpu: cpuMs(process.cpuUsage(c)), value };
};
const result = {};
const read = await timed(() => readFileSync(file, "utf8"));
const compile = await timed(async () => {
  const mod = new vm.SourceTextModule(read.value, { identifier: file });
  await mod.link(() => {
    throw new Error("the bundle imports nothing");
  });
  return mod;
});
const evaluate = await timed(() => compile.value.evaluate());
result.read = { wall: read.wall, cpu: read.cpu };
result.compile = { wall: compile.wall, cpu: compile.cpu };
result.evaluate = { wall: evaluate.wall, cpu: evaluate.cpu };
// The same file through Node's loader (a second compile: a distinct URL, so not the module above).
const imported = await timed(() => import(`${pathToFileURL(file).href}?fresh`));
result.import = { wall: imported.wall, cpu: imported.cpu };
console.log(JSON.stringify(result));
