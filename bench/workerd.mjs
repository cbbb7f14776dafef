// bench/workerd.mjs
// The request-time handler measured on workerd itself, per action, at each size, beside a floor Worker: warm (a
// process that has served the action) and cold (the first request of a fresh workerd process: a fresh isolate, empty
// caches). CPU is workerd's own (every thread's schedstat, ns), wall is the client's; see bench/workerd-server.mjs.
// I/O: builds into a temporary folder (the CLI, --hosts cloudflare), starts workerd, writes bench/results/<name>.*.
//
// Usage: npm run build && node bench/workerd.mjs [--sizes 1,10,100] [--cold 3] [--warm 100] [--rounds 3]
//                                                [--results workerd | --no-results] [--origin-only]
//   --origin-only: the `--base-url request` rows alone.
//   Size 1 is the real fixture (../shared/fixtures/indexer-1.2.0-r2), N the synthetic content ×N
//   (bench/generate-content.mjs, cached).

import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { log, median, round } from "./common.mjs";
import { cachedContent } from "./generate-content.mjs";
import { BIN, FIXTURES, RESULTS } from "./paths.mjs";
import { prepare, startWorkerd, WHOLE_FILES, WORKERD } from "./workerd-server.mjs";
import { markdownOf } from "./workerd-report.mjs";

const { values: opts } = parseArgs({
  options: {
    sizes: { type: "string", default: "1,10,100" },
    cold: { type: "string", default: "3" },
    warm: { type: "string", default: "100" },
    rounds: { type: "string", default: "3" },
    results: { type: "string", default: "workerd" },
    "no-results": { type: "boolean", default: false },
    "origin-only": { type: "boolean", default: false },
  },
  strict: true,
});
const SIZES = opts.sizes.split(",").map(Number);
const COLD = Number(opts.cold);
const WARM = Number(opts.warm);
const ROUNDS = Number(opts.rounds);
/** A new origin's host name (the request's origin with `--base-url request`). */
const ORIGIN = (k) => `origin-${k}.example`;

/** Keys that spread over the shards: `n` of `list`, evenly spaced. */
const spread = (list, n) =>
  Array.from({ length: Math.min(n, list.length) }, (_, i) => list[Math.floor((i * list.length) / n)]);

/** Each action and its requests (a query each; a per-key action rotates over keys that spread over the shards). */
function actions(content) {
  const exts = spread(
    Object.keys(JSON.parse(readFileSync(path.join(content, "extensionMap.json"), "utf8")).indexing),
    16,
  );
  const icons = spread(
    readdirSync(path.join(content, "icons")).filter((f) => f.endsWith(".png")),
    16,
  );
  const version = JSON.parse(readFileSync(path.join(content, "config.json"), "utf8")).version ?? "1.0.0";
  const q = encodeURIComponent;
  return [
    ["config", ["action=config"]],
    [
      "versionCheck",
      [`action=versionCheck&current_version=${q(version)}`, "action=versionCheck&current_version=1.0.0"],
    ],
    ["extensionMappings", ["action=extensionMappings"]],
    ["getExtensionSetting", exts.map((e) => `action=getExtensionSetting&extension=${q(e)}`)],
    ["icons", ["action=icons"]],
    ["icon", icons.map((i) => `action=icon&name=${q(i)}`)],
    ["findIcon", exts.map((e) => `action=findIcon&type=file&extension=${q(e)}`)],
    ["iconMappings", ["action=iconMappings"]],
    ["status", ["action=status"]],
    ["configReference", ["action=configReference"]],
    ["(no action)", [""]],
  ].map(([action, queries]) => ({ action, paths: queries.map((x) => (x === "" ? "/api.php" : `/api.php?${x}`)) }));
}

/** The static asset a request's floor stands beside: the whole answer's file, or a small one (core.json). */
function staticPath(publicDir, action) {
  const name = WHOLE_FILES[action === "(no action)" ? "" : action];
  const p = name === undefined ? undefined : `/_edge-data/whole/${name}.json`;
  return p !== undefined && existsSync(path.join(publicDir, p)) ? p : "/_edge-data/core.json";
}

/** `n` requests over `paths` on one socket: workerd's CPU µs per request, the median wall ms, statuses, bytes. */
async function block(server, which, paths, n, host) {
  const before = server.cpuNs();
  const walls = [];
  let bytes = 0;
  let bad = 0;
  for (let i = 0; i < n; i++) {
    const r = await server.get(which, paths[i % paths.length], typeof host === "function" ? host(i) : host);
    walls.push(r.ms);
    bytes = Math.max(bytes, r.bytes);
    if (r.status !== 200) bad++;
  }
  return { cpuUs: (server.cpuNs() - before) / n / 1000, wallMs: median(walls), bytes, bad };
}

