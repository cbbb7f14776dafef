// bench/run.mjs
// `npm run bench`: full builds (whole process, median wall time, peak RSS) against the floor (a plain copy of the
// same files), no-op and one-icon rebuilds, preview throughput against serve-handler by path, and nginx with the
// emitted config against nginx by path. Writes bench/results/latest.{md,json} and prints the table.
//
// Usage: node bench/run.mjs [--quick] [--scales 1,10,100] [--runs N] [--no-preview] [--no-nginx] [--no-edge] [--duration S] [--help]
//   Unknown flags and bad values exit 2 before anything runs (util.parseArgs, strict).
//   --quick: scales 1 and 10, fewer runs, 3 s load runs (about a minute).
// Everything it writes besides the results goes under $TMPDIR/build-index-site-bench (synthetic content is cached
// there between runs; built sites are removed as soon as they are measured).

import { spawn, spawnSync } from "node:child_process";
import { existsSync, statfsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, stat, writeFile, lstat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { CACHE_DIR, cachedContent, GENERATOR_VERSION } from "./generate-content.mjs";
import { squarePng } from "../scripts/tiny-png.mjs";
// The tool's own removal, a few files at a time (src/output/claim/remove-tree.ts): Node's recursive rm starts every entry of
// a folder at once, and this process held 8-11 GB while it removed the ×100 row's folders (run p, 2026-11-27).
import { removeTree as rm } from "../lib/output/claim/remove-tree.js";
import { DEFAULT_HOSTS } from "../lib/hosts/names.js";
import { nginxRows } from "./nginx.mjs";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BIN = path.join(REPO, "bin/build-index-site.js");
const FIXTURES = path.resolve(REPO, "../shared/fixtures");
const WORK = path.join(CACHE_DIR, "work");
const RESULTS = path.join(REPO, "bench/results");
/** Fixed build time: reproducible output, so that a rebuild of unchanged content changes no byte. */
const SOURCE_DATE_EPOCH = "1735689600";

// ---------------------------------------------------------------------------------------------------------- options
const USAGE = `Usage: npm run bench -- [options]   (or: node bench/run.mjs [options])

Full builds, no-op and one-icon rebuilds, preview and nginx throughput; writes bench/results/latest.{md,json}.
A full run builds synthetic content at x1, x10 and x100 (x100 writes about 0.5 M files, ~2 GB under
${CACHE_DIR}) and takes several minutes.

Options:
  --quick            scales 1 and 10, fewer runs, 3 s load runs (about a minute)
  --scales <list>    synthetic scales, comma-separated positive integers (default 1,10,100; --quick: 1,10)
  --runs <n>         build runs per row (default: 10 at real size, 5 at x10, 3 at x100)
  --duration <s>     seconds per load run (default 5; --quick: 3)
  --no-preview       skip the preview throughput rows
  --no-nginx         skip the nginx rows
  --no-builds        skip the build rows (only the preview and nginx rows, and the edge rows unless --no-edge)
  --results <name>   write bench/results/<name>.{md,json} (default: latest)
  --no-edge          skip the edge rows (bench/edge.mjs: handler µs per request; bench/edge-workerd.mjs:
                     workerd req/s, handler vs static assets; bench/edge-hosts.mjs: deployed handler sizes;
                     bench/edge-data.mjs: the lean-deploy targets; bench/edge-parity.mjs: the handler against
                     the precomputed answers at the largest scale), verify against nginx (bench/verify-nginx.mjs;
                     with ×100 also its peak RSS with --sample 20000) and the catalogue page in chromium on the real
                     fixture and, with ×100, at ×100 (bench/catalogue.mjs: first paint, first screen, ready and search ms)
  -h, --help         print this help and exit
`;
const args = process.argv.slice(2);
let parsed;
try {
  parsed = parseArgs({
    args,
    strict: true,
    allowPositionals: false,
    options: {
      quick: { type: "boolean" },
      scales: { type: "string" },
      runs: { type: "string" },
      duration: { type: "string" },
      "no-preview": { type: "boolean" },
      "no-nginx": { type: "boolean" },
      "no-edge": { type: "boolean" },
      "no-builds": { type: "boolean" },
      results: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  }).values;
} catch (error) {
  process.stderr.write(`bench: ${error.message}\nnpm run bench -- --help lists the options.\n`);
  process.exit(2);
}
if (parsed.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
/** A flag's value as a positive number (integer unless `fraction`), or exit 2 naming the flag. */
const positive = (name, text, fraction = false) => {
  const n = Number(text);
  if (
    text === undefined ||
    text.trim() === "" ||
    !Number.isFinite(n) ||
    n <= 0 ||
    (!fraction && !Number.isInteger(n))
  ) {
    process.stderr.write(
      `bench: --${name} must be a positive ${fraction ? "number" : "whole number"} (got ${JSON.stringify(text)}).\n`,
    );
    process.exit(2);
  }
  return n;
};
const flag = (name) => parsed[name.replace(/^--/, "")] === true;
const QUICK = flag("--quick");
const SCALES = (parsed.scales ?? (QUICK ? "1,10" : "1,10,100")).split(",").map((s) => positive("scales", s));
const RUNS_OVERRIDE = parsed.runs === undefined ? undefined : positive("runs", parsed.runs);
const LOAD_SECONDS = positive("duration", parsed.duration ?? (QUICK ? "3" : "5"), true);
const CONNECTIONS = 50;
const RESULTS_NAME = parsed.results ?? "latest";
if (!/^[A-Za-z0-9._-]+$/.test(RESULTS_NAME)) {
  process.stderr.write(`bench: --results must be a plain file name (got ${JSON.stringify(RESULTS_NAME)}).\n`);
  process.exit(2);
}
/** Medians of at least 10 runs at real size and 3 at ×100 (issue: honest figures); --quick: 3. */
const runsFor = (files) => Number(RUNS_OVERRIDE ?? (QUICK || files > 200_000 ? 3 : files > 60_000 ? 5 : 10));

// ---------------------------------------------------------------------------------------------------------- helpers
const log = (line) => process.stderr.write(`${line}\n`);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const round = (x, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
const HAVE_TIME = existsSync("/usr/bin/time");

/**
 * Runs a command to completion: wall time (ms, measured here around the whole process) and peak RSS (MB, from
 * /usr/bin/time when present, else by polling /proc/<pid>/status VmHWM).
 */
function runTimed(cmd, argv, env = {}) {
  return new Promise((resolve, reject) => {
    const timeFile = path.join(WORK, `time-${process.pid}.txt`);
    const [file, fullArgs] = HAVE_TIME ? ["/usr/bin/time", ["-f", "%M", "-o", timeFile, cmd, ...argv]] : [cmd, argv];
    const started = performance.now();
    const child = spawn(file, fullArgs, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    let hwm = 0;
    const poll = HAVE_TIME
      ? null
      : setInterval(() => {
          readFile(`/proc/${child.pid}/status`, "utf8").then(
            (s) => {
              const kb = Number(/VmHWM:\s+(\d+)/.exec(s)?.[1] ?? 0);
              if (kb > hwm) hwm = kb;
            },
            () => {},
          );
        }, 20);
    child.on("error", reject);
    child.on("close", async (code) => {
      const ms = performance.now() - started;
      if (poll) clearInterval(poll);
      if (code !== 0) return reject(new Error(`${cmd} ${argv.join(" ")} exited with ${code}:\n${out.slice(-2000)}`));
      if (HAVE_TIME) hwm = Number((await readFile(timeFile, "utf8")).trim().split("\n").pop());
      resolve({ ms, rssMb: hwm / 1024, out });
    });
  });
}

/**
 * Every build writes the default hosts (netlify, apache, nginx, vercel, cloudflare: every host, each through its
 * edge output where it has one), as `npx build-index-site` does. The static fallbacks (netlify-static,
 * vercel-static) are left out: they are for sites without functions, and refuse a ×100 site by design.
 */
const buildCmd = (content, out) =>
  runTimed(process.execPath, [BIN, "build", "--content", content, "--out", out], { SOURCE_DATE_EPOCH });

/** Every regular file under dir: path → { ino, size }. */
async function listFiles(dir) {
  const out = new Map();
  const walk = async (rel) => {
    const entries = await readdir(path.join(dir, rel), { withFileTypes: true });
    await Promise.all(
      entries.map(async (e) => {
        const child = rel === "" ? e.name : `${rel}/${e.name}`;
        if (e.isDirectory()) return walk(child);
        const s = await lstat(path.join(dir, child));
        out.set(child, { ino: s.ino, size: s.size });
      }),
    );
  };
  await walk("");
  return out;
}

/** Manifest lines of a built site (generated files): path → "<hash> <size>". */
async function manifest(dir) {
  const map = new Map();
  // The manifest of --out is in its records (docs/layout.md); another folder has its own inside.
  const records = path.join(path.dirname(dir), ".build-index-site", path.basename(dir), "site.manifest");
  const text = await readFile(records, "utf8").catch(() =>
    readFile(path.join(dir, ".build-manifest"), "utf8").catch(() => ""),
  );
  for (const line of text.split("\n").slice(1)) {
    const second = line.indexOf(" ", line.indexOf(" ") + 1);
    if (second > 0) map.set(line.slice(second + 1), line.slice(0, second));
  }
  return map;
}

/** The manifests of a build root's folders (dist/, the host folders beside it and the records): root-relative path → entry. */
async function manifests(root) {
  const all = new Map();
  for (const folder of ["dist", ".netlify/v1", ".vercel/output", ".build-index-site/dist"]) {
    for (const [p, entry] of await manifest(path.join(root, folder))) all.set(`${folder}/${p}`, entry);
  }
  return all;
}

/**
 * Each file's manifest entry: its own, or for a file no manifest lists (a host's hard link into dist/, docs/layout.md)
 * the entry of a listed file with the same inode, which holds the same bytes. `files` is a snapshot (listFiles).
 */
function entriesOf(files, hashes) {
  const byInode = new Map();
  for (const [p, f] of files) if (hashes.has(p)) byInode.set(f.ino, hashes.get(p));
  const all = new Map(hashes);
  for (const [p, f] of files) if (!all.has(p) && byInode.has(f.ino)) all.set(p, byInode.get(f.ino));
  return all;
}

/**
 * One edit of the content, then a rebuild from the command: its time, and how many files it rewrote (counted from the
 * inodes before and after, not from the tool's log) and how many changed bytes (from the manifests). Neither counts
 * the bookkeeping every build changes: each folder's own manifest and inputs stamp (any input), the record of the
 * folders (.build-index-site/<out>.dirs, any build), the content cache (<out>.content, any content file read) and the
 * parses' record (<out>.parsed, any JSON file changed).
 */
async function measuredRebuild(content, out, root, edit) {
  const before = await listFiles(root);
  const hashesBefore = entriesOf(before, await manifests(root));
  await edit();
  const r = await buildCmd(content, out);
  const after = await listFiles(root);
  const hashesAfter = entriesOf(after, await manifests(root));
  const rewritten = [...after]
    .filter(([p, f]) => before.get(p)?.ino !== f.ino)
    .map(([p]) => p)
    .filter((p) => !/(^|\/)\.build-(manifest|inputs)$|\.(dirs|content|parsed)$/.test(p));
  const changed = new Set(
    [...hashesAfter]
      .filter(([p, h]) => hashesBefore.get(p) !== h)
      .map(([p]) => p)
      .filter((p) => !/\.build-inputs$/.test(p)),
  );
  const extra = rewritten.filter((p) => !changed.has(p));
  const extraLine =
    extra.length > 0
      ? `; rewritten with the same bytes: ${extra.slice(0, 5).join(", ")}${extra.length > 5 ? ", …" : ""}`
      : "";
  return { ms: r.ms, rewritten: rewritten.length, changed: changed.size, extra: extra.length, extraLine };
}

/**
 * Whether a row's floor copies must be removed as soon as they are timed, because the disk cannot hold every run's
 * build and floors until the row is measured: each run makes a build (its distinct inodes), a bare copy (every file
 * its own inode: a hard link becomes a file) and `cp -a` (the build's inodes again). Asked of the disk (statfs) after
 * the warm-up build, with a fifth to spare. On a disk mounted with `discard`, files created after a large deletion
 * were written two to three times slower, so the rows keep their floors when they can and no deletion falls among the
 * timed runs (this VM's disk also slows under sustained writing without one: docs/benchmark.md). The removal is not
 * timed; it is synced, and the disk let settle (settleDisk).
 */
function floorsMustGo(listed, bytes, runs) {
  const inodes = new Set([...listed.values()].map((f) => f.ino)).size;
  const perRun = { inodes: 2 * inodes + listed.size, bytes: 3 * bytes };
  // The runs, and the timed build after them.
  const need = { inodes: runs * perRun.inodes + inodes, bytes: runs * perRun.bytes + bytes };
  try {
    const disk = statfsSync(WORK);
    return disk.ffree < need.inodes * 1.2 || disk.bavail * disk.bsize < need.bytes * 1.2;
  } catch {
    return true; // the disk cannot be asked: as before, remove them
  }
}
/** Whether a row removed its floors as they were timed (the results say which). */
const droppedFloors = [];

async function dropRoots(roots) {
  for (const root of roots) await rm(root, { recursive: true, force: true });
  spawnSync("sync");
  settleWaits.push(await settleDisk());
}

/**
 * Waits until the disk under WORK has written and discarded nothing for SETTLED_S seconds (its counters in
 * /sys/class/block/<device>/stat), at most SETTLE_MAX_S: on a disk mounted with `discard`, a removal's discards go on
 * after `sync` returns, and a build that starts meanwhile takes two to three times as long (docs/benchmark.md). Does
 * nothing where the counters cannot be read. Returns the seconds waited (logged, and kept in the results).
 */
const SETTLED_S = 5;
const SETTLE_MAX_S = 180;
const settleWaits = [];
/** How long the disk took to settle before each row: { row, s }. */
const rowSettleWaits = [];
async function settleDisk(after = "the floors' removal") {
  const device = path.basename(
    spawnSync("df", ["--output=source", WORK], { encoding: "utf8" }).stdout.trim().split("\n").pop() ?? "",
  );
  const statFile = `/sys/class/block/${device}/stat`;
  // Fields (Documentation/block/stat.rst): 7 sectors written, 15 sectors discarded (index 6 and 14).
  const counters = async () => {
    try {
      const f = (await readFile(statFile, "utf8")).trim().split(/\s+/);
      return `${f[6]} ${f[14] ?? "-"}`;
    } catch {
      return null;
    }
  };
  const started = performance.now();
  let last = await counters();
  if (last === null) return 0;
  let quiet = 0;
  while (quiet < SETTLED_S && performance.now() - started < SETTLE_MAX_S * 1000) {
    await new Promise((done) => setTimeout(done, 1000));
    const now = await counters();
    quiet = now === last ? quiet + 1 : 0;
    last = now;
  }
  const waited = round((performance.now() - started) / 1000, 1);
  log(`  (the disk settled ${waited} s after ${after})`);
  return waited;
}

/** A writable copy of a content folder that shares the files' bytes (hard links): cheap at any size. */
function linkCopy(from, to) {
  const r = spawnSync("cp", ["-al", from, to]);
  if (r.status !== 0) throw new Error(`cp -al failed: ${r.stderr}`);
}

// ---------------------------------------------------------------------------------------------------------- builds
async function benchBuild(name, content) {
  // Each build and each floor copy gets a root of its own (dist/ and the host folders beside it), and nothing is
  // removed until the row is measured, but the floors of a row that the disk cannot hold (floorsMustGo): no other run
  // pays for another's deletions, and nothing else calls sync.
  const rowDir = path.join(WORK, name);
  await rm(rowDir, { recursive: true, force: true });
  await mkdir(rowDir, { recursive: true });
  // Nothing written or discarded before the row starts: a removal's discards (the row before's, a test run's) go on
  // for minutes on this disk. (The VM's disk also has slow spells that its counters do not show: the rows' figures
  // still vary from run to run, bench/results/.)
  rowSettleWaits.push({ row: name, s: await settleDisk(`the work before ${name}`) });
  let roots = 0;
  const freshRoot = () => path.join(rowDir, `run-${roots++}`);
  const dist = (root) => path.join(root, "dist");

  // Warm-up (page cache, and the file count that decides the number of runs); the floor copies this build.
  const built = freshRoot();
  await buildCmd(content, dist(built));
  const listed = await listFiles(built);
  let bytes = 0;
  for (const f of listed.values()) bytes += f.size;
  const distFiles = [...listed.keys()].filter((p) => p.startsWith("dist/")).length;
  const runs = runsFor(listed.size);
  const dropFloors = floorsMustGo(listed, bytes, runs);
  if (dropFloors) droppedFloors.push(name);
  log(`${name}: ${listed.size} files (${distFiles} in dist/), ${bytes} bytes; ${runs} runs`);

  const builds = [];
  const floors = [];
  let last = built;
  for (let i = 0; i < runs; i++) {
    last = freshRoot();
    builds.push(await buildCmd(content, dist(last)));
    // The floor: the faster of a bare Node copy and `cp -a` (which keeps the build's hard links as links), alternated
    // with the builds, each into a fresh root.
    const nodeRoot = freshRoot();
    const node = await runTimed(process.execPath, [path.join(REPO, "bench/floor.mjs"), built, nodeRoot]);
    const cpRoot = freshRoot();
    const cpA = await runTimed("cp", ["-a", built, cpRoot]);
    floors.push(cpA.ms < node.ms ? cpA : node);
    log(
      `  build ${round(builds.at(-1).ms / 1000)} s (${round(builds.at(-1).rssMb, 0)} MB), floor ${round(floors.at(-1).ms / 1000)} s`,
    );
    if (dropFloors) await dropRoots([nodeRoot, cpRoot]);
  }
  // One more build with BUILD_INDEX_SITE_TIMINGS=1: where the time goes, phase by phase (not in the medians).
  const timed = await runTimed(process.execPath, [BIN, "build", "--content", content, "--out", dist(freshRoot())], {
    SOURCE_DATE_EPOCH,
    BUILD_INDEX_SITE_TIMINGS: "1",
  });
  const phases = [...timed.out.matchAll(/^timing (.+) ([\d.]+) rss (\d+) heap (\d+)$/gm)].map((m) => ({
    phase: m[1],
    ms: Number(m[2]),
    rssMb: Number(m[3]),
    heapMb: Number(m[4]),
  }));
  const buildMs = median(builds.map((b) => b.ms));
  const floorMs = median(floors.map((b) => b.ms));
  const counts = /Built .*?: (\d+) responses?, (\d+) route rules?, (\d+) files?/.exec(builds[0].out);
  const out = dist(last);

  // No-op rebuilds: the previous dist is there, nothing changed.
  const noops = [];
  let noopRewritten = 0;
  for (let i = 0; i < runs; i++) {
    const before = await listFiles(last);
    const r = await buildCmd(content, out);
    noops.push(r.ms);
    const after = await listFiles(last);
    noopRewritten = [...after].filter(([p, f]) => before.get(p)?.ino !== f.ino).length;
    log(`  no-op rebuild ${round(r.ms / 1000)} s, ${noopRewritten} files rewritten`);
  }

  // One icon changed: a hard-linked copy of the content with one icon replaced by a different picture.
  const work = path.join(WORK, `${name}-content`);
  await rm(work, { recursive: true, force: true });
  linkCopy(content, work);
  // A link gives its file a new change time, and the content cache (src/content/content-cache.ts) does not keep a file
  // changed within 3 s of being read: the rows below edit content that has sat, as a maintainer's has, but for the
  // file each edit changes.
  await new Promise((resolve) => setTimeout(resolve, 3200));
  const iconsDir = path.join(work, "icons");
  const icon = (await readdir(iconsDir)).filter((n) => n.endsWith(".png")).sort()[0];
  await buildCmd(work, out);
  const one = await measuredRebuild(work, out, last, async () => {
    const replacement = path.join(work, `.new-${icon}`);
    await writeFile(replacement, squarePng(40, [1, 2, 3, 255], [250, 0, 0, 255]));
    await rename(replacement, path.join(iconsDir, icon));
  });
  log(
    `  one-icon rebuild ${round(one.ms / 1000)} s: ${one.rewritten} files rewritten, ${one.changed} changed bytes${one.extraLine}`,
  );
  // One icon added: a new picture under a new name (nothing maps to it yet).
  const added = await measuredRebuild(work, out, last, () =>
    writeFile(path.join(iconsDir, "zz-bench-added.png"), squarePng(40, [3, 2, 1, 255], [0, 0, 250, 255])),
  );
  log(
    `  add-icon rebuild ${round(added.ms / 1000)} s: ${added.rewritten} files rewritten, ${added.changed} changed bytes${added.extraLine}`,
  );

  // One mapping edited (icons.json: one extension's icon), rebuilt from the command, `runs` times: the mapping
  // alternates between two icons, so each run is a change. Rewritten files are counted from the inodes, not the log.
  const mapFile = path.join(work, "icons.json");
  const map = JSON.parse(await readFile(mapFile, "utf8"));
  const key = Object.keys(map).find((k) => k !== "file" && k !== "folder" && map[k] !== icon);
  const original = map[key];
  const mappingMs = [];
  let mapping = { rewritten: 0, changed: 0, extra: 0 };
  for (let i = 0; i < runs; i++) {
    mapping = await measuredRebuild(work, out, last, async () => {
      map[key] = i % 2 === 0 ? icon : original;
      const tmp = `${mapFile}.new`;
      await writeFile(tmp, `${JSON.stringify(map, null, 4)}\n`);
      await rename(tmp, mapFile); // replaces the hard link: the cached content is not touched
    });
    mappingMs.push(mapping.ms);
  }
  log(
    `  one-mapping rebuild ${round(median(mappingMs) / 1000)} s (median of ${runs}): ${mapping.rewritten} files rewritten, ${mapping.changed} changed bytes`,
  );

  // The same edit in `dev` (the process stays up between edits, with the content in memory): the rebuild's time as
  // `dev` reports it once the output is updated ("Updated dist/ in place: … in N ms"), so without the watcher's
  // debounce; `runs` edits, the mapping alternating as above, then `runs` more: a maintainer keeps `dev` up for hours,
  // and its first edits run code V8 has not optimized yet (the first rebuild takes two to three times the tenth). The
  // target is held to the first `runs`; the later ones show the steady state.
  // After each rebuild, the preview is asked for the edited extension's findIcon answer (it must name the new icon):
  // the time a maintainer waits for the answer once the rebuild is reported (the preview reloads what it needs).
  const dev = await devMappingRebuilds(work, out, mapFile, map, key, [icon, original], 2 * runs);
  const devMs = dev.times.slice(0, runs);
  const devLaterMs = dev.times.slice(runs);
  log(
    `  one-mapping rebuild in dev ${round(median(devMs))} ms (median of the first ${devMs.length}; ${round(median(devLaterMs))} ms of the next ${devLaterMs.length});` +
      ` the next answer ${round(median(dev.answers))} ms (median of ${dev.answers.length}); ready for edits ${round(dev.readyMs / 1000, 2)} s after start`,
  );
  // A build in full over the earlier one: of other hosts (the default set but cloudflare), as after a change of --hosts
  // or of the tool's version, when every file is written again or linked. One run, for its peak memory beside the
  // fresh builds' (a heap let grow for an expected update in place stayed grown: 1.8 GB at ×100).
  const over = await runTimed(
    process.execPath,
    [
      BIN,
      "build",
      "--content",
      work,
      "--out",
      out,
      "--hosts",
      DEFAULT_HOSTS.filter((h) => h !== "cloudflare").join(","),
    ],
    { SOURCE_DATE_EPOCH },
  );
  if (!/^Built /m.test(over.out))
    throw new Error(`A build of other hosts over ${out} was not written in full:\n${over.out.slice(-2000)}`);
  log(
    `  full build over the earlier one (other hosts) ${round(over.ms / 1000)} s, peak RSS ${round(over.rssMb, 0)} MB`,
  );
  await rm(work, { recursive: true, force: true });
  await rm(rowDir, { recursive: true, force: true });

  return {
    name,
    distFiles,
    answers: Number(counts?.[1] ?? 0),
    files: listed.size,
    bytes,
    runs,
    buildS: round(buildMs / 1000, 3),
    buildRunsS: builds.map((b) => round(b.ms / 1000, 3)),
    peakRssMb: round(Math.max(...builds.map((b) => b.rssMb)), 1),
    floorS: round(floorMs / 1000, 3),
    buildMinS: round(Math.min(...builds.map((b) => b.ms)) / 1000, 3),
    phases,
    phasesRun: { s: round(timed.ms / 1000, 3), rssMb: round(timed.rssMb, 1) },
    floorRunsS: floors.map((b) => round(b.ms / 1000, 3)),
    ratio: round(buildMs / floorMs, 2),
    noopS: round(median(noops) / 1000, 3),
    noopOfFull: round(median(noops) / buildMs, 2),
    noopRewritten,
    oneIconS: round(one.ms / 1000, 3),
    oneIconRewritten: one.rewritten,
    oneIconChangedBytes: one.changed,
    oneIconRewrittenUnchanged: one.extra,
    addIconS: round(added.ms / 1000, 3),
    addIconRewritten: added.rewritten,
    addIconChangedBytes: added.changed,
    addIconRewrittenUnchanged: added.extra,
    oneMappingS: round(median(mappingMs) / 1000, 3),
    oneMappingRunsS: mappingMs.map((ms) => round(ms / 1000, 3)),
    oneMappingRewritten: mapping.rewritten,
    oneMappingChangedBytes: mapping.changed,
    oneMappingRewrittenUnchanged: mapping.extra,
    devMappingMs: round(median(devMs), 1),
    devMappingRunsMs: devMs.map((ms) => round(ms, 1)),
    devLaterMs: round(median(devLaterMs), 1),
    devLaterRunsMs: devLaterMs.map((ms) => round(ms, 1)),
    devAnswerMs: round(median(dev.answers), 1),
    devAnswerRunsMs: dev.answers.map((ms) => round(ms, 1)),
    devReadyS: round(dev.readyMs / 1000, 2),
    overS: round(over.ms / 1000, 3),
    overRssMb: round(over.rssMb, 1),
  };
}

/**
 * `dev` on `content` into `out` (built already): `runs` edits of icons.json (`key` alternating between `values`),
 * each waited for until `dev` says the output is updated; returns each rebuild's milliseconds as `dev` prints them,
 * and the milliseconds of the request that follows each (`findIcon` of `key`, checked to name the new icon).
 */
async function devMappingRebuilds(content, out, mapFile, map, key, values, runs) {
  const child = spawn(process.execPath, [BIN, "dev", "--content", content, "--out", out, "--port", "0"], {
    env: { ...process.env, SOURCE_DATE_EPOCH },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  const waiters = [];
  const onData = (d) => {
    text += d;
    for (const w of [...waiters]) w();
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  /** Resolves with the first match of `re` in what `dev` printed after `from`. */
  const waitFor = (re, from) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`dev did not print ${re} in time:\n${text.slice(-2000)}`)),
        180_000,
      );
      const check = () => {
        const m = re.exec(text.slice(from));
        if (m === null) return;
        clearTimeout(timer);
        waiters.splice(waiters.indexOf(check), 1);
        resolve(m);
      };
      waiters.push(check);
      check();
    });
  const times = [];
  const answers = [];
  const started = performance.now();
  let readyMs = 0;
  try {
    const url = (await waitFor(/^Preview: (http\S+)/m, 0))[1];
    // dev first holds the site in memory (an update in place of the output it found up to date, writing nothing).
    await waitFor(/^Ready for edits/m, 0);
    readyMs = performance.now() - started;
    for (let i = 0; i < runs; i++) {
      map[key] = map[key] === values[0] ? values[1] : values[0]; // each edit is a change
      const from = text.length;
      const tmp = `${mapFile}.new`;
      await writeFile(tmp, `${JSON.stringify(map, null, 4)}\n`);
      await rename(tmp, mapFile);
      const m = await waitFor(/^Updated .* in ([\d.]+) (ms|s) /m, from);
      times.push(Number(m[1]) * (m[2] === "s" ? 1000 : 1));
      const asked = performance.now();
      const res = await fetch(new URL(`api.php?action=findIcon&extension=${encodeURIComponent(key)}`, url));
      const body = await res.text();
      answers.push(performance.now() - asked);
      if (!body.includes(JSON.stringify(map[key])))
        throw new Error(
          `dev answered findIcon for ${key} without ${map[key]} after the rebuild: ${body.slice(0, 300)}`,
        );
    }
  } finally {
    const exited = new Promise((done) => (child.exitCode !== null ? done() : child.once("exit", done)));
    child.kill("SIGTERM");
    await exited;
  }
  return { times, answers, readyMs };
}

// ---------------------------------------------------------------------------------------------------------- preview
/** Starts a server process and resolves with its URL (the first line matching `re`) and a stop function. */
function startServer(cmd, argv, re) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 15_000);
    child.stdout.on("data", (d) => {
      out += d;
      const m = re.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1],
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done();
              child.once("exit", () => done());
              child.kill("SIGTERM");
              setTimeout(() => child.exitCode === null && child.kill("SIGKILL"), 2000).unref();
            }),
        });
      }
    });
    child.stderr.on("data", (d) => (out += d));
    child.on("error", reject);
  });
}

