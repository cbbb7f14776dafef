// src/output/write/write-all.ts
// I/O: the full writer's files, written into a fresh folder: each produced, hashed and written, or hard-linked from
// the previous output when its bytes are the same (and its time, where the file must have one).

import path from "node:path";
import { fromOsError } from "../../errors.js";
import type { WriteMethods } from "../claim/fs-methods.js";
import { digest, ManifestEntries, TextDigests } from "../manifests/entries.js";
import type { ManifestLines } from "../manifests/lines.js";
import { clampedTime } from "../manifests/print.js";
import { filePath } from "../plan/file-path.js";
import { folderOf, foldersIn, linkSize, setLinkEntry, type LinkFile, type OutputFile } from "../plan/files.js";
import { fileOps, type FileOps } from "./file-ops.js";
import type { WriteOptions } from "./options.js";
import { threadPays, WriteSink } from "./write-thread.js";

/** How many files are written at once. */
const CONCURRENCY = 64;
/** From this many files, a folder's files are written with the help of a second thread (write-thread.ts). */
export const THREAD_FILES = 256;
/** Files written between two turns of the event loop (synchronous writing), so that Ctrl-C is heard while writing. */
const YIELD_EVERY = 256;
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** What the writer knows of the previous output folder, to reuse its files. */
export interface Previous {
  root: string;
  /** Its manifest's lines (src/output/manifests/lines.ts), and a path's index among them (-1: none). */
  lines: ManifestLines;
  find(rel: string): number;
  manifestText: string;
  /** Whether the previous output's generated files have the times this build gives them. */
  sameMtimes: boolean;
}

/** Writes `files` into the new folder `root`; returns their bytes, how many were reused, and their manifest entries. */
export async function writeAll(
  root: string,
  files: readonly OutputFile[],
  methods: Partial<WriteMethods>,
  options: WriteOptions,
  previous: Previous | null,
): Promise<{ bytes: number; reused: number; manifest: ManifestEntries }> {
  const { ops, sync } = fileOps(methods);
  const dirs = new Set(foldersIn(files));
  dirs.delete("");
  // mkdir -p of the deepest folders creates the others; sorted so that runs are deterministic.
  const leaves = [...dirs].sort().filter((d, i, all) => !(all[i + 1]?.startsWith(`${d}/`) ?? false));
  await Promise.all(leaves.map((d) => ops.mkdir(path.join(root, d))));
  // A test's per-file hook sees each file written when it is called: no second thread then.
  const sink =
    sync && options.onFile === undefined && files.length >= THREAD_FILES && threadPays()
      ? new WriteSink(options.sourceDateEpoch === undefined ? undefined : options.sourceDateEpoch * 1000)
      : null;
  const writer = new FolderWriter(root, files, ops, options, previous, sink);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (next < files.length && !failed) {
      options.signal?.throwIfAborted();
      const index = next++;
      if (sync && index % YIELD_EVERY === YIELD_EVERY - 1) await nextTurn();
      if (!(sync && writer.writeNow(index))) await writer.write(index);
      if (options.onFile !== undefined) await options.onFile(files[index]!);
    }
  };
  // Every worker stops at the first failure and all have stopped before the caller removes the folder.
  // Synchronous calls leave nothing to overlap: one worker.
  const results = await Promise.allSettled(
    Array.from({ length: Math.min(sync ? 1 : CONCURRENCY, files.length) }, () =>
      worker().catch((error: unknown) => {
        failed = true;
        throw error;
      }),
    ),
  );
  let failure: { reason: unknown } | undefined = results.find((r) => r.status === "rejected");
  if (failure === undefined && options.implied !== undefined)
    await writer.writeImplied(options.implied(), sync).catch((error: unknown) => (failure = { reason: error }));
  // Every file handed to the thread is written (or failed) before the caller swaps the folder in or removes it.
  const drained = await writer.sink?.drain().then(
    () => undefined,
    (error: unknown) => ({ reason: error }),
  );
  failure ??= drained;
  if (failure !== undefined) throw failure.reason;
  return { bytes: writer.bytes, reused: writer.reused, manifest: writer.manifest };
}

/** The files of one new folder, written one at a time (by as many workers as write at once). */
class FolderWriter {
  bytes = 0;
  reused = 0;
  /** `<hash> <size>` of each file, by index in `files`. */
  readonly manifest: ManifestEntries;
  private readonly digests = new TextDigests();
  /** SOURCE_DATE_EPOCH in ms: the latest modification time of any file written (generated files get exactly it). */
  private readonly limit: number | undefined;

