// bench/first-request-worker.mjs
// Run by bench/edge-data.mjs as a worker thread: a fresh V8 isolate per sample, like a host's fresh isolate. It uses
// Node's Web API classes once (an isolate has them natively; in Node their first use loads undici), then imports the
// handler bundle (compiled anew: a new isolate shares no code with the others), and times its first request, with the
// data files served from memory (a SharedArrayBuffer the parent filled: nothing is copied per worker).
// workerData: { bundle (file URL), query, index: [[path, offset, length]…], buffer (SharedArrayBuffer) }.

import { warmWebApis } from "./warm-web-apis.mjs";
import { parentPort, workerData } from "node:worker_threads";

const { bundle, query, index, buffer } = workerData;
const bytes = new Uint8Array(buffer);
const files = new Map(index.map(([p, offset, length]) => [p, bytes.subarray(offset, offset + length)]));
const binding = {
  async fetch(request) {
    const data = files.get(decodeURIComponent(new URL(request.url).pathname));
    // A copy, as a host's read gives the isolate bytes of its own.
    return data === undefined ? new Response("Not Found", { status: 404 }) : new Response(data.slice());
  },
};
await warmWebApis();
await (await binding.fetch(new Request("https://warm.example/_edge-data/none"))).text();
const cpuMs = (c) => (c.user + c.system) / 1000;
let c = process.cpuUsage();
let t = performance.now();
const mod = await import(bundle);
const importMs = { wall: performance.now() - t, cpu: cpuMs(process.cpuUsage(c)) };
c = process.cpuUsage();
t = performance.now();
const res = await mod.default.fetch(new Request(`https://bench.example/api.php?${query}`), { ASSETS: binding });
const body = await res.arrayBuffer();
parentPort.postMessage({
  import: importMs,
  wall: performance.now() - t,
  cpu: cpuMs(process.cpuUsage(c)),
  status: res.status,
  bytes: body.byteLength,
});
