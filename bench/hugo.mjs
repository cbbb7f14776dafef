// bench/hugo.mjs
// Issue 54's rows: the full build beside the peer a user would otherwise use, Hugo building the same answers from the
// same content (../shared/peers/hugo), in alternating pairs (ours, Hugo, ours, Hugo, …) on tmpfs, each run into a
// fresh folder, the ratio taken pair by pair and its median printed beside the target: at real size with the default
// hosts and with `--hosts nginx` (≤ 0.7), at ×10 with the default hosts (≤ 0.5). With ×100 among the scales, the
// ×100 full build (default hosts) against `cp -a` of what it wrote, alternating, and its peak RSS (≤ 1.3×, ≤ 300 MB).
// Where `hugo` is not installed the peer rows say so and are skipped. Writes bench/results/<--results>.{md,json}.
// I/O: copies content to tmpfs, runs builds, Hugo and cp, removes each run once timed, writes bench/results/.
//
// Usage: npm run build && node bench/hugo.mjs [--scales real,10,100] [--pairs N] [--results NAME]
//   (or: node bench/run.mjs --only hugo [--scales …]; npm run bench runs it too, unless --no-hugo)
//   --scales: the rows to run: real (the real fixture), 10 and 100 (synthetic content); default real,10.
//   --pairs: pairs per peer row (default 7 at real size, 3 at ×10; the ×100 row runs 3 builds and 3 copies).

import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, statfsSync, symlinkSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { log, median, round } from "./common.mjs";
import { cachedContent } from "./generate-content.mjs";
import { BIN, FIXTURES, REPO, RESULTS, WORK } from "./paths.mjs";
import { runTimed, SOURCE_DATE_EPOCH } from "./timed-run.mjs";

const PEER = path.resolve(REPO, "../shared/peers/hugo");
const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  strict: true,
  options: { scales: { type: "string" }, pairs: { type: "string" }, results: { type: "string" } },
});
const scales = (flags.scales ?? "real,10").split(",");
const resultsName = flags.results ?? "hugo";
if (scales.some((s) => !["real", "10", "100"].includes(s)) || !/^[A-Za-z0-9._-]+$/.test(resultsName)) {
  process.stderr.write("hugo.mjs: --scales takes real, 10 and 100; --results a plain name.\n");
  process.exit(2);
}
const pairsFor = (scale) => Number(flags.pairs ?? (scale === "real" ? 7 : 3));

/** Hugo's version line, or null when it is not installed. */
function hugoVersion() {
  const run = spawnSync("hugo", ["version"], { encoding: "utf8" });
  return run.status === 0 ? run.stdout.trim().split(" ").slice(0, 2).join(" ") : null;
}

/** Where the peer rows run: tmpfs when the machine has one (the method of ../shared/peers/hugo/README.md). */
const TMPFS = existsSync("/dev/shm") && statfsSync("/dev/shm").bavail * statfsSync("/dev/shm").bsize > 2 ** 31;
const ROOT = mkdtempSync(path.join(TMPFS ? "/dev/shm" : os.tmpdir(), "build-index-site-hugo-"));

/** The content on tmpfs, and a copy of the peer site reading it (Hugo needs a `src` link beside its config). */
function stage(name, content) {
  const dir = path.join(ROOT, name);
  cpSync(content, path.join(dir, "content"), { recursive: true });
  cpSync(PEER, path.join(dir, "peer"), { recursive: true });
  symlinkSync(path.join(dir, "content"), path.join(dir, "peer", "src"));
  return dir;
}

const ours = (dir, out, hosts) =>
  runTimed(
    process.execPath,
    [BIN, "build", "--content", path.join(dir, "content"), "--out", path.join(out, "dist"), "-q", ...hosts],
    { SOURCE_DATE_EPOCH },
  );
const hugo = (dir, out) =>
  runTimed("sh", ["-c", `cd "$1" && exec hugo --quiet -d "$2"`, "sh", path.join(dir, "peer"), out]);

/** One peer row: `pairs` alternating pairs, each run into a fresh folder removed once timed. */
async function peerRow(label, dir, hosts, pairs, target) {
  log(`${label}: ${pairs} pairs, ours then Hugo…`);
  const a = [];
  const b = [];
  for (let i = -1; i < pairs; i++) {
    // The first pair warms the page cache and the code cache: not counted.
    for (const [runs, run] of [
      [a, (out) => ours(dir, out, hosts)],
      [b, (out) => hugo(dir, out)],
    ]) {
      const out = mkdtempSync(path.join(dir, "run-"));
      const timed = await run(out);
      if (i >= 0) runs.push(timed);
      rmSync(out, { recursive: true, force: true });
    }
  }
  const ratios = a.map((r, i) => r.ms / b[i].ms);
  const ratio = round(median(ratios), 2);
  log(`  ours / Hugo ${ratio} (pairs: ${ratios.map((x) => round(x, 2)).join(", ")})`);
  return {
    label,
    pairs,
    oursS: round(median(a.map((r) => r.ms)) / 1000, 3),
    hugoS: round(median(b.map((r) => r.ms)) / 1000, 3),
    oursRssMb: Math.round(Math.max(...a.map((r) => r.rssMb))),
    hugoRssMb: Math.round(Math.max(...b.map((r) => r.rssMb))),
    ratio,
    ratios: ratios.map((x) => round(x, 3)),
    target,
    met: ratio <= target,
  };
}

/** The ×100 row: full builds (default hosts) alternating with `cp -a` of what each wrote; under WORK (disk). The runs
 * stay there until the caller has written the results (removing millions of files takes minutes on such a disk). */
