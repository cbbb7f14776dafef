// bench/run.mjs
// `npm run bench`: full builds (whole process, median wall time, peak RSS) against the floor (a plain copy of the
// same files), no-op and one-icon rebuilds, preview throughput against serve-handler by path, nginx with the
// emitted config against nginx by path, and the full build against Hugo's of the same answers (bench/hugo.mjs).
// Writes bench/results/latest.{md,json}, prints the table, and writes docs/benchmark.md from the results
// (bench/page.mjs); `--page-from <results.json>` writes only the page; `--only hugo` runs only bench/hugo.mjs.
// I/O: builds into $TMPDIR/build-index-site-bench, writes bench/results/ and docs/benchmark.md, runs the edge benches.
//
// Usage: node bench/run.mjs [--quick] [--scales 1,10,100] [--runs N] [--no-preview] [--no-nginx] [--no-edge]
//                           [--duration S] [--no-hugo | --only hugo] [--results NAME] [--page FILE | --no-page]
//                           [--page-from RESULTS.json] [--help]
//   Unknown flags and bad values exit 2 before anything runs (util.parseArgs, strict).
//   --quick: scales 1 and 10, fewer runs, 3 s load runs (about a minute).
// Everything it writes besides the results and the page goes under $TMPDIR/build-index-site-bench (synthetic content
// is cached there between runs; built sites are removed as soon as they are measured).

import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { benchBuild } from "./build-row.mjs";
import { log, round } from "./common.mjs";
import { droppedFloors, removeDir, rowSettleWaits, settleWaits } from "./disk.mjs";
import { CACHE_DIR, cachedContent, GENERATOR_VERSION } from "./generate-content.mjs";
import { nginxRows } from "./nginx.mjs";
import { parseOptions } from "./options.mjs";
import { writePage } from "./page.mjs";
import { FIXTURES, REPO, RESULTS, WORK } from "./paths.mjs";
import { markdown } from "./report.mjs";
import { targets } from "./targets.mjs";
import { benchPreview, makeLoad, requestMix } from "./throughput.mjs";
import { buildCmd, nodeStart, SOURCE_DATE_EPOCH } from "./timed-run.mjs";

const CONNECTIONS = 50;
const options = parseOptions(process.argv.slice(2));
const load = makeLoad(options.loadSeconds, CONNECTIONS);

/** The run's header: when, how, on what machine. */
function runHeader(df) {
  return {
    date: new Date().toISOString(),
    command: `npm run bench${options.args.length ? ` -- ${options.args.join(" ")}` : ""}`,
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "?",
    memGb: Math.round(os.totalmem() / 2 ** 30),
    disk: `${df[1] ?? "?"} (${df[0] ?? "?"})`,
    loadBefore: os.loadavg().map((x) => round(x, 2)),
    sourceDateEpoch: SOURCE_DATE_EPOCH,
    nodeStart: nodeStart(),
    builds: [],
  };
}

/** The content folders to build: the real fixtures that are there, then the synthetic scales. */
async function sitesToBuild() {
  const sites = [];
  for (const fixture of ["indexer-1.2.0-r2", "indexer-1.1.15"]) {
    const dir = path.join(FIXTURES, fixture);
    if (existsSync(path.join(dir, "manifest.json"))) sites.push([fixture, dir]);
    else log(`${dir} is not there: real-fixture rows skipped.`);
  }
  for (const scale of options.scales) {
    log(`Synthetic content ×${scale}…`);
    sites.push([`synthetic-x${scale}`, await cachedContent(scale)]);
  }
  return sites;
}

