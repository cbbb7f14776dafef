// bench/build-row.mjs
// One row of the builds table: full builds against their floor, then the rebuilds (no-op, one icon changed, one icon
// added, one mapping edited from the command and in `dev`) and a build in full over the earlier one, on one content
// folder. Nothing is removed until the row is measured, but the floors of a row the disk cannot hold (floorsMustGo).
// I/O: builds into WORK, edits a hard-linked copy of the content, removes both at the end.

import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { DEFAULT_HOSTS } from "../lib/hosts/names.js";
import { squarePng } from "../scripts/tiny-png.mjs";
import { log, median, round } from "./common.mjs";
import { devMappingRebuilds } from "./dev-rebuilds.mjs";
import { droppedFloors, dropRoots, floorsMustGo, linkCopy, removeDir, rowSettleWaits, settleDisk } from "./disk.mjs";
import { listFiles, measuredRebuild } from "./measured-rebuild.mjs";
import { BIN, REPO, WORK } from "./paths.mjs";
import { buildCmd, runTimed, SOURCE_DATE_EPOCH } from "./timed-run.mjs";

const dist = (root) => path.join(root, "dist");

/**
 * The row of `name` (content folder `content`); `runsFor(files)` gives the number of runs from the files a build
 * writes. Each build and each floor copy gets a root of its own (dist/ and the host folders beside it): no run pays
 * for another's deletions, and nothing else calls sync.
 */
export async function benchBuild(name, content, runsFor) {
  const rowDir = path.join(WORK, name);
  await removeDir(rowDir);
  await mkdir(rowDir, { recursive: true });
  // Nothing written or discarded before the row starts: a removal's discards (the row before's, a test run's) go on
  // for minutes on a disk mounted with `discard`.
  rowSettleWaits.push({ row: name, s: await settleDisk(`the work before ${name}`) });
  let roots = 0;
  const freshRoot = () => path.join(rowDir, `run-${roots++}`);
  const full = await fullBuilds(name, content, freshRoot, runsFor);
  const timed = await phasesBuild(content, dist(freshRoot()));
  const out = dist(full.last);
  const noop = await noopRebuilds(content, out, full.last, full.runs);
  const edits = await iconRebuilds(name, content, out, full.last);
  const mapping = await mappingRebuilds(edits.work, out, full.last, edits.icon, full.runs);
  const dev = await devRebuilds(edits.work, out, mapping, full.runs);
  const over = await overBuild(edits.work, out);
  await removeDir(edits.work);
  await removeDir(rowDir);
  return rowFigures({ name, full, timed, noop, edits, mapping, dev, over });
}

/**
 * A warm-up build (page cache, and the file count that decides the number of runs; the floors copy it), then the
 * timed builds, each followed by its floor: the faster of a bare Node copy and `cp -a` (which keeps the build's hard
 * links as links), each into a fresh root.
 */
async function fullBuilds(name, content, freshRoot, runsFor) {
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
  return { listed, bytes, distFiles, runs, builds, floors, last };
}

/** One more build with BUILD_INDEX_SITE_TIMINGS=1: where the time goes, phase by phase (not in the medians). */
async function phasesBuild(content, out) {
  const run = await runTimed(process.execPath, [BIN, "build", "--content", content, "--out", out], {
    SOURCE_DATE_EPOCH,
    BUILD_INDEX_SITE_TIMINGS: "1",
  });
  const phases = [...run.out.matchAll(/^timing (.+) ([\d.]+) rss (\d+) heap (\d+)$/gm)].map((m) => ({
    phase: m[1],
    ms: Number(m[2]),
    rssMb: Number(m[3]),
    heapMb: Number(m[4]),
  }));
  return { run, phases };
}

/** No-op rebuilds: the previous output is there, nothing changed. */
async function noopRebuilds(content, out, root, runs) {
  const times = [];
  let rewritten = 0;
  for (let i = 0; i < runs; i++) {
    const before = await listFiles(root);
    const r = await buildCmd(content, out);
    times.push(r.ms);
    const after = await listFiles(root);
    rewritten = [...after].filter(([p, f]) => before.get(p)?.ino !== f.ino).length;
    log(`  no-op rebuild ${round(r.ms / 1000)} s, ${rewritten} files rewritten`);
  }
  return { times, rewritten };
}

