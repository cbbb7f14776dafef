// src/output/write/scan.ts
// I/O: the in-place updater's first step, which changes nothing: each planned file held against the folder's manifest and
// what the folder holds, to find the files whose bytes (or, for copies, modification times) change.

import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { AnswerOutput, type AnswerSet } from "../../routes/answer-files.js";
import { withParents } from "../manifests/dir-stamps.js";
import { digest, ManifestEntries, TextDigests } from "../manifests/entries.js";
import { finder, type ManifestLines, type Run } from "../manifests/lines.js";
import { clampedTime, mtimesLine } from "../manifests/print.js";
import {
  folderOf,
  foldersIn,
  linkSize,
  setLinkEntry,
  SiteLink,
  type LinkFile,
  type OutputFile,
} from "../plan/files.js";
import type { UpdateOptions } from "./options.js";
import { readSource } from "./replace-file.js";

/** Produced bytes kept from hashing to writing, at most (then produced again when written). */
const HOLD_BYTES = 64 * 2 ** 20;

/** A file that is not a link: produced, given, or a copy of the content. */
type OwnFile = Exclude<OutputFile, { linkTo: string }>;

/**
 * What the folder holds against what is planned. Every file is hashed (a file produced to be hashed is dropped when it
 * is unchanged, and kept for writing when it changed, up to HOLD_BYTES in all), compared with the manifest; the files
 * `keep` vouches for are neither produced nor hashed: they keep their entry.
 */
export class Scan {
  readonly limit: number | undefined;
  readonly find: ReturnType<typeof finder>;
  readonly sameMtimes: boolean;
  readonly entries: ManifestEntries;
  /** The indexes of the files to write. */
  readonly changed: number[] = [];
  /** The folders of the files planned (and of the links the manifest leaves out). */
  readonly folders: Set<string>;
  readonly trusted: (rel: string) => boolean;
  /** The files in the folders read (a planned file is taken out when it is found: what is left is stray), and the
   * folders that no planned file needs. */
  readonly onDisk: Set<string>;
  readonly strayDirs: string[];
  /** Which of the manifest's paths a planned file took. */
  readonly matched: Uint8Array;
  /** Each file's path, made once: the previous manifest's own string where it lists the file (held anyway). */
  readonly paths: string[];
  /** Whether the files are the manifest's paths, in its order: then its text is patched
   * (src/output/manifests/patch.ts), where only the changed files' lines differ. */
  inOrder: boolean;
  /** The dirty paths that are planned. */
  readonly plannedDirty = new Set<string>();
  readonly held = new Map<number, string | Uint8Array>();
  bytes: number;
  /** Where each set's answers lie in --out's file list (ManifestLines.runs), for the next update; and those of the last
   * one, when this one can use them: nothing is dirty, the times are the same, and the answers' inputs are known. */
  readonly runs: Map<readonly string[], Run> | null;
  private readonly lastRuns: ReadonlyMap<readonly string[], Run> | undefined;
  private readonly inTrusted: (folder: string) => boolean;
  private readonly digests = new TextDigests();
  private heldBytes = 0;

  constructor(
    private readonly dir: string,
    private readonly files: readonly OutputFile[],
    private readonly previous: ManifestLines,
    private readonly options: UpdateOptions,
  ) {
    this.limit = options.sourceDateEpoch === undefined ? undefined : options.sourceDateEpoch * 1000;
    this.find = finder(previous.paths);
    this.sameMtimes = previous.mtimes === mtimesLine(options.sourceDateEpoch);
    this.entries = new ManifestEntries(files.length);
    // What the folder holds: in a folder the record trusts, what the manifest lists; in any other, what it holds when
    // read (names only). Anything the build did not plan is removed, as a full build would.
    this.folders = withParents(foldersIn(files));
    for (const d of options.implied?.folders ?? []) this.folders.add(d);
    this.trusted = options.trusted ?? ((): boolean => false);
    ({ onDisk: this.onDisk, strayDirs: this.strayDirs } = survey(dir, this.folders, this.trusted));
    this.inTrusted = folderTest(this.trusted);
    this.matched = new Uint8Array(previous.paths.length);
    this.paths = [];
    this.paths.length = files.length;
    this.inOrder =
      !options.manifestInside &&
      previous.printed !== undefined &&
      this.sameMtimes &&
      files.length === previous.paths.length;
    this.bytes = options.implied?.otherBytes ?? 0;
    this.runs = options.manifestInside ? null : new Map<readonly string[], Run>();
    this.lastRuns =
      options.dirty.size === 0 && this.sameMtimes && options.changedMembers !== undefined ? previous.runs : undefined;
  }