/** A fixed mix of /api.php queries over the site, and for each the path of the file that answers it. */
async function requestMix(dir) {
  const { compileTable, matchRoute, parseQuery } = await import("../lib/routes/route-table.js");
  const table = JSON.parse(
    await readFile(path.join(path.dirname(dir), ".build-index-site", path.basename(dir), "routes.json"), "utf8"),
  );
  const compiled = compileTable(table);
  const icons = (await readdir(path.join(dir, "icons"))).filter((n) => n.endsWith(".png")).sort();
  const extensions = (await readdir(path.join(dir, "api/findIcon/file"))).map((n) => n.replace(/\.json$/, "")).sort();
  const versions = (await readdir(path.join(dir, "api/versionCheck"))).map((n) => n.replace(/\.json$/, "")).sort();
  const pick = (xs, i) => xs[(i * 7919) % xs.length];
  const queries = [];
  for (let i = 0; i < 20; i++) {
    const e = encodeURIComponent(pick(extensions, i));
    queries.push(`action=findIcon&type=file&extension=${e}`);
    queries.push(`action=findIcon&extension=${e.toUpperCase()}`);
    queries.push(`action=getExtensionSetting&extension=${e}&type=viewing`);
    queries.push(`action=icon&name=${encodeURIComponent(pick(icons, i))}`);
  }
  for (let i = 0; i < 5; i++)
    queries.push(`action=versionCheck&current_version=${encodeURIComponent(pick(versions, i))}`);
  queries.push(
    "action=config",
    "action=status",
    "action=findIcon&type=folder&extension=x",
    "action=nope",
    "action=findIcon&extension=no-such-ext",
    "action=iconMappings",
    "action=extensionMappings&type=indexing",
  );
  return queries.map((q) => {
    const { rule, target } = matchRoute(compiled, parseQuery(q));
    return { api: `/api.php?${q}`, file: encodeURI(target), status: rule.status };
  });
}

