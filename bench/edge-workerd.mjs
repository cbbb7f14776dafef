// bench/edge-workerd.mjs
// workerd (`wrangler dev` on the emitted Workers config) answering an API mix through the Worker (the handler),
// against the same workerd serving the precomputed files of those answers by path (static assets): requests per
// second of each and their ratio (issue target: ≥ 50%). Same site, load generator (autocannon), connections, time.
//
// Usage: npm run build && node bench/edge-workerd.mjs [--content <dir>] [--seconds 5] [--connections 10]

import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { freePort } from "./ports.mjs";
import { requireRuntime, runtimeBin } from "../test/runtimes/locate.mjs";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const CONTENT = path.resolve(opt("--content", path.join(REPO, "content")));
const SECONDS = Number(opt("--seconds", "5"));
const CONNECTIONS = Number(opt("--connections", "10"));

const { build } = await import(pathToFileURL(path.join(REPO, "lib/pipeline/pipeline.js")).href);
const autocannon = requireRuntime("autocannon");

const root = await mkdtemp(path.join(os.tmpdir(), "bis-bench-workerd-"));
const out = path.join(root, "dist");
let child;
try {
  const { model } = await build({ content: CONTENT, out, sourceDateEpoch: "1704067200", hosts: ["cloudflare"] });
  const ext = [...model.extensionMap.indexing.keys()].slice(0, 20);
  const queries = [];
  for (const e of ext)
    queries.push(`action=findIcon&type=file&extension=${e}`, `action=getExtensionSetting&extension=${e}`);
  for (const v of model.versions) queries.push(`action=versionCheck&current_version=${encodeURIComponent(v)}`);
  queries.push(
    "action=findIcon&type=folder",
    "action=icon&name=folder.png",
    "action=config",
    "action=status",
    "action=icons",
    "",
  );
  const api = queries.map((q) => (q === "" ? "/api.php" : `/api.php?${q}`));
  // The static assets it serves beside the Worker, as many requests (the plain files: an edge upload holds no answer).
  const icons = [...model.iconDirFiles.keys()];
  const files = queries.map((_, i) => `/icons/${encodeURIComponent(icons[i % icons.length])}`);

  const port = await freePort();
  child = spawn(
    runtimeBin("wrangler") ?? "wrangler",
    [
      "dev",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--inspector-port",
      String(await freePort()),
      "--persist-to",
      path.join(root, "state"),
    ],
    {
      cwd: root,
      detached: true,
      stdio: "ignore",
      env: {
        ...process.env,
        CLOUDFLARE_CF_FETCH_ENABLED: "false",
        WRANGLER_SEND_METRICS: "false",
        npm_config_registry: "http://127.0.0.1:9/",
      },
    },
  );
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (
      await fetch(`${base}/api.php`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 240) throw new Error("wrangler dev did not start");
    await new Promise((r) => setTimeout(r, 250));
  }
  const load = async (paths) => {
    const r = await autocannon({
      url: base,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: paths.map((p) => ({ method: "GET", path: p })),
    });
    return { rps: Math.round(r.requests.average), p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
  };
  await load(api.slice(0, 5)); // warm-up
  const handler = await load(api);
  const staticFiles = await load(files);
  console.log(
    `site ${path.basename(CONTENT)}, ${api.length} distinct requests, ${CONNECTIONS} connections, ${SECONDS} s each`,
  );
  console.log(
    `workerd, /api.php via the Worker:  ${handler.rps} req/s (p99 ${handler.p99} ms, non-2xx ${handler.non2xx}, errors ${handler.errors})`,
  );
  console.log(
    `workerd, static assets (icons):   ${staticFiles.rps} req/s (p99 ${staticFiles.p99} ms, non-2xx ${staticFiles.non2xx}, errors ${staticFiles.errors})`,
  );
  console.log(`ratio: ${((100 * handler.rps) / staticFiles.rps).toFixed(0)}% (target ≥ 50%)`);
} finally {
  if (child?.pid !== undefined && child.exitCode === null) {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      /* gone */
    }
  }
  await new Promise((r) => setTimeout(r, 500));
  await rm(root, { recursive: true, force: true });
}
