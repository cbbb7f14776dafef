// bench/edge-parity.mjs
// The edge parity suite at scale (issue 24: "a ×100 edge suite runs in the bench, not CI"): the handler a build emits
// answers the precomputed domain exactly as the precomputed answer files do (status, headers, ETag, body bytes).
// - the site: an edge-only build (`--hosts netlify,vercel,cloudflare`) of the synthetic content at a scale (×100 by
//   default), by the CLI; its emitted Cloudflare worker (hosts/cloudflare/worker/index.js) runs in this process with
//   an ASSETS binding that serves that build's assets folder (public/), as the hosts' data reads do;
// - the expectation: the precomputed answers of the same content (compile() with a static host: the route table and
//   the answer files, in memory), matched by the route table as a static host routes them;
// - the requests: the precomputed domain as test/helpers/domain.ts enumerates it (independently of the route builder;
//   bundled here by esbuild), all of it or a deterministic sample (every k-th request; the whole-site answers always).
// Prints pass/total and the first mismatches; exits 1 when any request differs.
//
// Usage: npm run build && node bench/edge-parity.mjs [--scale <n> | --content <dir>] [--sample <n> | --all]

import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
let content = opt("--content", undefined);
const scale = Number(opt("--scale", "100"));
if (content === undefined) content = await (await import("./generate-content.mjs")).cachedContent(scale);
content = path.resolve(content);
const sampleSize = args.includes("--all") ? Infinity : Number(opt("--sample", "100000"));
const EPOCH = "1704067200";

const root = await mkdtemp(path.join(os.tmpdir(), "bis-bench-edge-parity-"));
let failed = false;
try {
  const out = path.join(root, "dist");
  let t = performance.now();
  execFileSync(
    process.execPath,
    [
      path.join(REPO, "bin/build-index-site.js"),
      "build",
      "--content",
      content,
      "--out",
      out,
      "--hosts",
      "netlify,vercel,cloudflare",
      "--quiet",
    ],
    { stdio: "inherit", env: { ...process.env, SOURCE_DATE_EPOCH: EPOCH } },
  );
  console.log(`edge-only build: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const upload = path.join(root, ".build-index-site/dist/hosts/cloudflare");
  const assets = path.join(upload, "public");

  // The domain enumerator of the tests, bundled (it is TypeScript).
  const esbuild = await import("esbuild");
  const enumerator = path.join(root, "domain.mjs");
  await esbuild.build({
    entryPoints: [path.join(REPO, "test/helpers/domain.ts")],
    bundle: true,
    format: "esm",
    platform: "node",
    outfile: enumerator,
    logLevel: "warning",
  });
  const { domainQueries, toSearch } = await import(pathToFileURL(enumerator).href);

  t = performance.now();
  const { compile } = await import(pathToFileURL(path.join(REPO, "lib/pipeline/compile.js")).href);
  const { compileTable, matchRoute, parseQuery } = await import(
    pathToFileURL(path.join(REPO, "lib/routes/route-table.js")).href
  );
  const { model, routes, site } = await compile({ content, sourceDateEpoch: EPOCH, hosts: ["nginx"] });
  const byPath = new Map(site.map((f) => [`/${f.path}`, f]));
  const table = compileTable(routes.table);
  console.log(`precomputed answers (compile, in memory): ${((performance.now() - t) / 1000).toFixed(1)} s`);

  const all = domainQueries(model);
  const wholeActions = new Set(["config", "icons", "iconMappings", "status", "configReference", "extensionMappings"]);
  let queries = all;
  if (sampleSize < all.length) {
    const stride = all.length / sampleSize;
    const picked = new Set();
    for (let i = 0; i < sampleSize; i++) picked.add(Math.floor(i * stride));
    queries = all.filter((q, i) => picked.has(i) || q.action === undefined || wholeActions.has(q.action));
  }

  const dataFiles = new Map();
  const binding = {
    async fetch(request) {
      const p = decodeURIComponent(new URL(request.url).pathname);
      let data = dataFiles.get(p);
      if (data === undefined) {
        data = await readFile(path.join(assets, p)).catch(() => null);
        dataFiles.set(p, data);
      }
      return data === null ? new Response("Not Found", { status: 404 }) : new Response(data);
    },
  };
  const worker = (await import(pathToFileURL(path.join(upload, "worker/index.js")).href)).default;

  const sorted = (h) => JSON.stringify(Object.entries(h).sort(([a], [b]) => (a < b ? -1 : 1)));
  const mismatches = [];
  let passed = 0;
  t = performance.now();
  for (const q of queries) {
    const search = toSearch(q);
    const { rule, target } = matchRoute(table, parseQuery(search));
    const file = byPath.get(target);
    if (file === undefined) throw new Error(`no precomputed answer ${target} for ?${search}`);
    const data = "data" in file ? file.data : file.produce();
    const wantBody = typeof data === "string" ? data : Buffer.from(data).toString("utf8");
    const wantHeaders = Object.fromEntries(Object.entries(rule.headers).map(([k, v]) => [k.toLowerCase(), v]));
    wantHeaders["content-type"] ??= "application/json";
    if (rule.status === 200 && wantBody !== "")
      wantHeaders.etag = `"${createHash("sha1").update(wantBody).digest("base64url")}"`;
    const res = await worker.fetch(new Request(`https://parity.example/api.php?${search}`), { ASSETS: binding });
    const gotBody = await res.text();
    const gotHeaders = Object.fromEntries(res.headers);
    if (res.status === rule.status && gotBody === wantBody && sorted(gotHeaders) === sorted(wantHeaders)) passed++;
    else if (mismatches.length < 10)
      mismatches.push(
        `?${search}: ${res.status} ${sorted(gotHeaders)} (${gotBody.length} chars) vs ${rule.status} ${sorted(wantHeaders)} (${wantBody.length} chars)`,
      );
    else mismatches.length++;
  }
  const seconds = (performance.now() - t) / 1000;
  const label =
    Number.isFinite(sampleSize) && queries.length < all.length
      ? `a sample of ${queries.length} of the ${all.length} domain requests`
      : `all ${all.length} domain requests`;
  console.log(
    `edge parity, ${path.basename(content)} (${model.iconDirFiles.size} icons): ${passed}/${queries.length} (${label}; ${seconds.toFixed(1)} s)`,
  );
  for (const m of mismatches.filter(Boolean)) console.log(`  ${m}`);
  failed = passed !== queries.length;
} finally {
  await rm(root, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