async function load(url, paths) {
  const { default: autocannon } = await import("autocannon");
  const base = new URL(url);
  if (base.hostname !== "127.0.0.1") throw new Error(`refusing to load anything but 127.0.0.1 (${url})`);
  const result = await autocannon({
    url: `${base.origin}`,
    connections: CONNECTIONS,
    duration: LOAD_SECONDS,
    requests: paths.map((p) => ({ method: "GET", path: p })),
  });
  return {
    rps: round(result.requests.average, 0),
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

async function benchPreview(name, content) {
  const root = path.join(WORK, `${name}-preview`);
  const dir = path.join(root, "dist");
  await rm(root, { recursive: true, force: true });
  await buildCmd(content, dir);
  const mix = await requestMix(dir);
  const expectedNon2xx = mix.filter((m) => m.status !== 200).length / mix.length;
  const rows = [];
  for (const [label, cmd, argv, re, paths] of [
    [
      "preview, /api.php mix",
      process.execPath,
      [BIN, "preview", "--dir", dir, "--port", "0", "--host", "127.0.0.1"],
      /Preview: (\S+)/,
      mix.map((m) => m.api),
    ],
    [
      "serve-handler, same files by path",
      process.execPath,
      [path.join(REPO, "bench/serve-files.mjs"), dir],
      /Serving: (\S+)/,
      mix.map((m) => m.file),
    ],
  ]) {
    const server = await startServer(cmd, argv, re);
    try {
      await load(server.url, paths.slice(0, 5)); // warm-up
      const r = await load(server.url, paths);
      rows.push({ server: label, ...r });
      log(
        `  ${label}: ${r.rps} req/s, p99 ${r.p99Ms} ms (${r.non2xx} non-2xx of ${r.requests}, ${round(expectedNon2xx * 100, 0)}% expected)`,
      );
    } finally {
      await server.stop();
    }
  }
  await rm(root, { recursive: true, force: true });
  return {
    site: name,
    mixSize: mix.length,
    connections: CONNECTIONS,
    seconds: LOAD_SECONDS,
    rows,
    ratio: round(rows[0].rps / rows[1].rps, 2),
  };
}

// ---------------------------------------------------------------------------------------------------------- report
function markdown(result) {
  const L = [];
  const t = result.targets;
  L.push(`# Benchmark results`, "");
  L.push(
    `${result.date} · Node ${result.node} · ${result.cpus} × ${result.cpuModel} · ${result.memGb} GiB · load average before: ${result.loadBefore.join(", ")}`,
    "",
  );
  L.push(
    `Command: \`${result.command}\`. Builds run the CLI as a whole process (\`node bin/build-index-site.js build\`,` +
      ` default hosts: netlify, apache, nginx, vercel, cloudflare), with SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH}, each into a` +
      ` fresh root on ${result.disk} (dist/ and the host folders beside it: .netlify/v1, .vercel/output). The floor is` +
      " the faster of `bench/floor.mjs`, a bare Node process that copies every file the build wrote (readFileSync +" +
      " writeFileSync per file), and `cp -a` of the same root (hard links kept), measured alternately with the builds in" +
      " the same run. Nothing is deleted until a row is measured" +
      (result.droppedFloors?.length
        ? `, but the floors' copies of the rows the disk could not hold until then (${result.droppedFloors.join(", ")}): removed untimed, then synced, as soon as they are timed,` +
          ` and the disk let settle (no sector written or discarded for ${SETTLED_S} s, at most ${SETTLE_MAX_S} s: it waited` +
          ` ${result.settleWaitsS?.length ? result.settleWaitsS.map((w) => `${w} s`).join(", ") : "no time"}) before the next build.`
        : " (the disk held every run of every row).") +
      (result.rowSettleWaits?.length
        ? ` Each row starts once the disk has settled (no sector written or discarded for ${SETTLED_S} s, at most ${SETTLE_MAX_S} s:` +
          ` ${result.rowSettleWaits.map((w) => `${w.s} s before ${w.row}`).join(", ")}).`
        : ""),
    "",
  );
  const start = result.nodeStart;
  if (start !== undefined) {
    L.push(
      `Node's own start (\`node -e 0\`, median of 10): ${start.ms} ms.` +
        (start.extraCaCerts === undefined
          ? ""
          : ` This machine sets NODE_EXTRA_CA_CERTS=${start.extraCaCerts}, which Node reads and parses at every start: ${start.withCertsMs} ms` +
            " with it. Every command here runs without it (none opens a TLS connection): a machine that sets it adds the" +
            " difference to every figure below that starts a process."),
      "",
    );
  }
  L.push("## Builds", "");
  L.push(
    "| content | answers | files (dist/) | MB written | full build (median) | peak RSS | floor (median) | **build / floor** | no-op rebuild | no-op / full | no-op files rewritten | one-icon rebuild | one-icon files rewritten / changed | add-icon rebuild | add-icon files rewritten / changed | one-mapping rebuild (median) | one-mapping files rewritten / changed | one-mapping rebuild in dev (median of the first runs; of as many after them) | the next answer after a dev rebuild (median) | dev ready for edits after start |",
  );
  L.push(`|---|${"---:|".repeat(19)}`);
  for (const b of result.builds) {
    L.push(
      `| ${b.name} | ${b.answers} | ${b.files} (${b.distFiles}) | ${round(b.bytes / 1e6, 1)} | ${b.buildS} s | ${b.peakRssMb} MB | ${b.floorS} s | **${b.ratio}** | ${b.noopS} s | ${Math.round(b.noopOfFull * 100)}% | ${b.noopRewritten} | ${b.oneIconS} s | ${b.oneIconRewritten} / ${b.oneIconChangedBytes} | ${b.addIconS} s | ${b.addIconRewritten} / ${b.addIconChangedBytes} | ${b.oneMappingS} s | ${b.oneMappingRewritten} / ${b.oneMappingChangedBytes} | ${b.devMappingMs} ms; ${b.devLaterMs ?? "–"} ms | ${b.devAnswerMs ?? "–"} ms | ${b.devReadyS ?? "–"} s |`,
    );
  }
  for (const f of result.failures ?? [])
    L.push(`| ${f.name} | **build failed**: ${f.error.replace(/\|/g, "\\|")} |||||||||||| |`);
  L.push(
    "",
    `Runs per size: ${result.builds.map((b) => `${b.name} ${b.runs}`).join(", ")} (every run's time is in ${RESULTS_NAME}.json).`,
  );
  if (result.builds.some((b) => b.overS !== undefined)) {
    L.push(
      "",
      `A build in full over the earlier one (other hosts: the default set but cloudflare; one run): ${result.builds
        .filter((b) => b.overS !== undefined)
        .map((b) => `${b.name} ${b.overS} s, peak RSS ${b.overRssMb} MB (fresh: ${b.peakRssMb} MB)`)
        .join("; ")}.`,
    );
  }
  const phaseNames = [...new Set(result.builds.flatMap((b) => b.phases.map((p) => p.phase)))];
  if (phaseNames.length) {
    L.push(
      "",
      "### Where the time goes",
      "",
      "One more build per row with BUILD_INDEX_SITE_TIMINGS=1: ms per phase, in order, and the process's RSS / V8 heap in" +
        " use (MiB) at the phase's end. \"load modules\" is the import of the compile pipeline; node's own start-up is in the" +
        " wall time only.",
      "",
    );
    L.push(
      `| phase | ${result.builds.map((b) => b.name).join(" | ")} |`,
      `|---|${result.builds.map(() => "---:").join("|")}|`,
    );
    for (const name of phaseNames) {
      L.push(
        `| ${name} | ${result.builds
          .map((b) => {
            const p = b.phases.find((x) => x.phase === name);
            return p === undefined ? "" : `${p.ms} (${p.rssMb} / ${p.heapMb})`;
          })
          .join(" | ")} |`,
      );
    }
    L.push(
      `| (wall, peak RSS) | ${result.builds.map((b) => `${b.phasesRun.s} s, ${b.phasesRun.rssMb} MB`).join(" | ")} |`,
    );
  }
  if (result.growth)
    L.push(
      "",
      `Growth: ×10 → ×100 costs ${result.growth.ratio}× as much time (${result.growth.from} s → ${result.growth.to} s).`,
    );
  L.push("", "## Preview throughput", "");
  if (result.preview) {
    const p = result.preview;
    L.push(
      `Site: ${p.site}; ${p.mixSize} distinct requests cycled by autocannon, ${p.connections} connections, ${p.seconds} s, 127.0.0.1.`,
      "",
    );
    L.push("| server | req/s | p99 latency | requests | non-2xx |", "|---|---:|---:|---:|---:|");
    for (const r of p.rows) L.push(`| ${r.server} | ${r.rps} | ${r.p99Ms} ms | ${r.requests} | ${r.non2xx} |`);
    L.push("", `Preview / serve-handler by path: **${p.ratio}**.`);
  } else L.push("(skipped)");
  L.push("", "## nginx", "");
  if (result.nginx?.rows) {
    const n = result.nginx;
    L.push(`${n.note}`, "");
    L.push("| server | req/s | p99 latency | requests | non-2xx |", "|---|---:|---:|---:|---:|");
    for (const r of n.rows) L.push(`| ${r.server} | ${r.rps} | ${r.p99Ms} ms | ${r.requests} | ${r.non2xx} |`);
    L.push("", `nginx with the emitted config / nginx by path: **${n.ratio}**.`);
  } else L.push(`Skipped: ${result.nginx?.skipped ?? "not run"}`);
  L.push("", "## Targets", "", "| target | measured | met |", "|---|---|---|");
  for (const row of t)
    L.push(`| ${row.target} | ${row.measured} | ${row.met === null ? "n/a" : row.met ? "yes" : "**no**"} |`);
  L.push("");
  return L.join("\n");
}

function targets(result) {
  const rows = [];
  const real = result.builds.filter((b) => b.name.startsWith("indexer-"));
  for (const b of real) {
    rows.push({ target: `${b.name}: full build / floor ≤ 1.3`, measured: `${b.ratio}`, met: b.ratio <= 1.3 });
  }
  const x100 = result.builds.find((b) => b.name === "synthetic-x100");
  const x100Failed = result.failures?.find((f) => f.name === "synthetic-x100");
  if (x100Failed)
    rows.push({
      target: "×100: full build ≤ 1.3× the floor, peak RSS ≤ 300 MB, ×10 → ×100 ≤ 11×",
      measured: `build failed: ${x100Failed.error}`,
      met: false,
    });
  if (x100) {
    rows.push({
      target: "×100 (every default host): full build ≤ 1.3× the floor",
      measured: `${x100.buildS} s, floor ${x100.floorS} s: ${x100.ratio}×`,
      met: x100.ratio <= 1.3,
    });
    rows.push({ target: "×100: peak RSS ≤ 300 MB", measured: `${x100.peakRssMb} MB`, met: x100.peakRssMb <= 300 });
  }
  if (result.growth)
    rows.push({
      target: "×10 → ×100 costs ≤ 11×",
      measured: `${result.growth.ratio}×`,
      met: result.growth.ratio <= 11,
    });
  for (const b of result.builds) {
    rows.push({
      target: `${b.name}: no-op rebuild ≤ 25% of full or < 100 ms, rewrites nothing`,
      measured: `${Math.round(b.noopOfFull * 100)}% (${b.noopS} s), ${b.noopRewritten} rewritten`,
      met: (b.noopOfFull <= 0.25 || b.noopS < 0.1) && b.noopRewritten === 0,
    });
    const mappingTarget = b.name.endsWith("x100") ? 2 : b.name.startsWith("indexer") ? 0.3 : undefined;
    const devTarget = b.name.endsWith("x100") ? 2000 : b.name.startsWith("indexer") ? 50 : undefined;
    if (mappingTarget !== undefined) {
      rows.push({
        target: `${b.name}: edit one mapping, rebuild from the command ≤ ${mappingTarget} s, only affected files rewritten`,
        measured: `${b.oneMappingS} s; ${b.oneMappingRewritten} rewritten, ${b.oneMappingChangedBytes} changed, ${b.oneMappingRewrittenUnchanged} unchanged rewritten`,
        met: b.oneMappingS <= mappingTarget && b.oneMappingRewrittenUnchanged === 0,
      });
    }
    if (devTarget !== undefined) {
      rows.push({
        target: `${b.name}: edit one mapping, rebuild in dev ≤ ${devTarget} ms`,
        measured: `${b.devMappingMs} ms (median of ${b.devMappingRunsMs.length})`,
        met: b.devMappingMs <= devTarget,
      });
    }
    if (b.name.endsWith("x100"))
      rows.push({
        target: `${b.name}: one icon changed (a new picture), rebuild ≤ 2 s`,
        measured: `${b.oneIconS} s`,
        met: b.oneIconS <= 2,
      });
    rows.push({
      target: `${b.name}: one-icon rebuild rewrites only changed files`,
      measured: `${b.oneIconRewritten} rewritten, ${b.oneIconChangedBytes} changed, ${b.oneIconRewrittenUnchanged} unchanged rewritten`,
      met: b.oneIconRewrittenUnchanged === 0,
    });
    if (b.name.endsWith("x100"))
      rows.push({
        target: `${b.name}: add one icon, rebuild ≤ 2 s`,
        measured: `${b.addIconS} s`,
        met: b.addIconS <= 2,
      });
    rows.push({
      target: `${b.name}: add-icon rebuild rewrites only changed files`,
      measured: `${b.addIconRewritten} rewritten, ${b.addIconChangedBytes} changed, ${b.addIconRewrittenUnchanged} unchanged rewritten`,
      met: b.addIconRewrittenUnchanged === 0,
    });
  }
  if (result.preview)
    rows.push({
      target: "preview ≥ 50% of serve-handler by path (req/s)",
      measured: `${Math.round(result.preview.ratio * 100)}%`,
      met: result.preview.ratio >= 0.5,
    });
  rows.push(
    result.nginx?.rows
      ? {
          target: "nginx with emitted config ≥ 90% of nginx by path",
          measured: `${Math.round(result.nginx.ratio * 100)}%`,
          met: result.nginx.ratio >= 0.9,
        }
      : {
          target: "nginx with emitted config ≥ 90% of nginx by path",
          measured: `skipped: ${result.nginx?.skipped ?? "not run"}`,
          met: null,
        },
  );
  return rows;
}

/**
 * Node's own start (`node -e 0`, median of 10), without NODE_EXTRA_CA_CERTS and, when the environment sets it, with it
 * (alternately). Node reads and parses that certificate file at every start, before any of the tool's code runs: on
 * the machine this bench was written on (a VM that sets it for its proxy) 85 ms against 30. No command the bench runs
 * opens a TLS connection, so they all run without it, and the report says what it would have added.
 */
function nodeStart() {
  const certs = process.env.NODE_EXTRA_CA_CERTS;
  const time = (env) => {
    const started = performance.now();
    spawnSync(process.execPath, ["-e", "0"], { env });
    return performance.now() - started;
  };
  const plain = [];
  const withCerts = [];
  const { NODE_EXTRA_CA_CERTS: _, ...without } = process.env;
  for (let i = 0; i < 10; i++) {
    plain.push(time(without));
    if (certs !== undefined) withCerts.push(time(process.env));
  }
  return {
    ms: round(median(plain), 1),
    ...(certs === undefined ? {} : { extraCaCerts: certs, withCertsMs: round(median(withCerts), 1) }),
  };
}

// ---------------------------------------------------------------------------------------------------------- main
async function main() {
  if (!existsSync(path.join(REPO, "lib/cli.js")))
    throw new Error("lib/ is missing: run `npm ci` (or `npm run build`) first.");
  await mkdir(WORK, { recursive: true });
  const df = spawnSync("df", ["-hT", WORK], { encoding: "utf8" }).stdout.trim().split("\n").pop()?.split(/\s+/) ?? [];
  log(
    `Working in ${WORK} (${df[1]} on ${df[0]}, ${df[4]} free); synthetic content v${GENERATOR_VERSION} cached in ${CACHE_DIR}`,
  );
  const result = {
    date: new Date().toISOString(),
    command: `npm run bench${args.length ? ` -- ${args.join(" ")}` : ""}`,
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
  // Every process the bench starts runs without NODE_EXTRA_CA_CERTS (nodeStart).
  delete process.env.NODE_EXTRA_CA_CERTS;

  const sites = [];
  for (const fixture of ["indexer-1.2.0-r2", "indexer-1.1.15"]) {
    const dir = path.join(FIXTURES, fixture);
    if (existsSync(path.join(dir, "manifest.json"))) sites.push([fixture, dir]);
    else log(`${dir} is not there: real-fixture rows skipped.`);
  }
  for (const scale of SCALES) {
    log(`Synthetic content ×${scale}…`);
    sites.push([`synthetic-x${scale}`, await cachedContent(scale)]);
  }
  result.failures = [];
  for (const [name, dir] of flag("--no-builds") ? [] : sites) {
    try {
      result.builds.push(await benchBuild(name, dir));
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
      await rm(path.join(WORK, name), { recursive: true, force: true });
    }
  }

  const x10 = result.builds.find((b) => b.name === "synthetic-x10");
  const x100 = result.builds.find((b) => b.name === "synthetic-x100");
  if (x10 && x100) result.growth = { from: x10.buildS, to: x100.buildS, ratio: round(x100.buildS / x10.buildS, 2) };

  const previewSite = sites[0];
  if (!flag("--no-preview")) {
    log(`Preview throughput on ${previewSite[0]}…`);
    result.preview = await benchPreview(previewSite[0], previewSite[1]);
  }
  if (flag("--no-nginx")) result.nginx = { skipped: "--no-nginx" };
  else {
    log("nginx…");
    const root = path.join(WORK, `${previewSite[0]}-nginx`);
    const dir = path.join(root, "dist");
    await rm(root, { recursive: true, force: true });
    await buildCmd(previewSite[1], dir);
    try {
      result.nginx = await nginxRows({ dir, mix: await requestMix(dir), load, work: WORK, log });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }
  result.loadAfter = os.loadavg().map((x) => round(x, 2));
  result.targets = targets(result);

  await mkdir(RESULTS, { recursive: true });
  const md = markdown(result);
  await writeFile(path.join(RESULTS, `${RESULTS_NAME}.json`), `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(path.join(RESULTS, `${RESULTS_NAME}.md`), md);
  process.stdout.write(`${md}\n`);
  log(
    `Wrote bench/results/${RESULTS_NAME}.md and ${RESULTS_NAME}.json (load average after: ${result.loadAfter.join(", ")}).`,
  );
  if (!flag("--no-edge")) runEdgeBenches();
}

/** The edge handler's, verify's and the catalogue's rows, each its own script (they print their tables and write
 * bench/results/). */
function runEdgeBenches() {
  const quick = QUICK;
  const scripts = [
    ["edge.mjs", quick ? ["--seconds", "1"] : []],
    ["edge-workerd.mjs", quick ? ["--seconds", "3"] : []],
    ["edge-hosts.mjs", ["--scales", SCALES.includes(100) ? "1,100" : "1"]],
    // The lean-deploy targets (upload files, handler size, import, first and warm request, edge-only build).
    ["edge-data.mjs", []],
    ...(SCALES.includes(100) ? [["edge-data.mjs", ["--scale", "100"]]] : []),
    // The edge parity suite at ×100: the emitted handler against the precomputed answers, a deterministic sample.
    ...(SCALES.includes(100)
      ? [["edge-parity.mjs", ["--scale", "100"]]]
      : [["edge-parity.mjs", ["--scale", String(Math.max(...SCALES)), "--all"]]]),
    // verify against nginx over the real fixture's whole domain, and its peak RSS with --sample 20000 at ×100; the
    // catalogue page in chromium (the real fixture, and ×100): first paint, first screen, ready, search.
    ["verify-nginx.mjs", []],
    ...(SCALES.includes(100) ? [["verify-nginx.mjs", ["--scale", "100", "--sample", "20000"]]] : []),
    ["catalogue.mjs", ["real"]],
    ...(SCALES.includes(100) ? [["catalogue.mjs", ["100"]]] : []),
  ];
  for (const [script, extra] of scripts) {
    log(`${script}…`);
    const run = spawnSync(process.execPath, [path.join(REPO, "bench", script), ...extra], { stdio: "inherit" });
    if (run.status !== 0) log(`${script}: FAILED (exit ${run.status})`);
  }
}

// Stopped midway, the bench leaves the runs of the row it was in (a ×100 row: 850,000 files a run) under WORK: it says
// so, rather than delete millions of files after Ctrl-C. A row that runs again removes its own first.
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

await main();
