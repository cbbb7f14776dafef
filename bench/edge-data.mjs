// bench/edge-data.mjs
// Issue 24's target table for the edge hosts, measured on one content folder (the real fixture, or the synthetic
// generator at a scale):
// - the edge-only build (`--hosts netlify,vercel,cloudflare`): wall time, in a child process like the CLI;
// - files in the Cloudflare upload beyond the plain files (the worker, its config, _headers, the data files);
// - the handler bundle (Cloudflare's worker/index.js), gzip;
// - its module evaluation (import) in a fresh Node process, median of 7;
// - the first request on a fresh isolate (a new module instance, empty cache), data files loaded through an
//   ASSETS binding that reads the assets folder: p50/p99 over requests across the API;
// - the warm time per request (p50/p99), over the precomputed domain's kinds and requests outside it.
// Node stands in for the edge isolate here (V8 as well); workerd itself is bench/edge-workerd.mjs.
//
// Usage: npm run build && node bench/edge-data.mjs [--content <dir> | --scale <n>]

import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
let content = opt("--content", undefined);
const scale = opt("--scale", undefined);
if (scale !== undefined) content = await (await import("./generate-content.mjs")).cachedContent(Number(scale));
content = path.resolve(content ?? "/work/shared/fixtures/indexer-1.2.0-r2");

const countFiles = (dir) => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const ms = (x) => `${x.toFixed(2)} ms`;

const root = await mkdtemp(path.join(os.tmpdir(), "bis-bench-edge-data-"));
try {
  const out = path.join(root, "dist");
  const started = performance.now();
  execFileSync(process.execPath, [path.join(REPO, "bin/build-index-site.js"), "build", "--content", content, "--out", out,
    "--hosts", "netlify,vercel,cloudflare", "--quiet"], { stdio: "inherit", env: { ...process.env, SOURCE_DATE_EPOCH: "1704067200" } });
  const buildMs = performance.now() - started;

  const upload = path.join(root, ".build-index-site/dist/hosts/cloudflare");
  const assets = path.join(upload, "public");
  const dataDir = path.join(out, "_edge-data");
  const dataFiles = countFiles(dataDir);
  const distFiles = countFiles(out);
  const plain = distFiles - dataFiles;
  const uploadFiles = countFiles(upload);
  const worker = path.join(upload, "worker/index.js");
  const workerBytes = readFileSync(worker);
  const answersInDist = statSync(path.join(out, "api"), { throwIfNoEntry: false }) !== undefined;

  // Import time, each in a fresh process.
  const imports = [];
  for (let i = 0; i < 7; i++) {
    const r = spawnSync(process.execPath, ["--input-type=module", "-e",
      `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(worker).href)}); console.log(performance.now() - t);`]);
    imports.push(Number(String(r.stdout).trim()));
  }

  const binding = {
    async fetch(request) {
      const data = await readFile(path.join(assets, decodeURIComponent(new URL(request.url).pathname))).catch(() => null);
      return data === null ? new Response("Not Found", { status: 404 }) : new Response(data);
    },
  };
  const { build } = await import(pathToFileURL(path.join(REPO, "lib/build.js")).href);
  const { model } = await build({ content, out: path.join(root, "model", "dist"), sourceDateEpoch: "1704067200", hosts: ["cloudflare"] });
  const ext = [...model.extensionMap.indexing.keys()];
  const iconNames = [...model.iconDirFiles.keys()];
  const queries = [];
  for (let i = 0; i < 200; i++) {
    const e = ext[(i * 7919) % ext.length];
    const n = iconNames[(i * 104729) % iconNames.length];
    queries.push(
      `action=findIcon&extension=${encodeURIComponent(e)}`, `action=getExtensionSetting&extension=${encodeURIComponent(e)}&type=viewing`,
      `action=icon&name=${encodeURIComponent(n)}`, `action=findIcon&extension=nope${i}`, `action=versionCheck&current_version=1.${i}`,
    );
  }
  const whole = ["action=icons", "action=iconMappings", "action=config", "action=configReference", "action=extensionMappings",
    "action=extensionMappings&type=indexing", "action=extensionMappings&type=viewing", "action=status", ""];
  const text = workerBytes.toString("utf8");
  // First request on a fresh isolate: a new module instance per request, so nothing is cached.
  const firsts = [];
  const sample = [...whole, ...queries.filter((_, i) => i % 10 === 0)];
  for (const [i, q] of sample.entries()) {
    const mod = await import(`data:text/javascript;base64,${Buffer.from(`${text}\n//${i}`).toString("base64")}`);
    const t = performance.now();
    const res = await mod.default.fetch(new Request(`https://bench.example/api.php?${q}`), { ASSETS: binding });
    await res.arrayBuffer();
    firsts.push(performance.now() - t);
  }
  // Warm: one instance, every query once to load, then timed.
  const warmMod = await import(pathToFileURL(worker).href);
  const all = [...whole, ...queries];
  for (const q of all) await (await warmMod.default.fetch(new Request(`https://bench.example/api.php?${q}`), { ASSETS: binding })).arrayBuffer();
  const warm = [];
  for (let round = 0; round < 5; round++) {
    for (const q of all) {
      const t = performance.now();
      const res = await warmMod.default.fetch(new Request(`https://bench.example/api.php?${q}`), { ASSETS: binding });
      await res.arrayBuffer();
      warm.push(performance.now() - t);
    }
  }

  const rows = [
    ["content", `${path.basename(content)} (${model.iconDirFiles.size} icon files, ${ext.length} extensions)`],
    ["edge-only build, wall time", ms(buildMs)],
    ["dist/ holds answer files", String(answersInDist)],
    ["files in dist/ (plain + data)", `${distFiles} (${plain} + ${dataFiles})`],
    ["files in the Cloudflare upload beyond the plain files", String(uploadFiles - plain)],
    ["handler bundle (worker/index.js)", `${workerBytes.length} B, gzip ${gzipSync(workerBytes).length} B`],
    ["module import (fresh process), median / max", `${ms(pct(imports, 50))} / ${ms(Math.max(...imports))}`],
    ["first request on a fresh isolate, p50 / p99", `${ms(pct(firsts, 50))} / ${ms(pct(firsts, 99))} (${firsts.length} requests)`],
    ["warm request, p50 / p99", `${ms(pct(warm, 50))} / ${ms(pct(warm, 99))} (${warm.length} requests)`],
  ];
  for (const [k, v] of rows) console.log(`${k.padEnd(56)} ${v}`);
} finally {
  await rm(root, { recursive: true, force: true });
}