/** Warm rows: each kind (handler, floor, static) in blocks of `n`, alternating, `ROUNDS` times; medians of rounds. */
async function warmRow(server, kinds, n) {
  for (const [which, paths, host] of kinds)
    for (let i = 0; i < 2 * paths.length + 3; i++) await server.get(which, paths[i % paths.length], host);
  const runs = Object.fromEntries(kinds.map(([which]) => [which, []]));
  for (let r = 0; r < ROUNDS; r++)
    for (const [which, paths, host] of kinds) runs[which].push(await block(server, which, paths, n, host));
  return Object.fromEntries(
    Object.entries(runs).map(([which, rs]) => [
      which,
      {
        cpuUs: round(median(rs.map((x) => x.cpuUs)), 1),
        wallMs: round(median(rs.map((x) => x.wallMs)), 3),
        bytes: rs[0].bytes,
        bad: rs.reduce((a, x) => a + x.bad, 0),
      },
    ]),
  );
}

/** How many warm requests a block makes: fewer for a large body (at most ~200 MB a block). */
const warmCount = (bytes) => Math.max(10, Math.min(WARM, Math.floor(2e8 / Math.max(1, bytes))));

/** The first request of a fresh workerd process (after one static request, so that only the isolate is fresh). */
async function coldOnce(prepared, which, p, host) {
  const server = await startWorkerd(prepared);
  try {
    await server.get("static", "/_edge-data/core.json");
    const before = server.cpuNs();
    const r = await server.get(which, p, host);
    return { cpuMs: (server.cpuNs() - before) / 1e6, wallMs: r.ms, status: r.status, bytes: r.bytes };
  } finally {
    await server.stop();
  }
}

/** A cold sample, drawn again (new ports) when the connection fails: another program can take a free port first. */
async function coldSample(prepared, which, p, host) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await coldOnce(prepared, which, p, host);
    } catch (error) {
      if (attempt === 3) throw error;
      log(`  cold ${which} ${p}: ${error.message}; again`);
    }
  }
}

/** Medians of `COLD` cold samples. */
async function cold(prepared, which, p, host) {
  const xs = [];
  for (let i = 0; i < COLD; i++) xs.push(await coldSample(prepared, which, p, host));
  return {
    cpuMs: round(median(xs.map((x) => x.cpuMs)), 2),
    wallMs: round(median(xs.map((x) => x.wallMs)), 2),
    status: xs[0].status,
  };
}

/** Builds `content` for Cloudflare alone (and with `--base-url request`): the Cloudflare folder, prepared. */
async function buildSite(root, content, name, extra = []) {
  const out = path.join(root, name, "dist"); // a folder each: each build writes .wrangler/ beside its --out
  const started = performance.now();
  execFileSync(
    process.execPath,
    [BIN, "build", "--content", content, "--out", out, "--hosts", "cloudflare", "--quiet", ...extra],
    { stdio: "inherit" },
  );
  const cf = path.join(root, name, ".build-index-site", "dist", "hosts", "cloudflare");
  log(`  built ${name} in ${round((performance.now() - started) / 1000, 1)} s`);
  const shards = readdirSync(path.join(cf, "public/_edge-data/shards")).length;
  return { ...(await prepare(cf)), shards };
}