/** Each site's row of the builds table; a row that fails is recorded with its error, and the run goes on. */
async function buildRows(result, sites) {
  result.failures = [];
  for (const [name, dir] of options.builds ? sites : []) {
    try {
      result.builds.push(await benchBuild(name, dir, options.runsFor));
      result.settleWaitsS = settleWaits;
      result.rowSettleWaits = rowSettleWaits;
      result.droppedFloors = droppedFloors;
    } catch (error) {
      const message = String(error?.message ?? error);
      log(`${name}: FAILED: ${message}`);
      result.failures.push({
        name,
        error:
          message
            .split("\n")
            .filter((l) => /Error|error/.test(l))
            .slice(0, 3)
            .join(" / ") || message.slice(0, 500),
      });
      await removeDir(path.join(WORK, name));
    }
  }
  const x10 = result.builds.find((b) => b.name === "synthetic-x10");
  const x100 = result.builds.find((b) => b.name === "synthetic-x100");
  if (x10 && x100) result.growth = { from: x10.buildS, to: x100.buildS, ratio: round(x100.buildS / x10.buildS, 2) };
}

/** The preview and nginx rows, on the first site. */
async function throughputRows(result, [name, content]) {
  if (options.preview) {
    log(`Preview throughput on ${name}…`);
    result.preview = await benchPreview(name, content, load, {
      seconds: options.loadSeconds,
      connections: CONNECTIONS,
    });
  }
  if (!options.nginx) result.nginx = { skipped: "--no-nginx" };
  else {
    log("nginx…");
    const root = path.join(WORK, `${name}-nginx`);
    const dir = path.join(root, "dist");
    await removeDir(root);
    await buildCmd(content, dir);
    try {
      result.nginx = await nginxRows({ dir, mix: await requestMix(dir), load, work: WORK, log });
    } finally {
      await removeDir(root);
    }
  }
}

