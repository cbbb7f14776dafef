// bench/edge.mjs
// CPU time of the request-time handler (the esbuild bundle every edge host runs, lib/edge/handler.bundle.js):
// µs per request over a fixed API mix, per site (demo, the real fixtures when present or --fixtures <dir>), plus
// the time to start the handler from its data (cold start) and the data's size. In-process, one core, no network.
//
// Usage: npm run build && node bench/edge.mjs [--fixtures <dir>] [--seconds 2]

import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const FIXTURES = path.resolve(opt("--fixtures", path.join(REPO, "../shared/fixtures")));
const SECONDS = Number(opt("--seconds", "2"));

const { compile } = await import(pathToFileURL(path.join(REPO, "lib/pipeline/compile.js")).href);
const { toSiteData, BUNDLE_PATH } = await import(pathToFileURL(path.join(REPO, "lib/edge/index.js")).href);
const { createApiHandler } = await import(pathToFileURL(BUNDLE_PATH).href);

/** The mix: what clients ask most (versionCheck, findIcon, getExtensionSetting), with misses, variants and the big lists. */
function mix(model) {
  const ext = [...model.extensionMap.indexing.keys()].slice(0, 20);
  const q = [];
  for (const e of ext) {
    q.push(
      `action=findIcon&type=file&extension=${e}`,
      `action=findIcon&extension=${e.toUpperCase()}`,
      `action=getExtensionSetting&extension=${e}`,
      `action=getExtensionSetting&extension=${e}&type=viewing`,
    );
  }
  for (const v of [...model.versions, "v1.0", "2.0", "1.2.0-rc1", "%FF"])
    q.push(`action=versionCheck&current_version=${encodeURIComponent(v)}`);
  q.push(
    "action=findIcon&type=folder",
    "action=findIcon&extension=zzz",
    "action=icon&name=folder.png",
    "action=icon&name=../x.png",
    "action=config",
    "action=status",
    "action=icons",
    "action=iconMappings",
    "action=extensionMappings",
    "",
    "action=Config",
    "action=versionCheck&current.version=1.0",
    "action[]=config",
  );
  return q.map((query) => new Request(`https://site.example/api.php${query === "" ? "" : `?${query}`}`));
}

async function measure(handler, requests) {
  // Warm up, then run the mix round after round for SECONDS.
  for (const r of requests) await handler(r).text();
  let n = 0;
  const start = process.cpuUsage();
  const t0 = performance.now();
  while (performance.now() - t0 < SECONDS * 1000) {
    for (const r of requests) {
      await handler(r).text();
      n++;
    }
  }
  const cpu = process.cpuUsage(start);
  return (cpu.user + cpu.system) / n;
}

const sites = [["demo", path.join(REPO, "content")]];
for (const f of ["indexer-1.1.15", "indexer-1.2.0-r2"]) {
  if (existsSync(path.join(FIXTURES, f, "manifest.json"))) sites.push([f, path.join(FIXTURES, f)]);
}
if (sites.length === 1) console.log(`(real fixtures not found at ${FIXTURES}: demo only)`);

console.log("site                 data KB   cold start ms   µs/request (mix)   µs/request (no big lists)");
for (const [name, content] of sites) {
  const { model } = await compile({ content, sourceDateEpoch: "1704067200" });
  const text = JSON.stringify(toSiteData(model));
  const t0 = performance.now();
  const handler = createApiHandler(JSON.parse(text));
  const cold = performance.now() - t0;
  const requests = mix(model);
  const all = await measure(handler, requests);
  const small = await measure(
    handler,
    requests.filter((r) => !/action=(icons|iconMappings|extensionMappings|config)$/.test(r.url)),
  );
  console.log(
    `${name.padEnd(20)} ${(text.length / 1024).toFixed(0).padStart(7)}   ${cold.toFixed(1).padStart(13)}   ${all.toFixed(1).padStart(16)}   ${small.toFixed(1).padStart(25)}`,
  );
}