async function x100Row(runs = 3) {
  log("×100: full builds alternating with cp -a of what they wrote…");
  const content = await cachedContent(100);
  const dir = path.join(WORK, "hugo-x100");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const builds = [];
  const copies = [];
  try {
    for (let i = 0; i < runs; i++) {
      const out = path.join(dir, `build-${i}`);
      builds.push(
        await runTimed(process.execPath, [BIN, "build", "--content", content, "--out", path.join(out, "dist"), "-q"], {
          SOURCE_DATE_EPOCH,
        }),
      );
      copies.push(await runTimed("cp", ["-a", out, path.join(dir, `copy-${i}`)]));
      // Every run is kept until the row is done: a removal's discards slow the disk's next writes.
      log(
        `  build ${round(builds[i].ms / 1000, 2)} s, ${Math.round(builds[i].rssMb)} MB; cp -a ${round(copies[i].ms / 1000, 2)} s`,
      );
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const buildS = round(median(builds.map((r) => r.ms)) / 1000, 2);
  const copyS = round(median(copies.map((r) => r.ms)) / 1000, 2);
  const peakRssMb = Math.round(Math.max(...builds.map((r) => r.rssMb)));
  return { row: { runs, buildS, copyS, ratio: round(buildS / copyS, 2), peakRssMb }, dir };
}

/** The rows as a Markdown table, each beside its target. */
function markdown(result) {
  const lines = [
    `# Against Hugo (${result.date.slice(0, 16).replace("T", " ")} UTC, ${result.hugo.version ?? "hugo not installed"})`,
    "",
    `Machine: ${result.cpus} × ${result.cpuModel}, load average ${result.loadBefore.join(", ")} before and ` +
      `${result.loadAfter.join(", ")} after; peer rows on ${result.hugo.tmpfs ? "tmpfs" : "the disk (no tmpfs)"}.`,
    "",
    "| row | build-index-site | Hugo | ours / Hugo (median of pairs) | target | met |",
    "|---|---|---|---|---|---|",
  ];
  for (const r of result.hugo.rows) {
    if (r.skipped !== undefined)
      lines.push(`| ${r.label} | | | skipped: ${r.skipped} | ≤ ${r.target} | not measured |`);
    else
      lines.push(
        `| ${r.label} (${r.pairs} pairs) | ${r.oursS} s, ${r.oursRssMb} MB | ${r.hugoS} s, ${r.hugoRssMb} MB | ` +
          `**${r.ratio}** | ≤ ${r.target} | ${r.met ? "yes" : "**no**"} |`,
      );
  }
  const x = result.hugo.x100;
  if (x !== undefined) {
    lines.push("", "| ×100, default hosts | measured | target | met |", "|---|---|---|---|");
    lines.push(
      `| full build / cp -a of what it wrote | ${x.buildS} s / ${x.copyS} s = **${x.ratio}** | ≤ 1.3 | ${x.ratio <= 1.3 ? "yes" : "**no**"} |`,
    );
    lines.push(
      `| peak RSS (/usr/bin/time) | ${x.peakRssMb} MB | ≤ 300 MB | ${x.peakRssMb <= 300 ? "yes" : "**no**"} |`,
    );
  }
  return `${lines.join("\n")}\n`;
}

async function main() {
  if (!existsSync(path.join(REPO, "lib/cli.js"))) throw new Error("lib/ is missing: run `npm run build` first.");
  await mkdir(WORK, { recursive: true });
  const version = hugoVersion();
  if (version === null) log("hugo is not installed: the rows against Hugo are skipped (apt-get install -y hugo).");
  const result = {
    date: new Date().toISOString(),
    command: `node bench/hugo.mjs ${process.argv.slice(2).join(" ")}`.trim(),
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "?",
    memGb: Math.round(os.totalmem() / 2 ** 30),
    disk: TMPFS ? "tmpfs (/dev/shm)" : "the disk under $TMPDIR",
    loadBefore: os.loadavg().map((x) => round(x, 2)),
    // The rows under `hugo`, as npm run bench's results hold them (bench/targets.mjs: hugoTargets).
    hugo: { version, tmpfs: TMPFS, rows: [] },
  };
  const peer = [
    ["real", "real fixture (indexer-1.2.0-r2), default hosts", [], 0.7],
    ["real", "real fixture (indexer-1.2.0-r2), --hosts nginx", ["--hosts", "nginx"], 0.7],
    ["10", "×10, default hosts", [], 0.5],
  ].filter(([scale]) => scales.includes(scale));
  try {
    const staged = new Map();
    for (const [scale, label, hosts, target] of peer) {
      if (version === null) {
        result.hugo.rows.push({ label, skipped: "hugo is not installed", target, met: null });
        continue;
      }
      if (!staged.has(scale)) {
        const content = scale === "real" ? path.join(FIXTURES, "indexer-1.2.0-r2") : await cachedContent(Number(scale));
        staged.set(scale, stage(`x${scale}`, content));
      }
      result.hugo.rows.push(await peerRow(label, staged.get(scale), hosts, pairsFor(scale), target));
    }
  } finally {
    rmSync(ROOT, { recursive: true, force: true });
  }
  const x100 = scales.includes("100") ? await x100Row() : undefined;
  if (x100 !== undefined) result.hugo.x100 = x100.row;
  result.loadAfter = os.loadavg().map((x) => round(x, 2));
  const md = markdown(result);
  await mkdir(RESULTS, { recursive: true });
  await writeFile(path.join(RESULTS, `${resultsName}.json`), `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(path.join(RESULTS, `${resultsName}.md`), md);
  process.stdout.write(md);
  log(`Wrote bench/results/${resultsName}.md and ${resultsName}.json.`);
  if (x100 !== undefined) {
    log(`Removing the ×100 runs (${x100.dir})…`);
    rmSync(x100.dir, { recursive: true, force: true });
  }
}

await main();