/**
 * On a hard-linked copy of the content (kept for the rebuilds after these): one icon changed (replaced by a different
 * picture), then one icon added (a new picture under a new name that nothing maps to yet).
 */
async function iconRebuilds(name, content, out, root) {
  const work = path.join(WORK, `${name}-content`);
  await removeDir(work);
  linkCopy(content, work);
  // A link gives its file a new change time, and the content cache (src/content/content-cache.ts) does not keep a file
  // changed within 3 s of being read: the rows below edit content that has sat, as a maintainer's has, but for the
  // file each edit changes.
  await new Promise((resolve) => setTimeout(resolve, 3200));
  const iconsDir = path.join(work, "icons");
  const icon = (await readdir(iconsDir)).filter((n) => n.endsWith(".png")).sort()[0];
  await buildCmd(work, out);
  const one = await measuredRebuild(work, out, root, async () => {
    const replacement = path.join(work, `.new-${icon}`);
    await writeFile(replacement, squarePng(40, [1, 2, 3, 255], [250, 0, 0, 255]));
    await rename(replacement, path.join(iconsDir, icon));
  });
  log(
    `  one-icon rebuild ${round(one.ms / 1000)} s: ${one.rewritten} files rewritten, ${one.changed} changed bytes${one.extraLine}`,
  );
  const added = await measuredRebuild(work, out, root, () =>
    writeFile(path.join(iconsDir, "zz-bench-added.png"), squarePng(40, [3, 2, 1, 255], [0, 0, 250, 255])),
  );
  log(
    `  add-icon rebuild ${round(added.ms / 1000)} s: ${added.rewritten} files rewritten, ${added.changed} changed bytes${added.extraLine}`,
  );
  return { work, icon, one, added };
}

/**
 * One mapping edited (icons.json: one extension's icon), rebuilt from the command, `runs` times: the mapping
 * alternates between two icons, so each run is a change. Rewritten files are counted from the inodes, not the log.
 */
async function mappingRebuilds(work, out, root, icon, runs) {
  const mapFile = path.join(work, "icons.json");
  const map = JSON.parse(await readFile(mapFile, "utf8"));
  const key = Object.keys(map).find((k) => k !== "file" && k !== "folder" && map[k] !== icon);
  const original = map[key];
  const times = [];
  let last = { rewritten: 0, changed: 0, extra: 0 };
  for (let i = 0; i < runs; i++) {
    last = await measuredRebuild(work, out, root, async () => {
      map[key] = i % 2 === 0 ? icon : original;
      const tmp = `${mapFile}.new`;
      await writeFile(tmp, `${JSON.stringify(map, null, 4)}\n`);
      await rename(tmp, mapFile); // replaces the hard link: the cached content is not touched
    });
    times.push(last.ms);
  }
  log(
    `  one-mapping rebuild ${round(median(times) / 1000)} s (median of ${runs}): ${last.rewritten} files rewritten, ${last.changed} changed bytes`,
  );
  return { mapFile, map, key, values: [icon, original], times, last };
}

/**
 * The same edit in `dev`: the rebuild's time as `dev` reports it once the output is updated (without the watcher's
 * debounce), `runs` edits, then `runs` more: a maintainer keeps `dev` up for hours, and its first edits run code V8
 * has not optimized yet. The target is held to the first `runs`; the later ones show the steady state. After each
 * rebuild the preview is asked for the edited extension's findIcon answer (it must name the new icon): the time a
 * maintainer waits for the answer once the rebuild is reported.
 */
async function devRebuilds(work, out, mapping, runs) {
  const { mapFile, map, key, values } = mapping;
  const dev = await devMappingRebuilds(work, out, mapFile, map, key, values, 2 * runs);
  const first = dev.times.slice(0, runs);
  const later = dev.times.slice(runs);
  log(
    `  one-mapping rebuild in dev ${round(median(first))} ms (median of the first ${first.length}; ${round(median(later))} ms of the next ${later.length});` +
      ` the next answer ${round(median(dev.answers))} ms (median of ${dev.answers.length}); ready for edits ${round(dev.readyMs / 1000, 2)} s after start`,
  );
  return { first, later, answers: dev.answers, readyMs: dev.readyMs };
}

