// src/output/write/in-place.ts
// I/O: the in-place updater. It brings a folder the build wrote before up to date: only the files whose bytes (or,
// for copies, modification times) change are written, each beside its target and renamed over it, so a reader never
// sees a half-written file; files no longer planned are removed. Every path it will change is journaled first
// (journal.ts): an update stopped midway is finished by the next build.

import { lstatSync, mkdirSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fromOsError } from "../../errors.js";
import { folderId } from "../../layout/stamp.js";
import { isAnswerPath } from "../../layout/link-trees.js";
import { treeHolds } from "../plan/tree-links.js";
import { foldersOf } from "../manifests/dir-stamps.js";
import type { ManifestText } from "../manifests/entries.js";
import { manifestLines, type ManifestLines } from "../manifests/lines.js";
import { updatedManifest, type PrintedManifest } from "../manifests/patch.js";
import { MANIFEST_FILE, mtimesLine, printedManifest, sameChunks } from "../manifests/print.js";
import type { OutputFile } from "../plan/files.js";
import type { UpdateOptions, UpdateStats } from "./options.js";
import { journalPaths } from "./journal.js";
import { removeEmptyParents, replaceWhole, writeWhole } from "./replace-file.js";
import { Scan } from "./scan.js";

/** The folder's manifest as the update leaves it: its text, whether the folder's own copy changes, and (--out's) the
 * text as made, for the next update. */
interface NewManifest {
  text: ManifestText;
  changed: boolean;
  made?: () => PrintedManifest | undefined;
}

/**
 * Updates `dir` in place to hold exactly `files` (plus its manifest when kept inside): the files are held against the
 * manifest (scan.ts), the paths to change journaled, and only what differs is written or removed. Null, with nothing
 * touched, when more than `maxChanged` files change.
 */
export function updateInPlace(dir: string, files: readonly OutputFile[], options: UpdateOptions): UpdateStats | null {
  const previous =
    typeof options.previous === "string" ? manifestLines(options.previous, !options.manifestInside) : options.previous;
  const scan = new Scan(dir, files, previous, options);
  scan.run();
  if (options.maxChanged !== undefined && scan.changed.length > options.maxChanged) return null;
  const removed = removals(dir, scan, previous, options);
  const manifest = newManifest(files, scan, previous, options);
  const touched = [
    ...scan.changed.map((i) => scan.paths[i]!),
    ...removed,
    ...scan.strayDirs,
    ...(manifest.changed ? [MANIFEST_FILE] : []),
  ];
  options.signal?.throwIfAborted(); // the last moment to stop with nothing changed
  journalPaths(options.journal, dir, touched);
  applyChanges(dir, files, scan, removed, manifest, options);
  return {
    id: folderId(statSync(dir, { bigint: true })),
    manifest: options.manifestInside ? null : manifest.text,
    files: files.length,
    bytes: scan.bytes,
    reused: files.length - scan.changed.length,
    entries: scan.entries,
    written: scan.changed.map((i) => scan.paths[i]!),
    writtenIndexes: scan.changed,
    removed,
    folders: scan.folders,
    ...(options.implied === undefined
      ? {
          lines: {
            paths: scan.paths,
            entries: scan.entries,
            mtimes: mtimesLine(options.sourceDateEpoch),
            ...(scan.runs === null ? {} : { runs: scan.runs }),
          },
        }
      : {}),
    ...(manifest.made === undefined ? {} : { madeManifest: manifest.made }),
  };
}

/** The paths to remove: the manifest's that no planned file took, the links to --out's removed files, dirty paths no
 * longer planned, and whatever else the folders read hold. Adds to the scan's stray folders those of the last build
 * that this one drops. */
