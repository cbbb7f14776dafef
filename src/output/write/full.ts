// src/output/write/full.ts
// EDGE, the only writer: builds the whole site in a fresh folder beside the output folder and swaps it in only
// when every file is written, so a failed build leaves the previous site exactly as it was.
// Rebuilds reuse the previous site's files whose bytes do not change: they are hard-linked into the fresh folder
// (never written into), so a no-op rebuild rewrites nothing and the swap stays atomic.

import {
  closeSync,
  futimesSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  writeFileSync,
  type Stats,
} from "node:fs";
import { chmod, link, mkdir, mkdtemp, readFile, rename, rm, stat, unlink, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { fromOsError } from "../../errors.js";
import { digest, HASH_CHARS, ManifestEntries, TextDigests, type ManifestText } from "../manifests/entries.js";
import { acquireLock, type OutLock } from "../claim/lock.js";
import { checkTarget, MARKER_FILE, MARKER_HEADER, resolveTarget } from "../claim/out-folder.js";
import { filePath } from "../plan/file-path.js";
import { foldersIn, linkSize, setLinkEntry, type OutputFile } from "../plan/site.js";
import { finder, manifestLines, type ManifestLines } from "../manifests/lines.js";
import { removeTree } from "../claim/remove-tree.js";
import { journalFile, oldPrefix, printJournal, recover, tmpPrefix } from "../claim/recovery.js";

export { digest, ManifestEntries, type ManifestText };

/** How many files are written at once. */
const CONCURRENCY = 64;

export interface WriteStats {
  /** The folder swapped in (its inode: the records name the --out they describe by it). */
  ino: number;
  /** The manifest's text, printed when asked for, when the caller keeps it (`manifest: { previous }`); otherwise it is
   * in the folder. */
  manifest: ManifestText | null;
  files: number;
  bytes: number;
  /** Files hard-linked from the previous output instead of written (their bytes did not change). */
  reused: number;
  /** Each file's manifest entry ("<hash> <size>"), by its index in the files written. */
  entries: ManifestEntries;
}

/**
 * The manifest of the output, written into the output folder itself so that it is swapped in atomically with the
 * files it describes; it is also the marker by which the tool recognises its own output (a folder without it is
 * never replaced unless --replace-out). Its first line is the header, the second the modification-time policy
 * (`mtimes <SOURCE_DATE_EPOCH>` or `mtimes -`), then `<sha1 base64url> <size> <path>` per file (generated and
 * copied), in the order of the files written (planOutput's order). Deterministic (no times of the build, no absolute
 * paths), so reproducible builds stay byte-identical. A file is reused from the previous output only when its bytes
 * hash the same.
 */
export const MANIFEST_FILE = MARKER_FILE;
const MANIFEST_HEADER = MARKER_HEADER;

/** The file-system calls the writer makes: replaceable, so that tests can make any of them fail (a full disk). */
export interface WriteMethods {
  mkdir: typeof mkdir;
  mkdtemp: typeof mkdtemp;
  writeFile: typeof writeFile;
  rename: typeof rename;
  rm: typeof rm;
  unlink: typeof unlink;
  stat: typeof stat;
  link: typeof link;
  utimes: typeof utimes;
  readFile: typeof readFile;
  chmod: typeof chmod;
}

/** An output folder claimed for writing: checked, locked, recovered. `claimOutput` makes one; release it when done. */
export interface OutputClaim {
  /** The real folder that is replaced (through a symlinked --out). */
  target: string;
  /** --out as the user gave it, for messages. */
  label: string;
  lock: OutLock;
  release(): Promise<void>;
}

export interface WriteOptions {
  /** Aborting (Ctrl-C) stops the writing before the swap; the temporary folder is removed and the old site kept. */
  signal?: AbortSignal;
  methods?: Partial<WriteMethods>;
  /** Called after each file is written (tests inject failures here). */
  onFile?: (file: OutputFile) => void | Promise<void>;
  /** Hard-link unchanged files from the previous output instead of writing them (default true). */
  reuse?: boolean;
  /** Reuse a previous file only when its bytes, read again, are those its manifest entry says (--force: a file edited
   * by hand since is written again). Default: the manifest is trusted. */
  verifyReuse?: boolean;
  /** Replace an existing output that this tool did not write (a file, a non-empty folder without the marker). */
  replaceOut?: boolean;
  /** SOURCE_DATE_EPOCH in seconds: every file's modification time is clamped to it (reproducible Last-Modified). */
  sourceDateEpoch?: number;
  /** The claim of this output folder when the caller already holds it (build() takes it before compiling). */
  claim?: OutputClaim;
  /** How to name the output folder in messages (default: the path as given). */
  label?: string;
  /**
   * Where the folder's manifest goes. Default: into the folder (it is then also the folder's marker). With
   * `{ previous }` the caller keeps it elsewhere (--out holds only the public site): `previous` is the last build's
   * manifest text when it still describes this folder (null otherwise), and the new one is returned.
   */
  manifest?: { previous: string | null };
}

const FS: WriteMethods = {
  mkdir,
  mkdtemp,
  writeFile,
  rename,
  rm: removeTree,
  unlink,
  stat,
  link,
  utimes,
  readFile,
  chmod,
};

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

/**
 * Claims an output folder: resolves a symlinked --out to its target, refuses what may not be replaced (a mount
 * point; anything not empty and not made by this tool unless `replaceOut`) before touching anything, takes the
 * lock beside it (a second build exits 2), and recovers from a killed build (finishes an interrupted swap, removes
 * the temporary folders of dead builds). Throws a UsageError (exit 2) or a BuildError naming an OS error.
 */
export async function claimOutput(
  outDir: string,
  options: Pick<WriteOptions, "replaceOut" | "label" | "methods"> = {},
): Promise<OutputClaim> {
  const fs: WriteMethods = { ...FS, ...options.methods };
  const label = options.label ?? outDir;
  const shown = (p: string): string => p;
  try {
    const target = await resolveTarget(outDir);
    await checkTarget(target, label, options.replaceOut === true); // read-only: a refusal touches nothing
    await fs.mkdir(path.dirname(target), { recursive: true });
    const lock = await acquireLock(target, label);
    try {
      await recover(target, fs);
      await checkTarget(target, label, options.replaceOut === true);
    } catch (error) {
      await lock.release();
      throw error;
    }
    return { target, label, lock, release: () => lock.release() };
  } catch (error) {
    throw fromOsError(error, shown);
  }
}

/** A copy's modification time: its source's (whole milliseconds), clamped to SOURCE_DATE_EPOCH when that is set. */
export const clampedTime = (own: number | undefined, limit: number | undefined): number | undefined =>
  own === undefined || limit === undefined ? own : Math.min(own, limit);

/** The manifest's line for the modification-time policy: files whose times the writer sets are clamped to this. */
export const mtimesLine = (epoch: number | undefined): string => `mtimes ${epoch ?? "-"}`;

/** What the writer knows of the previous output folder, to reuse its files. */
interface Previous {
  root: string;
  /** Its manifest's lines (manifest-lines.ts), and a path's index among them (-1: none). */
  lines: ManifestLines;
  find(rel: string): number;
  manifestText: string;
  /** Whether the previous output's generated files have the times this build gives them. */
  sameMtimes: boolean;
}

/**
 * The per-file calls of the writer. Without injected methods they are the synchronous calls: one thread that opens,
 * writes and closes each small file costs less than handing every call to libuv's pool (the floor, a plain
 * synchronous copy, is what the build is measured against). Injected methods (tests) are awaited.
 */
interface FileOps {
  mkdir(dir: string): void | Promise<unknown>;
  /** Writes a new file (a string as UTF-8); with `mtimeMs`, gives it that modification time. */
  write(dest: string, data: string | Uint8Array, mtimeMs: number | undefined): void | Promise<void>;
  read(source: string): Uint8Array | Promise<Uint8Array>;
  link(existing: string, dest: string): void | Promise<void>;
  /** null when the path does not exist (or cannot be read). */
  stat(p: string): Stats | null | Promise<Stats | null>;
}

function fileOps(methods: Partial<WriteMethods>): { ops: FileOps; sync: boolean } {
  const ops: FileOps = {
    mkdir: methods.mkdir
      ? (d) => methods.mkdir!(d, { recursive: true })
      : (d) => void mkdirSync(d, { recursive: true }),
    write:
      methods.writeFile || methods.utimes
        ? async (d, data, mtimeMs) => {
            await (methods.writeFile ?? writeFile)(d, data);
            if (mtimeMs !== undefined) await (methods.utimes ?? utimes)(d, mtimeMs / 1000, mtimeMs / 1000);
          }
        : (d, data, mtimeMs) => {
            if (mtimeMs === undefined) return writeFileSync(d, data);
            const fd = openSync(d, "w");
            try {
              writeFileSync(fd, data);
              futimesSync(fd, mtimeMs / 1000, mtimeMs / 1000);
            } finally {
              closeSync(fd);
            }
          },
    read: methods.readFile ? (s) => methods.readFile!(s) : (s) => readFileSync(s),
    link: methods.link ? (e, d) => methods.link!(e, d) : (e, d) => linkSync(e, d),
    stat: methods.stat
      ? (p) => methods.stat!(p).catch(() => null)
      : (p) => {
          try {
            return statSync(p);
          } catch {
            return null;
          }
        },
  };
  const perFile = ["mkdir", "writeFile", "utimes", "readFile", "link", "stat"] as const;
  return { ops, sync: perFile.every((name) => methods[name] === undefined) };
}

/** Files written between two turns of the event loop (synchronous writing), so that Ctrl-C is heard while writing. */
const YIELD_EVERY = 256;
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function writeAll(
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

  /** SOURCE_DATE_EPOCH in ms: the latest modification time of any file written (generated files get exactly it). */
  const limit = options.sourceDateEpoch === undefined ? undefined : options.sourceDateEpoch * 1000;
  let bytes = 0;
  let reused = 0;
  let next = 0;
  let failed = false;
  /** `<hash> <size>` of each file, by index in `files`. */
  const manifest = new ManifestEntries(files.length);
  const digests = new TextDigests();
  /**
   * Links the previous output's file into the new folder when its bytes hash the same (and, when the file must have
   * a given modification time, it has it); false otherwise or when linking fails (then the file is written).
   */
  const reuse = async (
    rel: string,
    index: number,
    at: number,
    mtimeMs: number | undefined,
    checkTime: boolean,
  ): Promise<boolean> => {
    if (previous === null || at < 0 || !manifest.same(index, previous.lines.entries, at)) return false;
    const existing = filePath(previous.root, rel);
    if (checkTime && mtimeMs !== undefined) {
      const old = await ops.stat(existing);
      if (old === null || Math.round(old.mtimeMs) !== mtimeMs) return false;
    }
    if (options.verifyReuse === true) {
      let bytes: Uint8Array;
      try {
        bytes = await ops.read(existing);
      } catch {
        return false;
      }
      if (!manifest.holds(index, digest(bytes), bytes.byteLength)) return false;
    }
    try {
      await ops.link(existing, filePath(root, rel));
      reused++;
      return true;
    } catch {
      return false;
    }
  };
  const worker = async (): Promise<void> => {
    while (next < files.length && !failed) {
      options.signal?.throwIfAborted();
      const index = next++;
      if (sync && index % YIELD_EVERY === YIELD_EVERY - 1) await nextTurn();
      const f = files[index]!;
      let data: string | Uint8Array;
      let mtimeMs: number | undefined;
      let isCopy = false;
      /** The entry reuse was tried with already (a copy known by its hash): not tried again for the same bytes. */
      let tried: { hash: Uint8Array; size: number } | undefined;
      /** The file's index in the previous output's manifest, once looked up (each path once: the lookup expects the
       * paths in the manifest's order). */
      let at: number | undefined;
      const previousIndex = (): number => (at ??= previous?.find(f.path) ?? -1);
      // A link its folder's manifest leaves out (a host's copy of the site in the records, src/layout/link-trees.ts)
      // gets no entry: the manifest prints the entries set.
      const listed = !("linkTo" in f && f.implied === true);
      if ("linkTo" in f) {
        // A host's copy of an --out file: its entry is copied, not printed and read back (a ×100 build makes 740,000).
        if (listed) setLinkEntry(manifest, index, f);
        try {
          await ops.link(f.linkTo, filePath(root, f.path));
          bytes += linkSize(f);
          await options.onFile?.(f);
          continue;
        } catch {
          // Not linkable (another file system, no hard links): copied below, keeping the file's time.
        }
      }
      if ("source" in f || "linkTo" in f) {
        const source = "source" in f ? f.source : f.linkTo;
        // Copies are hashed too: reuse is decided by the bytes, never by size and time (normalised times, e.g. 1 in
        // Nix, would hide a same-size edit); their hash is the content's facts' when those know it (src/content:
        // kept for the same inode and change time). A copy keeps its source's modification time, clamped.
        isCopy = true;
        const sourceTime = "source" in f ? f.mtimeMs : (await ops.stat(source))?.mtimeMs;
        const own = sourceTime === undefined ? limit : Math.floor(sourceTime);
        mtimeMs = clampedTime(own, limit);
        if (
          "source" in f &&
          f.hash !== undefined &&
          f.bytes === undefined &&
          listed &&
          options.reuse !== false &&
          previous !== null
        ) {
          manifest.set(index, f.hash, f.size);
          tried = { hash: f.hash, size: f.size };
          if (await reuse(f.path, index, previousIndex(), mtimeMs, true)) {
            bytes += f.size;
            await options.onFile?.(f);
            continue;
          }
        }
        try {
          data = ("bytes" in f ? f.bytes : undefined) ?? (await ops.read(source));
        } catch (error) {
          throw fromOsError(error, undefined, "read");
        }
      } else {
        // Lazy files are produced here, one at a time, and dropped once written: the site is never held whole.
        // Text is hashed and written as it is: no Buffer per file.
        data = "data" in f ? f.data : f.produce();
        mtimeMs = limit;
      }
      const { hash, size } = digests.entryOf(data, "hash" in f ? f.hash : undefined, "data" in f ? f.size : undefined);
      // The path is added when the manifest is printed: no string per file.
      if (listed) manifest.set(index, hash, size);
      const rel = f.path;
      const reusable =
        listed &&
        options.reuse !== false &&
        previous !== null &&
        (tried === undefined || !manifest.holds(index, tried.hash, tried.size));
      if (!(reusable && (await reuse(rel, index, previousIndex(), mtimeMs, isCopy || !previous.sameMtimes)))) {
        await ops.write(filePath(root, rel), data, mtimeMs);
      }
      bytes += size;
      await options.onFile?.(f);
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
  const failure = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failure !== undefined) throw failure.reason;
  return { bytes, reused, manifest };
}

/**
 * The manifest's text (header, time policy, then `<hash> <size> <path>` per file whose entry is set, in `files`
 * order) in chunks of a few thousand lines, printed as they are asked for: a ×100 site has 640,000 lines (46 MB), so
 * no manifest is held whole longer than it takes to write it.
 */
export function* manifestChunks(
  files: readonly OutputFile[],
  entries: ManifestEntries,
  epoch: number | undefined,
  paths?: readonly string[],
): Generator<string> {
  let chunk = `${MANIFEST_HEADER}\n${mtimesLine(epoch)}\n`;
  let lines = 0;
  for (let i = 0; i < files.length; i++) {
    const entry = entries.get(i);
    if (entry === undefined) continue;
    chunk += `${entry} ${paths?.[i] ?? files[i]!.path}\n`;
    if (++lines % 4096 === 0) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk !== "") yield chunk;
}

/**
 * A manifest printed when it is asked for: in chunks of lines, or as its bytes (manifestBytes). `paths`, when the
 * caller holds them (an update has each file's path), saves making each file's path again.
 */
export function printedManifest(
  files: readonly OutputFile[],
  entries: ManifestEntries,
  epoch: number | undefined,
  paths?: readonly string[],
): ManifestText {
  return {
    chunks: () => manifestChunks(files, entries, epoch, paths),
    bytes: () => manifestBytes(files, entries, epoch, paths),
  };
}

/**
 * The manifest's UTF-8 bytes, printed straight into one buffer: of the size its lines take when their paths are
 * ASCII (as a site's are, but for names the content chose), grown and then cut to size when one is not. The chunks
 * and a buffer joined from them would hold the text three times, and a string per entry cost twice the time.
 */
function manifestBytes(
  files: readonly OutputFile[],
  entries: ManifestEntries,
  epoch: number | undefined,
  paths?: readonly string[],
): Buffer {
  const head = `${MANIFEST_HEADER}\n${mtimesLine(epoch)}\n`;
  const pathOf = (i: number): string => paths?.[i] ?? files[i]!.path;
  let size = Buffer.byteLength(head);
  // "<sha1 base64url> <size> <path>\n"
  for (let i = 0; i < files.length; i++)
    if (entries.size(i) >= 0) size += entries.printedLength(i) + 1 + pathOf(i).length + 1;
  let out = Buffer.allocUnsafe(size);
  let at = out.write(head, 0, "utf8");
  for (let i = 0; i < files.length; i++) {
    if (entries.size(i) < 0) continue;
    const rel = pathOf(i);
    // Room for the line whatever its path holds (three bytes per UTF-16 unit at most), or for its exact bytes: only
    // the last lines, or a path that is not ASCII, are measured.
    const room = out.length - at;
    if (room < HASH_CHARS + 1 + 24 + 3 * rel.length + 1) {
      const line = entries.printedLength(i) + 1 + Buffer.byteLength(rel) + 1;
      if (line > room) {
        const grown = Buffer.allocUnsafe(Math.max(out.length * 2, at + line));
        out.copy(grown, 0, 0, at);
        out = grown;
      }
    }
    at = entries.printInto(i, out, at);
    out[at++] = 0x20;
    at += out.write(rel, at, "utf8");
    out[at++] = 0x0a;
  }
  if (at === out.length) return out;
  const exact = Buffer.allocUnsafe(at);
  out.copy(exact, 0, 0, at);
  return exact;
}

/** Whether the chunks spell exactly `text`, stopping at the first that differs. */
export function sameChunks(text: string, chunks: Iterable<string>): boolean {
  let at = 0;
  for (const chunk of chunks) {
    if (!text.startsWith(chunk, at)) return false;
    at += chunk.length;
  }
  return at === text.length;
}

/**
 * Writes a file chunk by chunk. Without an injected writeFile, synchronously: each chunk's UTF-8 is made and freed
 * by the call, where a Buffer per chunk would stay until the next collection (58 MB of them for the records at ×100).
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
 * Writes the site into `outDir`: the whole site in a fresh folder beside it, then swapped in (see recovery.ts for
 * the journal that makes a killed swap finish on the next run). The folder is claimed first (claimOutput) unless
 * `options.claim` already holds it. Temporary folders are `.<out>.tmp-<pid>-*` and `.<out>.old-<pid>-*` beside it.
 */
export async function writeOutput(
  outDir: string,
  files: readonly OutputFile[],
  options: WriteOptions = {},
): Promise<WriteStats> {
  const fs: WriteMethods = { ...FS, ...options.methods };
  const exists = (p: string): Promise<boolean> =>
    fs.stat(p).then(
      () => true,
      () => false,
    );
  options.signal?.throwIfAborted();
  const given = options.claim;
  const claim =
    given !== undefined && given.target === (await resolveTarget(outDir))
      ? given
      : await claimOutput(outDir, { ...options, label: options.label ?? given?.label ?? outDir });
  const { target } = claim;
  const parent = path.dirname(target);
  const base = path.basename(target);
  let tmp: string | null = null;
  try {
    let previous: Previous | null = null;
    if (options.reuse !== false && (await exists(target))) {
      const text =
        options.manifest === undefined
          ? await fs.readFile(path.join(target, MANIFEST_FILE), "utf8").catch(() => "")
          : (options.manifest.previous ?? "");
      const lines = manifestLines(text, false);
      previous = {
        root: target,
        lines,
        find: finder(lines.paths),
        manifestText: text,
        sameMtimes: lines.mtimes === mtimesLine(options.sourceDateEpoch),
      };
    }
    tmp = await fs.mkdtemp(path.join(parent, tmpPrefix(target)));
    // mkdtemp makes the folder 0700: the swapped-in site must be readable like any folder (a web server's user).
    await fs.chmod(tmp, 0o777 & ~process.umask());
    const { bytes, reused, manifest } = await writeAll(tmp, files, options.methods ?? {}, options, previous);
    const manifestText = printedManifest(files, manifest, options.sourceDateEpoch);
    const manifestPath = path.join(tmp, MANIFEST_FILE);
    if (options.manifest !== undefined) {
      // Kept by the caller.
    } else if (!(
      previous !== null &&
      previous.sameMtimes &&
      sameChunks(previous.manifestText, manifestText.chunks()) &&
      (await fs.link(path.join(target, MANIFEST_FILE), manifestPath).then(
        () => true,
        () => false,
      ))
    )) {
      await writeChunks(fs, options.methods?.writeFile !== undefined, manifestPath, manifestText.chunks());
      const limit = options.sourceDateEpoch;
      if (limit !== undefined) await fs.utimes(manifestPath, limit, limit);
    }
    const { ino } = await fs.stat(tmp);
    options.signal?.throwIfAborted(); // the last moment to stop: the swap below is not interrupted
    if (await exists(target)) {
      const old = await fs.mkdtemp(path.join(parent, oldPrefix(target)));
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
      tmp = null;
      await fs.unlink(journal);
      await fs.rm(old, { recursive: true, force: true });
    } else {
      await fs.rename(tmp, target);
      tmp = null;
    }
    return {
      ino,
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
