// src/output/write/thread-ops.ts
// I/O: the two operations of the full writer that its second thread does (thread-main.ts), and the main thread does
// itself while the thread is behind: a new file written, and a hard link made. Node's fs alone: the thread loads this.

import { closeSync, futimesSync, linkSync, openSync, readFileSync, statSync, writeFileSync } from "node:fs";

/** A new file's bytes written, with `mtimeMs` as its modification time when given. */
export function writeNew(dest: string, data: string | Uint8Array, mtimeMs: number | undefined): void {
  if (mtimeMs === undefined) return writeFileSync(dest, data);
  const fd = openSync(dest, "w");
  try {
    writeFileSync(fd, data);
    futimesSync(fd, mtimeMs / 1000, mtimeMs / 1000);
  } finally {
    closeSync(fd);
  }
}

/** A hard link to `existing`; where links fail (another file system), a copy, its time clamped to `limit`. */
export function linkOrCopy(existing: string, dest: string, limit: number | undefined): void {
  try {
    linkSync(existing, dest);
  } catch {
    const own = Math.floor(statSync(existing).mtimeMs);
    writeNew(dest, readFileSync(existing), limit === undefined ? own : Math.min(own, limit));
  }
}