  /** Holds every planned file against the manifest, in order. */
  run(): void {
    const { files } = this;
    for (let i = 0; i < files.length; i++) {
      if (i % 4096 === 4095) this.options.signal?.throwIfAborted();
      const f = files[i]!;
      const set = this.runs !== null && f instanceof AnswerOutput ? f.startsSet() : null;
      const last = set === null ? undefined : files[i + set.members.length - 1];
      if (set !== null && last instanceof AnswerOutput && last.isMember(set, set.members.length - 1)) {
        this.runs!.set(set.members, { prefix: set.prefix, start: i });
        const run = this.lastRuns?.get(set.members);
        if (run !== undefined && run.prefix === set.prefix && this.inTrusted(set.folder)) {
          this.keptSet(i, set, run);
          i += set.members.length - 1;
          continue;
        }
      }
      if ("linkTo" in f && f.implied === true) this.impliedLink(i, f);
      else this.file(i, f);
    }
  }

  /**
   * A set's answers where the last update listed them, from `run.start`, by the same members in the same order: their
   * paths there are theirs, so none is made or looked up, and the answers whose inputs are unchanged keep their
   * entries, a span at a time.
   */
  private keptSet(i: number, set: AnswerSet, run: Run): void {
    const { previous, entries, matched, paths } = this;
    const n = set.members.length;
    const changedMember = this.options.changedMembers!(set);
    for (let j = 0; j < n;) {
      this.options.signal?.throwIfAborted();
      let end = j;
      if (changedMember === null) end = n;
      else while (end < n && !changedMember(set.members[end]!)) end++;
      if (end > j) {
        entries.copyRange(i + j, previous.entries, run.start + j, end - j);
        this.bytes += entries.sizeOfRange(i + j, end - j);
        matched.fill(1, run.start + j, run.start + end);
        for (let m = j; m < end; m++) paths[i + m] = previous.paths[run.start + m]!;
      }
      if (end < n) {
        const k = run.start + end;
        matched[k] = 1;
        paths[i + end] = previous.paths[k]!;
        this.compare(i + end, this.files[i + end] as AnswerOutput, k, paths[i + end]!, true);
        end++;
      }
      j = end;
    }
    if (run.start !== i) this.inOrder = false;
    this.find.resume(run.start + n);
  }

  /**
   * A link the manifest leaves out (a host's copy of the site, src/layout/link-trees.ts: no entry is set): the last
   * build's trees were these (publish.ts), so it is there when its folder is trusted or it is found, and the same
   * unless its target was written again. Its path is made only when it is looked for or written.
   */
  private impliedLink(i: number, f: LinkFile): void {
    const { options } = this;
    this.bytes += linkSize(f);
    this.inOrder = false;
    let rel: string | undefined;
    const dirty = options.dirty.size > 0 && options.dirty.has((rel ??= f.path));
    if (dirty) this.plannedDirty.add(rel!);
    const there = (this.inTrusted(folderOf(f)) || this.onDisk.delete((rel ??= f.path))) && !dirty;
    if (!there || linksRewritten(f, options.rewritten)) {
      this.paths[i] = rel ?? f.path;
      this.changed.push(i);
    }
  }

