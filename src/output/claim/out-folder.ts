// src/output/claim/out-folder.ts
// I/O: what --out points at, checked before anything is written: the real folder to replace (through a symlink), that it
// is not a mount point (which cannot be renamed), and that it is ours to replace: absent, an empty folder, or a
// folder this tool wrote (its records beside it, a full build's pending record naming it, or its own marker
// `.build-manifest` inside). Anything else is refused unless --replace-out.

import { readFileSync } from "node:fs";
import { lstat, open, readdir, readlink, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { UsageError } from "../../errors.js";
import { recordsName } from "./pending.js";
import { MANIFEST_FILE as MARKER_FILE, MANIFEST_HEADER as MARKER_HEADER } from "../../layout/paths.js";
import { folderId } from "../../layout/stamp.js";

/** The marker of this tool's output: the manifest it writes into every output folder, and its first line. */
export { MARKER_FILE, MARKER_HEADER };

/** The flag that lets the build replace an --out it did not make. */
export const REPLACE_FLAG = "--replace-out";

/**
 * The folder that --out names, through symlinks: a symlinked --out stays a symlink and its target is replaced. The
 * parent is resolved to its real path, so that every way of naming one folder shares one lock.
 */
export async function resolveTarget(outDir: string): Promise<string> {
  let p = path.resolve(outDir);
  for (let hops = 0; hops < 40; hops++) {
    const st = await lstat(p).catch(() => null);
    if (st === null || !st.isSymbolicLink()) break;
    p = path.resolve(path.dirname(p), await readlink(p));
  }
  const parent = await realpath(path.dirname(p)).catch(() => path.dirname(p));
  return path.join(parent, path.basename(p));
}

/** Whether a folder is a mount point: another device than its parent, or listed in /proc/self/mountinfo (bind mounts). */
export async function isMountPoint(dir: string): Promise<boolean> {
  const [self, parent] = await Promise.all([stat(dir), stat(path.dirname(dir))]);
  if (self.dev !== parent.dev) return true;
  let info: string;
  try {
    info = readFileSync("/proc/self/mountinfo", "utf8");
  } catch {
    return false;
  }
  const real = await realpath(dir).catch(() => dir);
  const unescape = (s: string): string =>
    s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
  return info.split("\n").some((line) => {
    const mountPoint = line.split(" ")[4];
    return mountPoint !== undefined && unescape(mountPoint) === real;
  });
}

/** Whether a folder holds this tool's marker. */
export async function hasMarker(dir: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path.join(dir, MARKER_FILE), "r");
    const buf = Buffer.alloc(MARKER_HEADER.length + 1);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead).toString("latin1") === `${MARKER_HEADER}\n`;
  } catch {
    return false;
  } finally {
    await handle?.close();
  }
}

/**
 * Refuses (UsageError, exit 2, nothing touched) an --out that the build may not replace: a mount point (always), or
 * anything that exists, is not an empty folder and has no marker (unless `replaceOut`). `records` is the folder of its
 * records (src/layout/paths.ts), `label` --out as given.
 */
export async function checkTarget(target: string, records: string, label: string, replaceOut: boolean): Promise<void> {
  const st = await lstat(target).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  if (st === null) return;
  if (await isMountPoint(target)) {
    throw new UsageError(
      `--out ${label} is a mount point (a Docker volume or another file system): the build replaces --out by renaming a folder beside it, which a mount point does not allow.`,
      `Point --out at a new folder inside it (e.g. --out ${path.join(label, "site")}), or mount the volume one level up.`,
    );
  }
  if (replaceOut) return;
  if (st.isDirectory()) {
    // --out is ours when its records are (src/layout: they hold its manifest), or when the first build's records were
    // not written yet (it was stopped after its swap: the pending record names it); the records themselves, and
    // folders the writer is given alone, have the marker inside.
    if ((await hasMarker(records)) || recordsName(records, null, folderId(await stat(target, { bigint: true }))))
      return;
    if (await hasMarker(target)) return;
    const entries = await readdir(target);
    if (entries.length === 0) return;
    throw new UsageError(
      `--out ${label} is a folder that build-index-site did not write (${entries.length} entr${entries.length === 1 ? "y" : "ies"}, and no records of it in ${path.relative(path.dirname(target), records)}/): refusing to replace it.`,
      `Choose a new or empty folder, or pass ${REPLACE_FLAG} to delete everything in it and write the site there.`,
    );
  }
  throw new UsageError(
    `--out ${label} is ${st.isFile() ? "a file" : "not a folder"}, not a folder that build-index-site wrote: refusing to replace it.`,
    `Choose a new or empty folder, or pass ${REPLACE_FLAG} to delete it and write the site there.`,
  );
}