function removals(dir: string, scan: Scan, previous: ManifestLines, options: UpdateOptions): string[] {
  const { find, onDisk } = scan;
  const removed: string[] = [];
  for (let k = 0; k < previous.paths.length; k++) if (scan.matched[k] === 0) removed.push(previous.paths[k]!);
  // The links to --out's removed files, in the trees that held them.
  const removedLinks = new Set<string>();
  for (const p of options.implied?.removedSitePaths ?? []) {
    const answer = isAnswerPath(p);
    for (const tree of options.implied!.trees) {
      const rel = tree.prefix + p;
      if (!treeHolds(tree, answer, p) || lstatSync(path.join(dir, rel), { throwIfNoEntry: false }) === undefined)
        continue;
      removed.push(rel);
      removedLinks.add(rel);
      onDisk.delete(rel);
    }
  }
  // A folder of the last build that this one drops, changed since (a file left in it by hand): removed whole. Such a
  // folder holds only files this build does not plan (a planned file's folders are planned): it is a folder of these.
  // Trusted, it holds only the manifest's files, which are removed one by one.
  for (const rel of foldersOf(removed)) {
    if (scan.folders.has(rel) || scan.trusted(rel)) continue;
    if (statSync(path.join(dir, rel), { throwIfNoEntry: false })?.isDirectory() === true) scan.strayDirs.push(rel);
  }
  for (const rel of options.dirty)
    if (!scan.plannedDirty.has(rel) && find(rel) < 0 && !removedLinks.has(rel)) removed.push(rel);
  // What is left of the folders read is what no planned file is.
  for (const rel of onDisk) if (rel !== MANIFEST_FILE && find(rel) < 0 && !options.dirty.has(rel)) removed.push(rel);
  return removed;
}

/** The folder's manifest: printed, or (--out's) patched from the last one when it can be, where a changed file's
 * line is printed again. */
function newManifest(
  files: readonly OutputFile[],
  scan: Scan,
  previous: ManifestLines,
  options: UpdateOptions,
): NewManifest {
  const { entries, paths, changed } = scan;
  const printed = printedManifest(files, entries, options.sourceDateEpoch, paths);
  if (options.manifestInside) {
    const same = typeof options.previous === "string" && sameChunks(options.previous, printed.chunks());
    return { text: printed, changed: !same };
  }
  let lines: number | null = files.length;
  for (let i = 0; i < files.length && lines !== null; i++) if (entries.size(i) < 0) lines = null;
  const updated = updatedManifest(
    printed,
    lines,
    scan.inOrder ? { from: previous.printed!, changed, line: (k) => `${entries.get(k)!} ${paths[k]!}\n` } : undefined,
  );
  return { text: updated, changed: false, made: updated.made };
}

/** Writes the changed files, removes what is no longer planned, and writes the folder's manifest when it changed. */
function applyChanges(
  dir: string,
  files: readonly OutputFile[],
  scan: Scan,
  removed: readonly string[],
  manifest: NewManifest,
  options: UpdateOptions,
): void {
  const shown = (p: string): string => p;
  try {
    for (const i of scan.changed) {
      const f = files[i]!;
      const dest = path.join(dir, f.path);
      mkdirSync(path.dirname(dest), { recursive: true });
      writeWhole(dest, f, scan.limit, scan.held.get(i));
      options.onFile?.(f);
    }
    for (const rel of removed) {
      try {
        unlinkSync(path.join(dir, rel));
      } catch {
        // already gone
      }
      removeEmptyParents(dir, rel);
    }
    for (const rel of scan.strayDirs) {
      rmSync(path.join(dir, rel), { recursive: true, force: true });
      removeEmptyParents(dir, rel);
    }
    // Printed chunk by chunk into its file, not sized first into one buffer.
    if (manifest.changed) {
      const epoch = options.sourceDateEpoch;
      replaceWhole(
        path.join(dir, MANIFEST_FILE),
        (fd) => {
          for (const chunk of manifest.text.chunks()) writeFileSync(fd, chunk);
        },
        epoch === undefined ? undefined : epoch * 1000,
      );
    }
  } catch (error) {
    throw fromOsError(error, shown);
  }
}
