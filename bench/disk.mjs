// bench/disk.mjs
// The disk the bench works on: whether a row's floor copies fit until the row is measured, removals (bounded, synced,
// then waited out until the disk has settled), and cheap copies of content by hard links.
// I/O: removes folders, runs sync, df and cp, reads the block device's counters.

import { spawnSync } from "node:child_process";
import { statfsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
// The tool's own removal, a few files at a time (src/output/claim/remove-tree.ts): Node's recursive rm starts every entry of
// a folder at once, which holds gigabytes of memory for a large row's folders.
import { removeTree } from "../lib/output/claim/remove-tree.js";
import { log, round } from "./common.mjs";
import { WORK } from "./paths.mjs";

/** Removes a folder and everything in it, if it is there. */
export const removeDir = (dir) => removeTree(dir, { recursive: true, force: true });

/**
 * Whether a row's floor copies must be removed as soon as they are timed, because the disk cannot hold every run's
 * build and floors until the row is measured: each run makes a build (its distinct inodes), a bare copy (every file
 * its own inode: a hard link becomes a file) and `cp -a` (the build's inodes again). Asked of the disk (statfs) after
 * the warm-up build, with a fifth to spare. On a disk mounted with `discard`, files created soon after a large
 * deletion are written several times slower, so the rows keep their floors when they can and no deletion falls among
 * the timed runs. The removal is not timed; it is synced, and the disk let settle (settleDisk).
 */
export function floorsMustGo(listed, bytes, runs) {
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

/** The rows that removed their floors as they were timed (the results say which). */
export const droppedFloors = [];
/** How long the disk took to settle after each removal of floors, in seconds. */
export const settleWaits = [];
/** How long the disk took to settle before each row: { row, s }. */
export const rowSettleWaits = [];

/** Removes the floors' roots (untimed), syncs, and waits for the disk to settle. */
export async function dropRoots(roots) {
  for (const root of roots) await removeDir(root);
  spawnSync("sync");
  settleWaits.push(await settleDisk());
}

/** The disk has settled once it has written and discarded nothing for this many seconds; waited for at most SETTLE_MAX_S. */
export const SETTLED_S = 5;
export const SETTLE_MAX_S = 180;

/**
 * Waits until the disk under WORK has written and discarded nothing for SETTLED_S seconds (its counters in
 * /sys/class/block/<device>/stat), at most SETTLE_MAX_S: on a disk mounted with `discard`, a removal's discards go on
 * after `sync` returns, and a build that starts meanwhile runs several times slower. Does nothing where the counters
 * cannot be read. Returns the seconds waited (logged, and kept in the results).
 */
export async function settleDisk(after = "the floors' removal") {
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
export function linkCopy(from, to) {
  const r = spawnSync("cp", ["-al", from, to]);
  if (r.status !== 0) throw new Error(`cp -al failed: ${r.stderr}`);
}