  /** A file the manifest lists: kept, or compared. */
  private file(i: number, f: OutputFile): void {
    const { options, previous, entries } = this;
    const rel = f.path;
    const dirty = options.dirty.size > 0 && options.dirty.has(rel);
    if (dirty) this.plannedDirty.add(rel);
    if ("linkTo" in f) {
      setLinkEntry(entries, i, f);
      this.bytes += entries.size(i);
    }
    const k = this.find(rel);
    if (k >= 0) this.matched[k] = 1;
    if (k !== i) this.inOrder = false;
    this.paths[i] = k >= 0 ? previous.paths[k]! : rel;
    const listed = this.inTrusted(folderOf(f)) ? k >= 0 : this.onDisk.delete(rel);
    const there = listed && !dirty;
    if ("linkTo" in f) {
      // A link to a file of this build: the same when its entry is, and its target was not written again.
      if (!there || !(k >= 0 && entries.same(i, previous.entries, k)) || linksRewritten(f, options.rewritten))
        this.changed.push(i);
      return;
    }
    if (
      there &&
      k >= 0 &&
      this.sameMtimes &&
      (options.keep?.(f) === true || ("produce" in f && f.unchanged === true))
    ) {
      entries.copy(i, previous.entries, k);
      this.bytes += entries.size(i);
      return;
    }
    if (there && k >= 0 && this.sameMtimes && "source" in f && f.hash !== undefined && options.sameTime !== undefined) {
      // A copy of the content whose sha1 its facts know, with the last build's entry and a time the caller vouches
      // for: kept as compare would keep it, without a record of it made.
      const mtimeMs = clampedTime(f.mtimeMs === undefined ? this.limit : Math.floor(f.mtimeMs), this.limit);
      if (mtimeMs !== undefined && previous.entries.holds(k, f.hash, f.size) && options.sameTime(f, mtimeMs)) {
        entries.copy(i, previous.entries, k);
        this.bytes += f.size;
        return;
      }
    }
    this.compare(i, f, k, rel, there);
  }

  /** A file is produced and hashed, and compared with the manifest's entry `k` (none: -1) for path `rel`. */
  private compare(i: number, f: OwnFile, k: number, rel: string, there: boolean): void {
    const { options, sameMtimes } = this;
    const p = prepare(f, this.limit, this.digests);
    this.entries.set(i, p.hash, p.size);
    this.bytes += p.size;
    let same = there && k >= 0 && this.entries.same(i, this.previous.entries, k);
    if (
      same &&
      (p.copy || !sameMtimes) &&
      p.mtimeMs !== undefined &&
      !(sameMtimes && p.copy && options.sameTime?.(f, p.mtimeMs) === true)
    ) {
      const st = statSync(path.join(this.dir, rel), { throwIfNoEntry: false });
      same = st !== undefined && Math.round(st.mtimeMs) === p.mtimeMs;
    }
    if (same) return;
    this.changed.push(i);
    // Produced bytes to be written are kept for the write, up to a bound: producing them again cost as much as the
    // first time.
    if ("produce" in f && p.data !== undefined && this.heldBytes + p.size <= HOLD_BYTES) {
      this.held.set(i, p.data);
      this.heldBytes += p.size;
    }
  }
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

/** The file's manifest entry ("<sha1> <size>") and the modification time the writer gives it. */
function prepare(f: OwnFile, limit: number | undefined, digests: TextDigests): Prepared {
  if ("source" in f) {
    const own = f.mtimeMs === undefined ? limit : Math.floor(f.mtimeMs);
    if (f.hash !== undefined) return { hash: f.hash, size: f.size, mtimeMs: clampedTime(own, limit), copy: true };
    const data = f.bytes ?? readSource(f.source);
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

/** Whether a link's target is among the files rewritten (a host's copy of --out names it without joining paths). */
export function linksRewritten(f: LinkFile, rewritten: UpdateOptions["rewritten"]): boolean {
  if (rewritten === undefined || rewritten.paths.size === 0) return false;
  // A link of --out's own file list is looked up by its index: no path is made.
  if (f instanceof SiteLink)
    return f.linksInto(rewritten.dir) && f.targetAmong(rewritten.files, rewritten.indexes, rewritten.paths);
  const rel = path.relative(rewritten.dir, f.linkTo);
  return !rel.startsWith("..") && rewritten.paths.has(rel.split(path.sep).join("/"));
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
