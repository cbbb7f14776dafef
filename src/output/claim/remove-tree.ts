// src/output/claim/remove-tree.ts
// I/O: removes a folder and everything in it, a bounded number of files at a time. Node's own recursive `rm` (its
// port of rimraf) starts the removal of every entry of a folder at once: a full build over a large site's earlier
// build queues hundreds of thousands of requests together, and the build's memory peaks with them.

import type { Dirent, PathLike, RmOptions } from "node:fs";
import { readdir, rm, rmdir, unlink } from "node:fs/promises";
import path from "node:path";

/** Files removed at once in a folder. */
const CONCURRENCY = 32;

/** `rm` with its options: a recursive removal goes folder by folder, CONCURRENCY files at a time. */
export async function removeTree(target: PathLike, options?: RmOptions): Promise<void> {
  if (options?.recursive !== true) return rm(target, options);
  try {
    await removeFolder(String(target));
  } catch (error) {
    if (options.force === true && (error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
}

async function removeFolder(dir: string): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOTDIR") throw error;
    return unlink(dir); // a file (or a link) where the folder was
  }
  // Entries gone meanwhile (another process's removal) are not missed.
  const files = entries.filter((e) => !e.isDirectory());
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) await unlink(path.join(dir, files[next++]!.name)).catch(ignoreGone);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, files.length) }, worker));
  for (const entry of entries)
    if (entry.isDirectory()) await removeFolder(path.join(dir, entry.name)).catch(ignoreGone);
  await rmdir(dir);
}

/** Another process (or a recovery) removed it first. */
function ignoreGone(error: NodeJS.ErrnoException): void {
  if (error.code !== "ENOENT") throw error;
}