  constructor(
    private readonly root: string,
    private readonly files: readonly OutputFile[],
    private readonly ops: FileOps,
    private readonly options: WriteOptions,
    private readonly previous: Previous | null,
    /** The thread's share of the folder, if any (writeImplied may start one). */
    public sink: WriteSink | null,
  ) {
    this.manifest = new ManifestEntries(files.length);
    this.limit = options.sourceDateEpoch === undefined ? undefined : options.sourceDateEpoch * 1000;
  }

  /**
   * The file at `index` written at once, without a promise, when it is a link or a new file with no previous one to
   * reuse (with synchronous calls only): true when done, false when write() must do it.
   */
  writeNow(index: number): boolean {
    const f = this.files[index]!;
    if ("source" in f) return false;
    if ("linkTo" in f) {
      if (this.sink === null) return false;
      if (f.implied !== true) setLinkEntry(this.manifest, index, f);
      return this.linkNow(f);
    }
    if (this.previous !== null && this.options.reuse !== false) return false;
    if ("produce" in f && f.chunks !== undefined) return false; // written piece by piece, by write()
    const data = "data" in f ? f.data : f.produce();
    const { hash, size } = this.digests.entryOf(
      data,
      "hash" in f ? f.hash : undefined,
      "data" in f ? f.size : undefined,
    );
    this.manifest.set(index, hash, size);
    const dest = filePath(this.root, f.path);
    if (this.sink !== null) this.sink.write(dest, data, this.limit);
    else void this.ops.write(dest, data, this.limit);
    this.bytes += size;
    return true;
  }

  /** Writes (or links, or reuses) the file at `index`. */
  write(index: number): Promise<void> {
    return this.writeFile(this.files[index]!, index);
  }

  /** The link `f` handed to the thread (it has one): true when done. */
  private linkNow(f: LinkFile): boolean {
    if (this.sink === null) return false;
    this.sink.link(f.linkTo, filePath(this.root, f.path));
    this.bytes += linkSize(f);
    return true;
  }

  /** Links the folder's unlisted links (WriteOptions.implied) one by one, each folder made when first met. */
  async writeImplied(links: Iterable<LinkFile>, sync: boolean): Promise<void> {
    let folder: string | undefined;
    let n = 0;
    for (const f of links) {
      this.options.signal?.throwIfAborted();
      if (sync && ++n % YIELD_EVERY === 0) await nextTurn();
      // Links are most of a records folder with host trees, but only its listed files are counted above.
      if (n === THREAD_FILES && this.sink === null && sync && this.options.onFile === undefined && threadPays())
        this.sink = new WriteSink(this.limit);
      const dir = folderOf(f);
      if (dir !== folder) await this.ops.mkdir(path.join(this.root, (folder = dir)));
      if (f.implied !== true) throw new Error(`Internal: the link ${f.path} is listed.`);
      if (!(sync && this.options.onFile === undefined && this.linkNow(f))) await this.writeFile(f, -1);
      await this.options.onFile?.(f);
    }
  }

  /** Writes (or links, or reuses) `f`, the file at `index` (-1: an unlisted link, WriteOptions.implied). */
  private async writeFile(f: OutputFile, index: number): Promise<void> {
    // A link its folder's manifest leaves out (a host's copy of the site in the records, src/layout/link-trees.ts)
    // gets no entry: the manifest prints the entries set.
    const listed = !("linkTo" in f && f.implied === true);
    if ("linkTo" in f && (await this.linked(f, index, listed))) return;
    /** The file's index in the previous output's manifest, once looked up (each path once: the lookup expects the
     * paths in the manifest's order). */
    let at: number | undefined;
    const previousIndex = (): number => (at ??= this.previous?.find(f.path) ?? -1);
    let data: string | Uint8Array;
    let mtimeMs: number | undefined;
    /** The entry reuse was tried with already (a copy known by its hash): not tried again for the same bytes. */
    let tried: { hash: Uint8Array; size: number } | undefined;
    if ("produce" in f && f.chunks !== undefined) return this.writeChunks(f.path, f.chunks(), index, listed);
    if ("source" in f || "linkTo" in f) {
      const copy = await this.copy(f, index, listed, previousIndex);
      if (copy.done) return;
      ({ data, mtimeMs, tried } = copy);
    } else {
      // Lazy files are produced here, one at a time, and dropped once written: the site is never held whole.
      // Text is hashed and written as it is: no Buffer per file.
      data = "data" in f ? f.data : f.produce();
      mtimeMs = this.limit;
    }
    const { hash, size } = this.digests.entryOf(
      data,
      "hash" in f ? f.hash : undefined,
      "data" in f ? f.size : undefined,
    );
    // The path is added when the manifest is printed: no string per file.
    if (listed) this.manifest.set(index, hash, size);
    const { previous } = this;
    const rel = f.path;
    const reusable =
      listed &&
      this.options.reuse !== false &&
      previous !== null &&
      (tried === undefined || !this.manifest.holds(index, tried.hash, tried.size));
    const isCopy = "source" in f || "linkTo" in f;
    if (!(reusable && (await this.reuse(rel, index, previousIndex(), mtimeMs, isCopy || !previous.sameMtimes)))) {
      const dest = filePath(this.root, rel);
      if (this.sink !== null) this.sink.write(dest, data, mtimeMs);
      else await this.ops.write(dest, data, mtimeMs);
    }
    this.bytes += size;
  }