/** Writes bench/results/<name>.{md,json}, prints the report, and writes the page from them. */
async function writeResults(result) {
  const name = options.resultsName;
  await mkdir(RESULTS, { recursive: true });
  const md = markdown(result, name);
  const json = path.join(RESULTS, `${name}.json`);
  await writeFile(json, `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(path.join(RESULTS, `${name}.md`), md);
  process.stdout.write(`${md}\n`);
  log(`Wrote bench/results/${name}.md and ${name}.json (load average after: ${result.loadAfter.join(", ")}).`);
  if (options.page !== null) {
    await writePage(json, options.page);
    log(`Wrote ${path.relative(REPO, options.page)} from bench/results/${name}.json.`);
  }
}

async function main() {
  if (!existsSync(path.join(REPO, "lib/cli.js")))
    throw new Error("lib/ is missing: run `npm ci` (or `npm run build`) first.");
  await mkdir(WORK, { recursive: true });
  const df = spawnSync("df", ["-hT", WORK], { encoding: "utf8" }).stdout.trim().split("\n").pop()?.split(/\s+/) ?? [];
  log(
    `Working in ${WORK} (${df[1]} on ${df[0]}, ${df[4]} free); synthetic content v${GENERATOR_VERSION} cached in ${CACHE_DIR}`,
  );
  const result = runHeader(df);
  // Every process the bench starts runs without NODE_EXTRA_CA_CERTS (nodeStart).
  delete process.env.NODE_EXTRA_CA_CERTS;
  const sites = await sitesToBuild();
  await buildRows(result, sites);
  await throughputRows(result, sites[0]);
  if (options.hugo) result.hugo = runHugo();
  result.loadAfter = os.loadavg().map((x) => round(x, 2));
  result.targets = targets(result);
  await writeResults(result);
  if (options.edge) runEdgeBenches();
}

/**
 * The rows against Hugo (bench/hugo.mjs, its own process: it writes bench/results/hugo.{md,json}): the real fixture
 * and ×10 when the run has it; ×100's build against `cp -a` and its peak RSS only with --only hugo (a full run's
 * builds table has the ×100 row). Returns its results, or why there are none.
 */
function runHugo() {
  const scales = ["real", ...options.scales.filter((s) => s === 10 || (options.only === "hugo" && s === 100))];
  log(`Against Hugo (bench/hugo.mjs --scales ${scales.join(",")})…`);
  const pairs = options.runs === undefined ? [] : ["--pairs", String(options.runs)];
  const script = path.join(REPO, "bench/hugo.mjs");
  const run = spawnSync(process.execPath, [script, "--scales", scales.join(","), ...pairs], { stdio: "inherit" });
  if (run.status !== 0) return { skipped: `bench/hugo.mjs failed (exit ${run.status})` };
  return JSON.parse(readFileSync(path.join(RESULTS, "hugo.json"), "utf8")).hugo;
}

/** The edge handler's, verify's and the catalogue's rows, each its own script (they print their tables and write
 * bench/results/). */
function runEdgeBenches() {
  const quick = options.quick;
  const scales = options.scales;
  const scripts = [
    ["edge.mjs", quick ? ["--seconds", "1"] : []],
    ["edge-workerd.mjs", quick ? ["--seconds", "3"] : []],
    // The handler on workerd per action, warm and cold, beside the floor Worker (bench/results/workerd.md).
    [
      "workerd.mjs",
      ["--sizes", [1, ...scales.filter((s) => s > 1)].join(","), ...(quick ? ["--rounds", "2", "--cold", "2"] : [])],
    ],
    ["edge-hosts.mjs", ["--scales", scales.includes(100) ? "1,100" : "1"]],
    // The lean-deploy targets (upload files, handler size, import, first and warm request, edge-only build).
    ["edge-data.mjs", []],
    ...(scales.includes(100) ? [["edge-data.mjs", ["--scale", "100"]]] : []),
    // The edge parity suite at ×100: the emitted handler against the precomputed answers, a deterministic sample.
    ...(scales.includes(100)
      ? [["edge-parity.mjs", ["--scale", "100"]]]
      : [["edge-parity.mjs", ["--scale", String(Math.max(...scales)), "--all"]]]),
    // verify against nginx over the real fixture's whole domain, and its peak RSS with --sample 20000 at ×100; the
    // catalogue page in chromium (the real fixture, and ×100): first paint, first screen, ready, search.
    ["verify-nginx.mjs", []],
    // Apache's and nginx's request time at each scale, and each host's upload against its plan's files limit.
    ["host-uploads.mjs", ["--scales", [1, 10, 100].filter((s) => s === 1 || scales.includes(s)).join(",")]],
    ...(scales.includes(100) ? [["verify-nginx.mjs", ["--scale", "100", "--sample", "20000"]]] : []),
    ["catalogue.mjs", ["real"]],
    ...(scales.includes(100) ? [["catalogue.mjs", ["100"]]] : []),
  ];
  for (const [script, extra] of scripts) {
    log(`${script}…`);
    const run = spawnSync(process.execPath, [path.join(REPO, "bench", script), ...extra], { stdio: "inherit" });
    if (run.status !== 0) log(`${script}: FAILED (exit ${run.status})`);
  }
}

// Stopped midway, the bench leaves the runs of the row it was in (a large row holds millions of files) under WORK: it
// says so, rather than delete them after Ctrl-C. A row that runs again removes its own first.
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
]) {
  process.once(signal, () => {
    log(
      `Stopped (${signal}). The runs so far are in ${WORK}: \`rm -rf ${WORK}\` frees them (a ×100 row's are millions of files); the next run removes the rows it runs again.`,
    );
    process.exit(code);
  });
}

if (options.only === "hugo") {
  delete process.env.NODE_EXTRA_CA_CERTS;
  const hugo = runHugo();
  process.exitCode = hugo.skipped === undefined ? 0 : 1;
  // The page from these rows, its other parts from the latest earlier run that measured them.
  if (hugo.skipped === undefined && options.page !== null) {
    await writePage(path.join(RESULTS, "hugo.json"), options.page);
    log(`Wrote ${path.relative(REPO, options.page)} from bench/results/hugo.json.`);
  }
} else if (options.pageFrom !== undefined) {
  await writePage(options.pageFrom, options.page);
  log(`Wrote ${path.relative(REPO, options.page)} from ${path.relative(REPO, options.pageFrom)}.`);
} else await main();
