// src/output/write/full.ts
// I/O: the full writer. It builds a whole folder fresh beside its place and swaps it in only when every file is
// written, so a failed build leaves the previous folder exactly as it was. Files whose bytes do not change are
// hard-linked from the previous folder (never written into), so the swap stays atomic.

import { closeSync, openSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fromOsError } from "../../errors.js";
import { folderId } from "../../layout/stamp.js";
import { claimOutput } from "../claim/claim.js";
import { FS, type WriteMethods } from "../claim/fs-methods.js";
import { resolveTarget } from "../claim/out-folder.js";
import { journalFile, oldPrefix, printJournal, tmpPrefix } from "../claim/recovery.js";
import type { ManifestText } from "../manifests/entries.js";
import { finder, manifestLines } from "../manifests/lines.js";
import { MANIFEST_FILE, mtimesLine, printedManifest, sameChunks } from "../manifests/print.js";
import type { OutputFile } from "../plan/files.js";
import type { WriteOptions, WriteStats } from "./options.js";
import { writeAll, type Previous } from "./write-all.js";

/**
 * Writes the site into `outDir`: the whole site in a fresh folder beside it, then swapped in (see
 * src/output/claim/recovery.ts for the journal that makes a killed swap finish on the next run). The folder is claimed
 * first (claimOutput) unless `options.claim` already holds it. Temporary folders are `.<out>.tmp-<pid>-*` and
 * `.<out>.old-<pid>-*` beside it.
 */
export async function writeOutput(
  outDir: string,
  files: readonly OutputFile[],
  options: WriteOptions = {},
): Promise<WriteStats> {
  const fs: WriteMethods = { ...FS, ...options.methods };
  options.signal?.throwIfAborted();
  const given = options.claim;
  const claim =
    given !== undefined && given.target === (await resolveTarget(outDir))
      ? given
      : await claimOutput(outDir, { ...options, label: options.label ?? given?.label ?? outDir });
  const { target } = claim;
  let tmp: string | null = null;
  try {
    const previous =
      options.reuse !== false && (await exists(fs, target)) ? await readPrevious(fs, target, options) : null;
    tmp = await fs.mkdtemp(path.join(path.dirname(target), tmpPrefix(target)));
    // mkdtemp makes the folder 0700: the swapped-in site must be readable like any folder (a web server's user).
    await fs.chmod(tmp, 0o777 & ~process.umask());
    const { bytes, reused, manifest } = await writeAll(tmp, files, options.methods ?? {}, options, previous);
    const manifestText = printedManifest(files, manifest, options.sourceDateEpoch);
    // Kept by the caller, or written into the folder.
    if (options.manifest === undefined) await writeManifest(fs, options, { target, tmp }, manifestText, previous);
    const id = folderId(await fs.stat(tmp, { bigint: true }));
    options.signal?.throwIfAborted(); // the last moment to stop: the swap below is not interrupted
    await options.beforeSwap?.(id);
    await swapIn(fs, tmp, target, () => (tmp = null));
    return {
      id,
      manifest: options.manifest === undefined ? null : manifestText,
      files: files.length,
      bytes,
      reused,
      entries: manifest,
    };
  } catch (error) {
    if (tmp !== null) await fs.rm(tmp, { recursive: true, force: true });
    throw fromOsError(error, shownPath(claim, tmp));
  } finally {
    if (claim !== given) await claim.release();
  }
}

const exists = (fs: WriteMethods, p: string): Promise<boolean> =>
  fs.stat(p).then(
    () => true,
    () => false,
  );

/** What the writer reuses of the folder it replaces: its manifest (the caller's, or the one inside it). */
async function readPrevious(fs: WriteMethods, target: string, options: WriteOptions): Promise<Previous> {
  const text =
    options.manifest === undefined
      ? await fs.readFile(path.join(target, MANIFEST_FILE), "utf8").catch(() => "")
      : (options.manifest.previous ?? "");
  const lines = manifestLines(text, false);
  return {
    root: target,
    lines,
    find: finder(lines.paths),
    manifestText: text,
    sameMtimes: lines.mtimes === mtimesLine(options.sourceDateEpoch),
  };
}

/** Writes the folder's own manifest into the new folder, or links the previous one when its text is the same. */
async function writeManifest(
  fs: WriteMethods,
  options: WriteOptions,
  at: { target: string; tmp: string },
  text: ManifestText,
  previous: Previous | null,
): Promise<void> {
  const manifestPath = path.join(at.tmp, MANIFEST_FILE);
  if (
    previous !== null &&
    previous.sameMtimes &&
    sameChunks(previous.manifestText, text.chunks()) &&
    (await fs.link(path.join(at.target, MANIFEST_FILE), manifestPath).then(
      () => true,
      () => false,
    ))
  )
    return;
  await writeChunks(fs, options.methods?.writeFile !== undefined, manifestPath, text.chunks());
  const limit = options.sourceDateEpoch;
  if (limit !== undefined) await fs.utimes(manifestPath, limit, limit);
}

/**
 * Writes a file chunk by chunk. Without an injected writeFile, synchronously: each chunk's UTF-8 is made and freed
 * by the call, where a Buffer per chunk would stay until the next collection.
 */
async function writeChunks(fs: WriteMethods, injected: boolean, file: string, chunks: Iterable<string>): Promise<void> {
  if (injected) return fs.writeFile(file, chunks);
  const fd = openSync(file, "w");
  try {
    for (const chunk of chunks) writeFileSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
}

/**
 * Swaps the new folder `tmp` in for `target` under the swap journal (src/output/claim/recovery.ts: a swap stopped
 * midway is finished by the next build). `swapped` is told as soon as the new folder is in place.
 */
async function swapIn(fs: WriteMethods, tmp: string, target: string, swapped: () => void): Promise<void> {
  if (!(await exists(fs, target))) {
    await fs.rename(tmp, target);
    swapped();
    return;
  }
  const base = path.basename(target);
  const old = await fs.mkdtemp(path.join(path.dirname(target), oldPrefix(target)));
  const journal = journalFile(target);
  await fs.writeFile(journal, printJournal(tmp, old));
  try {
    await fs.rename(target, path.join(old, base));
  } catch (error) {
    // Nothing moved (a mount point that detection missed answers EBUSY here): leave nothing beside --out.
    await fs.unlink(journal);
    await fs.rm(old, { recursive: true, force: true });
    throw error;
  }
  try {
    await fs.rename(tmp, target);
  } catch (error) {
    await fs.rename(path.join(old, base), target);
    await fs.unlink(journal);
    await fs.rm(old, { recursive: true, force: true });
    throw error;
  }
  swapped();
  await fs.unlink(journal);
  await fs.rm(old, { recursive: true, force: true });
}

/** The name of a path for messages: inside the temporary folder or the target, relative to --out as given. */
function shownPath(claim: { target: string; label: string }, tmp: string | null): (p: string) => string {
  return (p) => {
    for (const root of [tmp, claim.target]) {
      if (root !== null && (p === root || p.startsWith(root + path.sep)))
        return path.join(claim.label, path.relative(root, p));
    }
    return p;
  };
}