  /** A text written piece by piece, never held whole: always written (its bytes are known only once written). */
  private async writeChunks(rel: string, chunks: Iterable<string>, index: number, listed: boolean): Promise<void> {
    const { hash, size } = await this.ops.writeChunks(filePath(this.root, rel), chunks, this.limit);
    if (listed) this.manifest.set(index, hash, size);
    this.bytes += size;
  }

  /** A host's copy of an --out file, hard-linked: its entry is copied, not printed and read back. False when it is
   * not linkable (another file system, no hard links): it is then copied, keeping the file's time. */
  private async linked(f: LinkFile, index: number, listed: boolean): Promise<boolean> {
    if (listed) setLinkEntry(this.manifest, index, f);
    if (this.sink !== null) {
      this.sink.link(f.linkTo, filePath(this.root, f.path));
      this.bytes += linkSize(f);
      return true;
    }
    try {
      await this.ops.link(f.linkTo, filePath(this.root, f.path));
      this.bytes += linkSize(f);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * A copy of a content file (or of a file a link failed to link): reused at once when the content's facts know its
   * hash and the previous output has it (`done`), else its bytes and time. Copies are hashed too: reuse is decided by
   * the bytes, never by size and time (normalised times, e.g. 1 in Nix, would hide a same-size edit); their hash is
   * the content's facts' when those know it (src/content: kept for the same inode and change time). A copy keeps its
   * source's modification time, clamped.
   */
  private async copy(
    f: Extract<OutputFile, { source: string }> | LinkFile,
    index: number,
    listed: boolean,
    previousIndex: () => number,
  ): Promise<
    | { done: true }
    | { done: false; data: Uint8Array; mtimeMs: number | undefined; tried?: { hash: Uint8Array; size: number } }
  > {
    const source = "source" in f ? f.source : f.linkTo;
    const sourceTime = "source" in f ? f.mtimeMs : (await this.ops.stat(source))?.mtimeMs;
    const own = sourceTime === undefined ? this.limit : Math.floor(sourceTime);
    const mtimeMs = clampedTime(own, this.limit);
    let tried: { hash: Uint8Array; size: number } | undefined;
    if (
      "source" in f &&
      f.hash !== undefined &&
      f.bytes === undefined &&
      listed &&
      this.options.reuse !== false &&
      this.previous !== null
    ) {
      this.manifest.set(index, f.hash, f.size);
      tried = { hash: f.hash, size: f.size };
      if (await this.reuse(f.path, index, previousIndex(), mtimeMs, true)) {
        this.bytes += f.size;
        return { done: true };
      }
    }
    let data: Uint8Array;
    try {
      data = ("bytes" in f ? f.bytes : undefined) ?? (await this.ops.read(source));
    } catch (error) {
      throw fromOsError(error, undefined, "read");
    }
    return { done: false, data, mtimeMs, ...(tried === undefined ? {} : { tried }) };
  }

  /**
   * Links the previous output's file into the new folder when its bytes hash the same (and, when the file must have
   * a given modification time, it has it); false otherwise or when linking fails (then the file is written).
   */
  private async reuse(
    rel: string,
    index: number,
    at: number,
    mtimeMs: number | undefined,
    checkTime: boolean,
  ): Promise<boolean> {
    const { previous, ops } = this;
    if (previous === null || at < 0 || !this.manifest.same(index, previous.lines.entries, at)) return false;
    const existing = filePath(previous.root, rel);
    if (checkTime && mtimeMs !== undefined) {
      const old = await ops.stat(existing);
      if (old === null || Math.round(old.mtimeMs) !== mtimeMs) return false;
    }
    if (this.options.verifyReuse === true) {
      let bytes: Uint8Array;
      try {
        bytes = await ops.read(existing);
      } catch {
        return false;
      }
      if (!this.manifest.holds(index, digest(bytes), bytes.byteLength)) return false;
    }
    try {
      await ops.link(existing, filePath(this.root, rel));
      this.reused++;
      return true;
    } catch {
      return false;
    }
  }
}
