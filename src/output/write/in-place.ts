// src/output/write/in-place.ts
// I/O: the incremental writer. It brings a folder the build wrote before up to date in place: only the files whose
// bytes (or, for copies, modification times) change are written, each beside its target and renamed over it, so a
// reader never sees a half-written file; files no longer planned are removed. Before it touches a folder it appends
// every path it will change to the build's update journal (src/layout/paths.ts): a rebuild stopped midway leaves
// whole files, old and new, and a journal that marks the output incomplete. The next build treats every journaled
// path as changed (rewriting or removing it), then deletes the journal: it finishes the update.

import {
  appendFileSync,
  closeSync,
  futimesSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { fromOsError } from "../../errors.js";
import { isAnswerPath, treeHolds, type LinkTree } from "../../layout/link-trees.js";
import { insideFolder } from "../../model/relative-path.js";
import { AnswerOutput, type AnswerSet } from "../../routes/answer-files.js";
import { folderOf, foldersIn, linkSize, setLinkEntry, SiteLink, type OutputFile } from "../plan/site.js";
import {
  clampedTime,
  digest,
  ManifestEntries,
  MANIFEST_FILE,
  mtimesLine,
  printedManifest,
  sameChunks,
  type WriteStats,
} from "./full.js";
import { foldersOf, withParents } from "../manifests/dir-stamps.js";
import { TextDigests, type ManifestText } from "../manifests/entries.js";
import { finder, manifestLines, type ManifestLines, type Run } from "../manifests/lines.js";
import { updatedManifest, type PrintedManifest } from "../manifests/patch.js";

const JOURNAL_HEADER = "build-index-site update 1";
/** A new file's bytes go here first, then it is renamed over its target. */
const TMP_SUFFIX = ".bis-new";
/** Produced bytes kept from hashing to writing, at most (then produced again when written). */
const HOLD_BYTES = 64 * 2 ** 20;

/** What an interrupted update left: folder (absolute) → the paths in it that may hold new bytes, or none. */
export type Dirty = Map<string, Set<string>>;

/** The journal's paths by folder; empty when there is no journal. */
export function readJournal(journal: string): Dirty {
  const dirty: Dirty = new Map();
  let text: string;
  try {
    text = readFileSync(journal, "utf8");
  } catch {
    return dirty;
  }
  const lines = text.split("\n");
  if (lines[0] !== JOURNAL_HEADER) return dirty;
  for (const line of lines.slice(1)) {
    const tab = line.indexOf("\t");
    if (tab <= 0) continue; // a line cut short by the kill
    const dir = line.slice(0, tab);
    const rel = line.slice(tab + 1);
    if (!insideFolder(rel)) continue; // not this tool's: nothing outside the folder is touched
    const set = dirty.get(dir) ?? new Set();
    set.add(rel);
    dirty.set(dir, set);
  }
  return dirty;
}

/**
 * Puts right what an interrupted update left in `dir` before a full build replaces it, or an update runs again:
 * removes the temporary files beside its journaled paths. The paths themselves hold whole files, old or new.
 */
export function removeTemporaries(dir: string, paths: Iterable<string>): void {
  for (const rel of paths) {
    try {
      unlinkSync(path.join(dir, rel) + TMP_SUFFIX);
    } catch {
      // not there
    }
  }
}

export interface UpdateOptions {
  /** What the folder holds now: its manifest's text (its entries are what the files hold, but for `dirty`), or that
   * text's lines when they are known (`dev` keeps those of its last update, src/output/publish.ts): then it is not
   * read. Lines only for a folder whose manifest the caller keeps (`manifestInside` false). */
  previous: string | ManifestLines;
  /** Whether one of the folder's folders ("" for itself) holds exactly what the manifest lists (src/output/manifests/dir-stamps.ts):
   * then it is not read. Default: none is. */
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
   * removed. Only the links the update must look at are among the files (src/output/plan/tree-links.ts): `folders` are
   * those of every link, and `otherBytes` the bytes of the others. */
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

interface Prepared {
  /** The bytes hashed (none for a copy whose hash the content's facts know). */
  data?: string | Uint8Array;
  hash: Uint8Array;
  size: number;
  mtimeMs: number | undefined;
  /** A copy of the content: reused only when its time matches too. */
  copy: boolean;
}

/**
 * Updates `dir` in place to hold exactly `files` (plus its manifest when kept inside). Every file is hashed (a file
 * produced to be hashed is dropped when it is unchanged, and kept for writing when it changed, up to HOLD_BYTES in
 * all), compared with the manifest, and only what differs is written. The files `keep` vouches for are neither
 * produced nor hashed: they keep their entry.
 */
export function updateInPlace(dir: string, files: readonly OutputFile[], options: UpdateOptions): UpdateStats | null {
  const limit = options.sourceDateEpoch === undefined ? undefined : options.sourceDateEpoch * 1000;
  const previous =
    typeof options.previous === "string" ? manifestLines(options.previous, !options.manifestInside) : options.previous;
  const find = finder(previous.paths);
  const sameMtimes = previous.mtimes === mtimesLine(options.sourceDateEpoch);
  const entries = new ManifestEntries(files.length);
  const changed: number[] = [];
  // What the folder holds: in a folder the record trusts, what the manifest lists; in any other, what it holds when
  // read (names only). Anything the build did not plan is removed, as a full build would.
  const folders = withParents(foldersIn(files));
  for (const d of options.implied?.folders ?? []) folders.add(d);
  const trusted = options.trusted ?? ((): boolean => false);
  const { onDisk, strayDirs } = survey(dir, folders, trusted);
  const inTrusted = folderTest(trusted);
  const matched = new Uint8Array(previous.paths.length);
  /** Each file's path, made once: the previous manifest's own string where it lists the file (held anyway). */
  const paths = new Array<string>(files.length);
  // Whether the files are the manifest's paths, in its order: then its text is patched (src/output/manifests/patch.ts),
  // where only the changed files' lines differ.
  let inOrder =
    !options.manifestInside && previous.printed !== undefined && sameMtimes && files.length === previous.paths.length;
  const plannedDirty = new Set<string>();
  const held = new Map<number, string | Uint8Array>();
  const digests = new TextDigests();
  let heldBytes = 0;
  let bytes = options.implied?.otherBytes ?? 0;
  // Where each set's answers lie in --out's file list (ManifestLines.runs), for the next update; and whether this one
  // can use the last one's: nothing is dirty, the times are the same, and the answers' inputs are known.
  const runs = options.manifestInside ? null : new Map<readonly string[], Run>();
  const lastRuns =
    options.dirty.size === 0 && sameMtimes && options.changedMembers !== undefined ? previous.runs : undefined;
  /** A file is produced and hashed, and compared with the manifest's entry `k` (none: -1) for path `rel`. */
  const compare = (
    i: number,
    f: Exclude<OutputFile, { linkTo: string }>,
    k: number,
    rel: string,
    there: boolean,
  ): void => {
    const p = prepare(f, limit, digests);
    entries.set(i, p.hash, p.size);
    bytes += p.size;
    let same = there && k >= 0 && entries.same(i, previous.entries, k);
    if (
      same &&
      (p.copy || !sameMtimes) &&
      p.mtimeMs !== undefined &&
      !(sameMtimes && p.copy && options.sameTime?.(f, p.mtimeMs) === true)
    ) {
      const st = statSync(path.join(dir, rel), { throwIfNoEntry: false });
      same = st !== undefined && Math.round(st.mtimeMs) === p.mtimeMs;
    }
    if (same) return;
    changed.push(i);
    // Produced bytes to be written are kept for the write, up to a bound (the records' site.manifest is 46 MB at
    // ×100): producing them again cost as much as the first time.
    if ("produce" in f && p.data !== undefined && heldBytes + p.size <= HOLD_BYTES) {
      held.set(i, p.data);
      heldBytes += p.size;
    }
  };
  for (let i = 0; i < files.length; i++) {
    if (i % 4096 === 4095) options.signal?.throwIfAborted();
    const f = files[i]!;
    const set = runs !== null && f instanceof AnswerOutput ? f.startsSet() : null;
    if (
      set !== null &&
      files[i + set.members.length - 1] instanceof AnswerOutput &&
      (files[i + set.members.length - 1] as AnswerOutput).isMember(set, set.members.length - 1)
    ) {
      runs!.set(set.members, { prefix: set.prefix, start: i });
      const run = lastRuns?.get(set.members);
      if (run !== undefined && run.prefix === set.prefix && inTrusted(set.folder)) {
        // The last update listed this set's answers from `run.start`, by the same members in the same order: their
        // paths there are theirs, so none is made or looked up (a ×100 site has 590,000), and the answers whose inputs
        // are unchanged keep their entries, a span at a time.
        const n = set.members.length;
        const changedMember = options.changedMembers!(set);
        for (let j = 0; j < n;) {
          options.signal?.throwIfAborted();
          let end = j;
          if (changedMember === null) end = n;
          else while (end < n && !changedMember(set.members[end]!)) end++;
          if (end > j) {
            entries.copyRange(i + j, previous.entries, run.start + j, end - j);
            bytes += entries.sizeOfRange(i + j, end - j);
            matched.fill(1, run.start + j, run.start + end);
            for (let m = j; m < end; m++) paths[i + m] = previous.paths[run.start + m]!;
          }
          if (end < n) {
            const k = run.start + end;
            matched[k] = 1;
            paths[i + end] = previous.paths[k]!;
            compare(i + end, files[i + end] as AnswerOutput, k, paths[i + end]!, true);
            end++;
          }
          j = end;
        }
        if (run.start !== i) inOrder = false;
        find.resume(run.start + n);
        i += n - 1;
        continue;
      }
    }
    if ("linkTo" in f && f.implied === true) {
      // A link the manifest leaves out (a host's copy of the site, src/layout/link-trees.ts: no entry is set): the
      // last build's trees were these (publish.ts), so it is there when its folder is trusted or it is found, and the
      // same unless its target was written again. Its path is made only when it is looked for or written (a ×100
      // site's records hold 690,000 such links).
      bytes += linkSize(f);
      inOrder = false;
      let rel: string | undefined;
      const dirty = options.dirty.size > 0 && options.dirty.has((rel ??= f.path));
      if (dirty) plannedDirty.add(rel!);
      const there = (inTrusted(folderOf(f)) || onDisk.delete((rel ??= f.path))) && !dirty;
      if (!there || linksRewritten(f, options.rewritten)) {
        paths[i] = rel ?? f.path;
        changed.push(i);
      }
      continue;
    }
    const rel = f.path;
    const dirty = options.dirty.size > 0 && options.dirty.has(rel);
    if (dirty) plannedDirty.add(rel);
    if ("linkTo" in f) {
      setLinkEntry(entries, i, f);
      bytes += entries.size(i);
    }
    const k = find(rel);
    if (k >= 0) matched[k] = 1;
    if (k !== i) inOrder = false;
    paths[i] = k >= 0 ? previous.paths[k]! : rel;
    const listed = inTrusted(folderOf(f)) ? k >= 0 : onDisk.delete(rel);
    const there = listed && !dirty;
    if ("linkTo" in f) {
      // A link to a file of this build: the same when its entry is, and its target was not written again.
      if (!there || !(k >= 0 && entries.same(i, previous.entries, k)) || linksRewritten(f, options.rewritten))
        changed.push(i);
      continue;
    }
    if (there && k >= 0 && sameMtimes && (options.keep?.(f) === true || ("produce" in f && f.unchanged === true))) {
      entries.copy(i, previous.entries, k);
      bytes += entries.size(i);
      continue;
    }
    if (there && k >= 0 && sameMtimes && "source" in f && f.hash !== undefined && options.sameTime !== undefined) {
      // A copy of the content whose sha1 its facts know, with the last build's entry and a time the caller vouches
      // for: kept as compare would keep it, without a record of it made (a ×100 site has 49,000).
      const mtimeMs = clampedTime(f.mtimeMs === undefined ? limit : Math.floor(f.mtimeMs), limit);
      if (mtimeMs !== undefined && previous.entries.holds(k, f.hash, f.size) && options.sameTime(f, mtimeMs)) {
        entries.copy(i, previous.entries, k);
        bytes += f.size;
        continue;
      }
    }
    compare(i, f, k, rel, there);
  }
  if (options.maxChanged !== undefined && changed.length > options.maxChanged) return null;
  const removed: string[] = [];
  for (let k = 0; k < previous.paths.length; k++) if (matched[k] === 0) removed.push(previous.paths[k]!);
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
    if (folders.has(rel) || trusted(rel)) continue;
    if (statSync(path.join(dir, rel), { throwIfNoEntry: false })?.isDirectory() === true) strayDirs.push(rel);
  }
  for (const rel of options.dirty)
    if (!plannedDirty.has(rel) && find(rel) < 0 && !removedLinks.has(rel)) removed.push(rel);
  // What is left of the folders read is what no planned file is.
  for (const rel of onDisk) if (rel !== MANIFEST_FILE && find(rel) < 0 && !options.dirty.has(rel)) removed.push(rel);

  const printed = printedManifest(files, entries, options.sourceDateEpoch, paths);
  // --out's manifest (the records' site.manifest), patched when it can be; a changed file's line is printed again.
  let manifestText: ManifestText = printed;
  let madeManifest: (() => PrintedManifest | undefined) | undefined;
  if (!options.manifestInside) {
    let lines: number | null = files.length;
    for (let i = 0; i < files.length && lines !== null; i++) if (entries.size(i) < 0) lines = null;
    const updated = updatedManifest(
      printed,
      lines,
      inOrder ? { from: previous.printed!, changed, line: (k) => `${entries.get(k)!} ${paths[k]!}\n` } : undefined,
    );
    manifestText = updated;
    madeManifest = updated.made;
  }
  const manifestChanged =
    options.manifestInside &&
    (typeof options.previous !== "string" || !sameChunks(options.previous, manifestText.chunks()));
  const touched = [
    ...changed.map((i) => paths[i]!),
    ...removed,
    ...strayDirs,
    ...(manifestChanged ? [MANIFEST_FILE] : []),
  ];
  options.signal?.throwIfAborted(); // the last moment to stop with nothing changed
  if (touched.length > 0) appendFileSync(options.journal, touched.map((rel) => `${dir}\t${rel}\n`).join(""));

  const shown = (p: string): string => p;
  try {
    for (const i of changed) {
      const f = files[i]!;
      const dest = path.join(dir, f.path);
      mkdirSync(path.dirname(dest), { recursive: true });
      writeWhole(dest, f, limit, held.get(i));
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
    for (const rel of strayDirs) {
      rmSync(path.join(dir, rel), { recursive: true, force: true });
      removeEmptyParents(dir, rel);
    }
    // Printed chunk by chunk into its file, not sized first into one buffer.
    if (manifestChanged) {
      const epoch = options.sourceDateEpoch;
      replaceWhole(
        path.join(dir, MANIFEST_FILE),
        (fd) => {
          for (const chunk of manifestText.chunks()) writeFileSync(fd, chunk);
        },
        epoch === undefined ? undefined : epoch * 1000,
      );
    }
  } catch (error) {
    throw fromOsError(error, shown);
  }
  return {
    ino: statSync(dir).ino,
    manifest: options.manifestInside ? null : manifestText,
    files: files.length,
    bytes,
    reused: files.length - changed.length,
    entries,
    written: changed.map((i) => paths[i]!),
    writtenIndexes: changed,
    removed,
    folders,
    ...(options.implied === undefined
      ? {
          lines: { paths, entries, mtimes: mtimesLine(options.sourceDateEpoch), ...(runs === null ? {} : { runs }) },
        }
      : {}),
    ...(madeManifest === undefined ? {} : { madeManifest }),
  };
}

/** Whether a link's target is among the files rewritten (a host's copy of --out names it without joining paths). */
function linksRewritten(f: Extract<OutputFile, { linkTo: string }>, rewritten: UpdateOptions["rewritten"]): boolean {
  if (rewritten === undefined || rewritten.paths.size === 0) return false;
  // A link of --out's own file list is looked up by its index: no path is made (690,000 links at ×100).
  if (f instanceof SiteLink)
    return f.linksInto(rewritten.dir) && f.targetAmong(rewritten.files, rewritten.indexes, rewritten.paths);
  const rel = path.relative(rewritten.dir, f.linkTo);
  return !rel.startsWith("..") && rewritten.paths.has(rel.split(path.sep).join("/"));
}

/** The file's manifest entry ("<sha1> <size>") and the modification time the writer gives it. */
function prepare(
  f: Exclude<OutputFile, { linkTo: string }>,
  limit: number | undefined,
  digests: TextDigests,
): Prepared {
  if ("source" in f) {
    const own = f.mtimeMs === undefined ? limit : Math.floor(f.mtimeMs);
    if (f.hash !== undefined) return { hash: f.hash, size: f.size, mtimeMs: clampedTime(own, limit), copy: true };
    const data = f.bytes ?? read(f.source);
    return { data, hash: digest(data), size: data.byteLength, mtimeMs: clampedTime(own, limit), copy: true };
  }
  const data = "data" in f ? f.data : f.produce();
  return {
    data,
    ...digests.entryOf(data, "hash" in f ? f.hash : undefined, "data" in f ? f.size : undefined),
    mtimeMs: limit,
    copy: false,
  };
}

function read(source: string): Uint8Array {
  try {
    return readFileSync(source);
  } catch (error) {
    throw fromOsError(error, undefined, "read");
  }
}

/** Writes the file beside `dest` and renames it over: a reader sees the old file or the new one, whole. `produced`:
 * its bytes, when they were kept from hashing. */
function writeWhole(dest: string, f: OutputFile, limit: number | undefined, produced?: string | Uint8Array): void {
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
    data = ("bytes" in f ? f.bytes : undefined) ?? read(source);
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
function replaceWhole(dest: string, write: (fd: number) => void, mtimeMs: number | undefined): void {
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
 * left there, when it does. Nothing is removed first: a failed unlink costs more than the create (thousands per update). */
function besideFresh<T>(tmp: string, create: () => T): T {
  try {
    return create();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    unlinkSync(tmp);
    return create();
  }
}

/**
 * What `dir` holds, read one folder at a time (names only) where the record does not trust a folder: the files in
 * the folders read (a planned file is taken out of `onDisk` when it is found; what is left is stray), and the
 * folders that no planned file needs (removed whole). A trusted folder is not read: its files are the manifest's,
 * and its folders are planned or the manifest's (removed with their last file).
 */
function survey(
  dir: string,
  planned: ReadonlySet<string>,
  trusted: (rel: string) => boolean,
): { onDisk: Set<string>; strayDirs: string[] } {
  const onDisk = new Set<string>();
  const strayDirs: string[] = [];
  for (const rel of planned) {
    if (trusted(rel)) continue;
    let entries;
    try {
      entries = readdirSync(rel === "" ? dir : path.join(dir, rel), { withFileTypes: true });
    } catch {
      continue; // not there yet
    }
    for (const e of entries) {
      const child = rel === "" ? e.name : `${rel}/${e.name}`;
      if (!e.isDirectory()) onDisk.add(child);
      else if (!planned.has(child)) strayDirs.push(child);
    }
  }
  return { onDisk, strayDirs };
}

/** Whether a folder is trusted, asked once per run of files in one folder (folderOf gives them one string). */
function folderTest(trusted: (rel: string) => boolean): (folder: string) => boolean {
  let last: string | undefined;
  let answer = false;
  return (folder) => (folder === last ? answer : ((last = folder), (answer = trusted(folder))));
}

/** Removes the folders a removed file leaves empty, up to (not including) `dir`: a full build has no empty folder. */
function removeEmptyParents(dir: string, rel: string): void {
  for (let parent = path.posix.dirname(rel); parent !== "."; parent = path.posix.dirname(parent)) {
    try {
      rmdirSync(path.join(dir, parent));
    } catch {
      return; // not empty
    }
  }
}

/** Starts a journal (an update begins), or keeps the one an interrupted update left (its paths stay dirty). */
export function openJournal(journal: string): void {
  try {
    const text = readFileSync(journal, "utf8");
    if (text.startsWith(`${JOURNAL_HEADER}\n`)) return;
  } catch {
    // none
  }
  mkdirSync(path.dirname(journal), { recursive: true });
  writeFileSync(journal, `${JOURNAL_HEADER}\n`);
}