/**
 * A build in full over the earlier one: of other hosts (the default set but cloudflare), as after a change of --hosts
 * or of the tool's version, when every file is written again or linked. One run, for its peak memory beside the fresh
 * builds' (a heap let grow for an expected update in place would stay grown).
 */
async function overBuild(work, out) {
  const hosts = DEFAULT_HOSTS.filter((h) => h !== "cloudflare").join(",");
  const over = await runTimed(process.execPath, [BIN, "build", "--content", work, "--out", out, "--hosts", hosts], {
    SOURCE_DATE_EPOCH,
  });
  if (!/^Built /m.test(over.out))
    throw new Error(`A build of other hosts over ${out} was not written in full:\n${over.out.slice(-2000)}`);
  log(
    `  full build over the earlier one (other hosts) ${round(over.ms / 1000)} s, peak RSS ${round(over.rssMb, 0)} MB`,
  );
  return over;
}

/** The row's figures as the results keep them (seconds and MB rounded; every run's time beside each median). */
function rowFigures({ name, full, timed, noop, edits, mapping, dev, over }) {
  const { builds, floors, one, added } = { ...full, ...edits };
  const buildMs = median(builds.map((b) => b.ms));
  const floorMs = median(floors.map((b) => b.ms));
  const counts = /Built .*?: (\d+) responses?, (\d+) route rules?, (\d+) files?/.exec(builds[0].out);
  return {
    name,
    distFiles: full.distFiles,
    answers: Number(counts?.[1] ?? 0),
    files: full.listed.size,
    bytes: full.bytes,
    runs: full.runs,
    buildS: round(buildMs / 1000, 3),
    buildRunsS: builds.map((b) => round(b.ms / 1000, 3)),
    peakRssMb: round(Math.max(...builds.map((b) => b.rssMb)), 1),
    floorS: round(floorMs / 1000, 3),
    buildMinS: round(Math.min(...builds.map((b) => b.ms)) / 1000, 3),
    phases: timed.phases,
    phasesRun: { s: round(timed.run.ms / 1000, 3), rssMb: round(timed.run.rssMb, 1) },
    floorRunsS: floors.map((b) => round(b.ms / 1000, 3)),
    ratio: round(buildMs / floorMs, 2),
    noopS: round(median(noop.times) / 1000, 3),
    noopOfFull: round(median(noop.times) / buildMs, 2),
    noopRewritten: noop.rewritten,
    oneIconS: round(one.ms / 1000, 3),
    oneIconRewritten: one.rewritten,
    oneIconChangedBytes: one.changed,
    oneIconRewrittenUnchanged: one.extra,
    addIconS: round(added.ms / 1000, 3),
    addIconRewritten: added.rewritten,
    addIconChangedBytes: added.changed,
    addIconRewrittenUnchanged: added.extra,
    oneMappingS: round(median(mapping.times) / 1000, 3),
    oneMappingRunsS: mapping.times.map((ms) => round(ms / 1000, 3)),
    oneMappingRewritten: mapping.last.rewritten,
    oneMappingChangedBytes: mapping.last.changed,
    oneMappingRewrittenUnchanged: mapping.last.extra,
    devMappingMs: round(median(dev.first), 1),
    devMappingRunsMs: dev.first.map((ms) => round(ms, 1)),
    devLaterMs: round(median(dev.later), 1),
    devLaterRunsMs: dev.later.map((ms) => round(ms, 1)),
    devAnswerMs: round(median(dev.answers), 1),
    devAnswerRunsMs: dev.answers.map((ms) => round(ms, 1)),
    devReadyS: round(dev.readyMs / 1000, 2),
    overS: round(over.ms / 1000, 3),
    overRssMb: round(over.rssMb, 1),
  };
}