/** Every row of one size: warm and cold per action, and the new-origin rows of `--base-url request`. */
async function measureSize(size) {
  const content = size === 1 ? path.join(FIXTURES, "indexer-1.2.0-r2") : await cachedContent(size);
  const root = await mkdtemp(path.join(os.tmpdir(), "bis-bench-workerd-"));
  const started = performance.now();
  try {
    const { shards, rows } = opts["origin-only"]
      ? { shards: undefined, rows: [] }
      : await actionRows(await buildSite(root, content, "base"), content, size);
    const origin = await originRows(await buildSite(root, content, "origin", ["--base-url", "request"]));
    return {
      size,
      content: path.basename(content),
      shards,
      rows,
      origin,
      seconds: round((performance.now() - started) / 1000, 0),
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** Each action's warm and cold rows on a build for the base URL. */
async function actionRows(site, content, size) {
  const rows = [];
  const server = await startWorkerd(site);
  try {
    for (const { action, paths } of actions(content)) {
      const staticP = staticPath(site.publicDir, action);
      const n = warmCount(Math.max(...[staticP].map((p) => fileBytes(site.publicDir, p))));
      const warm = await warmRow(
        server,
        [
          ["handler", paths],
          ["floor", paths],
          ["static", [staticP]],
        ],
        n,
      );
      rows.push({ action, n, warm });
      log(
        `  ×${size} ${action}: warm handler ${warm.handler.cpuUs} µs, floor ${warm.floor.cpuUs} µs, static ${warm.static.cpuUs} µs`,
      );
    }
  } finally {
    await server.stop();
  }
  for (const row of rows) {
    const p = actions(content).find((a) => a.action === row.action).paths[0];
    row.cold = { handler: await cold(site, "handler", p), floor: await cold(site, "floor", p) };
  }
  return { shards: site.shards, rows };
}

const fileBytes = (publicDir, p) => readFileSync(path.join(publicDir, p)).length;

/**
 * The first request of a fresh isolate in a process that has served others: the handler's second isolate
 * ("handler-b") after three requests to the first. A host starts a new isolate in a running process.
 */
async function isolateOnce(prepared, p, host) {
  const server = await startWorkerd(prepared);
  try {
    for (let k = 1; k <= 3; k++) await server.get("handler", p, ORIGIN(k));
    const before = server.cpuNs();
    const r = await server.get("handler-b", p, host);
    return { cpuMs: (server.cpuNs() - before) / 1e6, wallMs: r.ms };
  } finally {
    await server.stop();
  }
}

/** `--base-url request`, action=icons: the first request from a new origin (fresh process, fresh isolate in a warm
 * process, and warm isolate), warm. */
async function originRows(site) {
  const p = "/api.php?action=icons";
  const fresh = await cold(site, "handler", p, ORIGIN(0));
  const isolates = [];
  for (let i = 0; i < COLD; i++) isolates.push(await isolateOnce(site, p, ORIGIN(0)));
  const freshIsolate = {
    cpuMs: round(median(isolates.map((x) => x.cpuMs)), 2),
    wallMs: round(median(isolates.map((x) => x.wallMs)), 2),
  };
  const server = await startWorkerd(site);
  try {
    const n = warmCount(fileBytes(site.publicDir, "/_edge-data/whole/icons.json"));
    const warm = await warmRow(
      server,
      [
        ["handler", [p], ORIGIN(0)],
        ["floor", [p], ORIGIN(0)],
      ],
      n,
    );
    // Each sample a new origin, in an isolate that has served others: the per-origin cost.
    const firsts = [];
    for (let k = 1; k <= Math.max(3, COLD); k++) {
      const before = server.cpuNs();
      const r = await server.get("handler", p, ORIGIN(k));
      firsts.push({ cpuMs: (server.cpuNs() - before) / 1e6, wallMs: r.ms });
    }
    const newOrigin = {
      cpuMs: round(median(firsts.map((x) => x.cpuMs)), 2),
      wallMs: round(median(firsts.map((x) => x.wallMs)), 2),
    };
    log(
      `  --base-url request icons: first (fresh) ${fresh.cpuMs} ms, fresh isolate ${freshIsolate.cpuMs} ms, new origin ${newOrigin.cpuMs} ms, warm ${warm.handler.cpuUs} µs`,
    );
    return { fresh, freshIsolate, newOrigin, warm };
  } finally {
    await server.stop();
  }
}

async function main() {
  if (!existsSync(WORKERD))
    throw new Error(`${WORKERD} is missing: npm run test:runtimes installs it (wrangler's workerd).`);
  if (!existsSync(BIN.replace("bin/build-index-site.js", "lib/cli.js")))
    throw new Error("lib/ is missing: npm run build first.");
  const version = execFileSync(WORKERD, ["--version"], { encoding: "utf8" }).trim();
  const result = {
    date: new Date().toISOString(),
    workerd: version,
    cpus: os.cpus().length,
    loadBefore: os.loadavg().map((x) => round(x, 2)),
    cold: COLD,
    warm: WARM,
    rounds: ROUNDS,
    sizes: [],
  };
  for (const size of SIZES) {
    log(`workerd ×${size}…`);
    result.sizes.push(await measureSize(size));
  }
  result.loadAfter = os.loadavg().map((x) => round(x, 2));
  const md = markdownOf(result);
  process.stdout.write(md);
  if (!opts["no-results"]) {
    await mkdir(RESULTS, { recursive: true });
    await writeFile(path.join(RESULTS, `${opts.results}.json`), `${JSON.stringify(result, null, 2)}\n`);
    await writeFile(path.join(RESULTS, `${opts.results}.md`), md);
    log(`Wrote bench/results/${opts.results}.md and .json`);
  }
}

await main();
