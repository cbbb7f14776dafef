// bench/workerd-server.mjs
// workerd itself (the npm package's binary, no wrangler, no network) serving a build's Cloudflare folder: the emitted
// Worker (worker/index.js) with its ASSETS binding on a workerd disk service over public/ (twice: two isolates of one
// process), a floor Worker with the same binding, and the disk service alone (static assets); and the process's CPU
// time, to the nanosecond.
// I/O: writes a workerd config and the floor Worker into the Cloudflare folder; starts and stops workerd.

import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { installDir } from "../test/runtimes/locate.mjs";
import { freePort, waitForPort } from "./ports.mjs";

// workerd comes with wrangler, from the test runtimes (test/runtimes, which npm test installs).
export const WORKERD = path.join(installDir(), "node_modules/@cloudflare/workerd-linux-64/bin/workerd");
const COMPATIBILITY_DATE = "2025-01-01";

/** The whole answers' files the handler streams, by action (and type): what the floor Worker passes through. */
export const WHOLE_FILES = {
  icons: "icons",
  iconMappings: "iconMappings",
  config: "config",
  configReference: "configReference",
  extensionMappings: "extensionMappings-all",
  status: "status",
  "": "info",
};

/**
 * The floor Worker: the least a handler of this design does. A whole answer that has its own file: that file passed
 * through env.ASSETS.fetch; any other request: a fixed small JSON answer. It reads no core.json, no shard.
 */
export function floorWorker(publicDir) {
  const present = Object.fromEntries(
    Object.entries(WHOLE_FILES).filter(([, name]) => existsSync(path.join(publicDir, `_edge-data/whole/${name}.json`))),
  );
  return `const FILES = ${JSON.stringify(present)};
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const name = FILES[url.searchParams.get("action") ?? ""];
    const headers = { "Content-Type": "application/json", ETag: '"floor"' };
    if (name === undefined) return new Response('{\\n  "success": true\\n}\\n', { headers });
    const res = await env.ASSETS.fetch(new Request(new URL("/_edge-data/whole/" + name + ".json", url.origin)));
    return new Response(res.body, { headers });
  },
};
`;
}

/**
 * The workerd config (Cap'n Proto text): the handler, the floor and the static assets, each on its own socket, and
 * the handler again as "handler-b" (its own isolate: a fresh isolate in a process that has served others).
 */
function config(publicDir, ports) {
  const worker = (module) =>
    `(modules = [(name = "index.js", esModule = embed "${module}")], compatibilityDate = "${COMPATIBILITY_DATE}", ` +
    `bindings = [(name = "ASSETS", service = "assets")])`;
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "handler", worker = ${worker("worker/index.js")}),
    (name = "handler-b", worker = ${worker("worker/index.js")}),
    (name = "floor", worker = ${worker("bench-floor.js")}),
    (name = "assets", disk = (path = ${JSON.stringify(publicDir)}, writable = false)),
  ],
  sockets = [
    (name = "handler", address = "127.0.0.1:${ports.handler}", http = (), service = "handler"),
    (name = "handler-b", address = "127.0.0.1:${ports["handler-b"]}", http = (), service = "handler-b"),
    (name = "floor", address = "127.0.0.1:${ports.floor}", http = (), service = "floor"),
    (name = "static", address = "127.0.0.1:${ports.static}", http = (), service = "assets"),
  ]
);
`;
}

/** Writes the config and the floor Worker into a build's Cloudflare folder (the embeds are relative to it). */
export async function prepare(cloudflareDir) {
  const publicDir = path.join(cloudflareDir, "public");
  await writeFile(path.join(cloudflareDir, "bench-floor.js"), floorWorker(publicDir));
  return { dir: cloudflareDir, publicDir };
}

/** The CPU time of a process, all its threads, in ns (schedstat: nanoseconds, where /proc/<pid>/stat counts ticks). */
export function cpuNs(pid) {
  let total = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // a thread that ended between the listing and the read
    }
  }
  return total;
}

/** Starts workerd on a prepared folder; resolves once its sockets listen. */
export async function startWorkerd(prepared) {
  const ports = {
    handler: await freePort(),
    "handler-b": await freePort(),
    floor: await freePort(),
    static: await freePort(),
  };
  const file = path.join(prepared.dir, "bench.capnp");
  await writeFile(file, config(prepared.publicDir, ports));
  let stderr = "";
  const child = spawn(WORKERD, ["serve", file], { cwd: prepared.dir, stdio: ["ignore", "ignore", "pipe"] });
  child.stderr.on("data", (d) => (stderr += d));
  for (const port of Object.values(ports)) await waitForPort(port, child, "workerd", async () => stderr);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = (which) => `http://127.0.0.1:${ports[which]}`;
  return {
    pid: child.pid,
    url,
    cpuNs: () => cpuNs(child.pid),
    get: (which, p, host) => get(agent, url(which) + p, host),
    stop: async () => {
      agent.destroy();
      if (child.exitCode !== null) return;
      await new Promise((resolve) => {
        child.once("exit", resolve);
        child.kill("SIGTERM");
        setTimeout(() => child.exitCode === null && child.kill("SIGKILL"), 3000).unref();
      });
    },
  };
}

/** One GET (the body read to its end): status, bytes, wall ms; `host` sets the Host header (the request's origin). */
function get(agent, url, host) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const headers = host === undefined ? {} : { host };
    http
      .get(url, { agent, headers }, (res) => {
        let bytes = 0;
        res.on("data", (d) => (bytes += d.length));
        res.once("end", () =>
          resolve({ status: res.statusCode, bytes, ms: Number(process.hrtime.bigint() - start) / 1e6 }),
        );
      })
      .once("error", reject);
  });
}
