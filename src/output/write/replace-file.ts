// src/output/write/replace-file.ts
// I/O: the in-place updater's file calls: a file written beside its target and renamed over it, so that a reader
// sees the old file or the new one, whole; and a removed file's empty folders removed with it.

import {
  closeSync,
  futimesSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { fromOsError } from "../../errors.js";
import { clampedTime } from "../manifests/print.js";
import type { OutputFile } from "../plan/files.js";
import { TMP_SUFFIX } from "./journal.js";

/** Writes the file beside `dest` and renames it over: a reader sees the old file or the new one, whole. `produced`:
 * its bytes, when they were kept from hashing. */
export function writeWhole(
  dest: string,
  f: OutputFile,
  limit: number | undefined,
  produced?: string | Uint8Array,
): void {
  if ("linkTo" in f) {
    const tmp = dest + TMP_SUFFIX;
    try {
      besideFresh(tmp, () => linkSync(f.linkTo, tmp));
      renameSync(tmp, dest);
      return;
    } catch {
      // another file system: copied below with the source's time
    }
  }
  let data: string | Uint8Array;
  let mtimeMs: number | undefined;
  if ("linkTo" in f || "source" in f) {
    const source = "linkTo" in f ? f.linkTo : f.source;
    data = ("bytes" in f ? f.bytes : undefined) ?? readSource(source);
    const own =
      "source" in f ? (f.mtimeMs === undefined ? limit : Math.floor(f.mtimeMs)) : Math.floor(statSync(source).mtimeMs);
    mtimeMs = clampedTime(own, limit);
  } else {
    data = "data" in f ? f.data : (produced ?? f.produce());
    mtimeMs = limit;
  }
  replaceWhole(dest, (fd) => writeFileSync(fd, data), mtimeMs);
}

/** Writes `dest` anew beside it (`write` fills the open file), gives it `mtimeMs`, and renames it over. */
export function replaceWhole(dest: string, write: (fd: number) => void, mtimeMs: number | undefined): void {
  const tmp = dest + TMP_SUFFIX;
  // Created, never opened as it is: a temporary left by an interrupted update may be a link to a file of the site.
  const fd = besideFresh(tmp, () => openSync(tmp, "wx"));
  try {
    write(fd);
    if (mtimeMs !== undefined) futimesSync(fd, mtimeMs / 1000, mtimeMs / 1000);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, dest);
}

/** Creates the temporary `tmp` (`create` fails when it exists): after removing what an earlier, interrupted update
 * left there, when it does. Nothing is removed first: a failed unlink costs more than the create. */
function besideFresh<T>(tmp: string, create: () => T): T {
  try {
    return create();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    unlinkSync(tmp);
    return create();
  }
}

/** A content file's bytes; an error names the file read. */
export function readSource(source: string): Uint8Array {
  try {
    return readFileSync(source);
  } catch (error) {
    throw fromOsError(error, undefined, "read");
  }
}

/** Removes the folders a removed file leaves empty, up to (not including) `dir`: a full build has no empty folder. */
export function removeEmptyParents(dir: string, rel: string): void {
  for (let parent = path.posix.dirname(rel); parent !== "."; parent = path.posix.dirname(parent)) {
    try {
      rmdirSync(path.join(dir, parent));
    } catch {
      return; // not empty
    }
  }
}
