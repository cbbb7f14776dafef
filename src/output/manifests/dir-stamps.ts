// src/output/manifests/dir-stamps.ts
// I/O: which folders an in-place update may take as its manifest lists them, without reading them. After each
// build the inode and change time of every folder it wrote are recorded (`.build-index-site/<out>.dirs`). Adding,
// removing or renaming an entry (by anyone) gives a folder a new change time, which no one can set back (`cp -a`
// and `touch` set times, and that changes it too); a folder with another inode was replaced. Such a folder is read
// again. So is one whose recorded change time is not older than the record itself: the clock that stamps files
// ticks coarsely (a few milliseconds on Linux), and a change in the same tick would not show (git's "racily clean"
// entries).

import { readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { FolderRuns } from "./folder-runs.js";

const HEADER = "build-index-site dirs 1";

/** Folder (relative to the record's base: the folder that holds --out) → its folders (relative, "" for itself) →
 * "<inode> <change time in ns>". */
type Stamps = Map<string, Map<string, string>>;

/** A folder's inode and change time, or null when it is not a folder. */
function stampOf(dir: string): string | null {
  const st = statSync(dir, { bigint: true, throwIfNoEntry: false });
  return st?.isDirectory() === true ? `${st.ino} ${st.ctimeNs}` : null;
}

/** The folders of a list of files (relative paths), their parents included, and "" (the folder itself). */
export function foldersOf(paths: Iterable<string>): Set<string> {
  // Files come grouped by folder: only a new folder is climbed.
  const runs = new FolderRuns();
  function* folders(): Generator<string> {
    for (const p of paths) if (runs.next(p)) yield runs.folder;
  }
  return withParents(folders());
}

/** The folders given (the folder of each file, in turn: src/output/plan/files.ts foldersIn), their parents, and "". */
export function withParents(folders: Iterable<string>): Set<string> {
  const dirs = new Set<string>([""]);
  let last: string | undefined;
  for (const folder of folders) {
    if (folder === last) continue;
    last = folder;
    for (let d = folder; d !== "" && !dirs.has(d); d = d.slice(0, Math.max(0, d.lastIndexOf("/")))) dirs.add(d);
  }
  return dirs;
}

/** The folder that holds --out: the record (`<base>/.build-index-site/<out>.dirs`) names folders from there. */
const baseOf = (file: string): string => path.dirname(path.dirname(file));

/** Records the folders of each written folder, once the build is done (replacing any earlier record whole). */
export function recordFolders(file: string, written: ReadonlyArray<{ dir: string; folders: Iterable<string> }>): void {
  let text = `${HEADER}\n`;
  for (const { dir, folders } of written) {
    const named = path.relative(baseOf(file), dir);
    for (const rel of folders) {
      const stamp = stampOf(rel === "" ? dir : path.join(dir, rel));
      if (stamp !== null) text += `${named}\t${rel}\t${stamp}\n`;
    }
  }
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/** Forgets the record (before folders change: until it is written again, every folder is read). */
export function forgetFolders(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // none
  }
}

/**
 * For each folder (absolute), whether one of its folders (relative, "" for itself) still holds exactly what it held
 * when the record was made. Without a record, nothing is trusted.
 */
export function trustedFolders(file: string): (dir: string) => (rel: string) => boolean {
  const never = (): ((rel: string) => boolean) => () => false;
  let text: string;
  let recordedAt: bigint;
  try {
    text = readFileSync(file, "utf8");
    recordedAt = statSync(file, { bigint: true }).ctimeNs;
  } catch {
    return never;
  }
  const lines = text.split("\n");
  if (lines[0] !== HEADER) return never;
  const stamps: Stamps = new Map();
  for (const line of lines.slice(1)) {
    // A name holding a tab or a line break spoils its line, which then trusts nothing.
    const parts = line.split("\t");
    if (parts.length !== 3) continue;
    const [dir, rel, stamp] = parts as [string, string, string];
    const ctime = stamp.slice(stamp.indexOf(" ") + 1);
    if (!/^\d+ \d+$/.test(stamp) || BigInt(ctime) >= recordedAt) continue; // changed in the record's own tick: read again
    const folder = stamps.get(dir) ?? new Map<string, string>();
    folder.set(rel, stamp);
    stamps.set(dir, folder);
  }
  return (dir) => {
    const folder = stamps.get(path.relative(baseOf(file), dir));
    if (folder === undefined) return () => false;
    const answers = new Map<string, boolean>(); // each folder is stat'ed once, however often it is asked for
    return (rel) => {
      let answer = answers.get(rel);
      if (answer === undefined) {
        const recorded = folder.get(rel);
        answer = recorded !== undefined && stampOf(rel === "" ? dir : path.join(dir, rel)) === recorded;
        answers.set(rel, answer);
      }
      return answer;
    };
  };
}
