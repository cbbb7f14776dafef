// src/output/write/in-place.ts
// I/O: the in-place updater. It brings a folder the build wrote before up to date: only the files whose bytes (or,
// for copies, modification times) change are written, each beside its target and renamed over it, so a reader never
// sees a half-written file; files no longer planned are removed. Every path it will change is journaled first
// (journal.ts): an update stopped midway is finished by the next build.

import { lstatSync, mkdirSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fromOsError } from "../../errors.js";
import { isAnswerPath, treeHolds, type LinkTree } from "../../layout/link-trees.js";
import type { AnswerSet } from "../../routes/answer-files.js";
import { foldersOf } from "../manifests/dir-stamps.js";
import type { ManifestText } from "../manifests/entries.js";
import { manifestLines, type ManifestLines } from "../manifests/lines.js";
import { updatedManifest, type PrintedManifest } from "../manifests/patch.js";
import { MANIFEST_FILE, mtimesLine, printedManifest, sameChunks } from "../manifests/print.js";
import type { OutputFile } from "../plan/files.js";
import type { WriteStats } from "./full.js";
import { journalPaths } from "./journal.js";
import { removeEmptyParents, replaceWhole, writeWhole } from "./replace-file.js";
import { Scan } from "./scan.js";

export interface UpdateOptions {
  /** What the folder holds now: its manifest's text (its entries are what the files hold, but for `dirty`), or that
   * text's lines when they are known (`dev` keeps those of its last update, src/output/publish.ts): then it is not
   * read. Lines only for a folder whose manifest the caller keeps (`manifestInside` false). */
  previous: string | ManifestLines;
  /** Whether one of the folder's folders ("" for itself) holds exactly what the manifest lists
   * (src/output/manifests/dir-stamps.ts): then it is not read. Default: none is. */
  trusted?: (rel: string) => boolean;
  /** Paths an interrupted update may have changed: treated as changed whatever the manifest says. */
  dirty: ReadonlySet<string>;
  /** The journal the changes are appended to before any is made. */
  journal: string;
  /** Whether the folder keeps its manifest inside (`.build-manifest`), or the caller keeps it (--out's). */
  manifestInside: boolean;
  sourceDateEpoch?: number;
  signal?: AbortSignal;
  /** Called after each file is written (tests stop an update midway here). Synchronous: the update is. */
  onFile?: (file: OutputFile) => unknown;
  /** Whether a file holds the bytes its manifest entry says, by what it is computed from (answers whose inputs are
   * unchanged, src/routes/answer-inputs.ts): then it is neither produced nor hashed, unless it is missing or dirty. */
  keep?: (f: OutputFile) => boolean;
  /** The same for the answers of a set, by member: those whose inputs changed, or null when none did. */
  changedMembers?: (set: AnswerSet) => ((member: string) => boolean) | null;
  /** Whether a copy of the content has the modification time `mtimeMs` in the folder already, as the last build
   * gave it (known from its source's records): then its time is not read. */
  sameTime?: (f: OutputFile, mtimeMs: number) => boolean;
  /** More changed files than this: nothing is touched, and null is returned (the caller writes the folder whole). */
  maxChanged?: number;
  /** The hosts' copies of the site, when `dir` is the records (src/layout/link-trees.ts): the manifest leaves their
   * links out. They must be those of the last build (publish.ts checks): the links to --out's files it removed are
   * removed. Only the links the update must look at are among the files (src/output/plan/tree-links.ts): `folders`
   * are those of every link, and `otherBytes` the bytes of the others. */
  implied?: {
    trees: readonly LinkTree[];
    removedSitePaths: readonly string[];
    folders: ReadonlySet<string>;
    otherBytes: number;
  };
  /** The files of --out (`dir`) this build has rewritten (relative paths, and their indexes in `files`, --out's file
   * list): a link to one of them is made again, whatever its entry. */
  rewritten?: { dir: string; paths: ReadonlySet<string>; files: readonly OutputFile[]; indexes: ReadonlySet<number> };
}

export interface UpdateStats extends WriteStats {
  /** The folder's manifest as the update leaves it, in lines; none for the records, whose manifest leaves the hosts'
   * copies of the site out (`implied`). */
  lines?: ManifestLines;
  /** --out's manifest as the update made it (patched or printed), with its lines' starts, once its bytes are made (the
   * records write them): what the next update patches. None for a folder that keeps its manifest inside. */
  madeManifest?: () => PrintedManifest | undefined;
  /** Paths written (new or changed) and removed. */
  written: string[];
  /** The indexes in the files given of those written. */
  writtenIndexes: number[];
  removed: string[];
  /** The folders of the files planned (relative, "" for the folder itself): what the folder holds after the update. */
  folders: Set<string>;
}

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
    ino: statSync(dir).ino,
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
