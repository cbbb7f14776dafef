// src/output/write-output.ts
// EDGE, the only writer: builds the whole site in a fresh folder beside the output folder and swaps it in only
// when every file is written, so a failed build leaves the previous site exactly as it was.
// Rebuilds reuse the previous site's files whose bytes do not change: they are hard-linked into the fresh folder
// (never written into), so a no-op rebuild rewrites nothing and the swap stays atomic.

import crypto from "node:crypto";
import { copyFileSync, linkSync, mkdirSync, statSync, utimesSync, writeFileSync, type Stats } from "node:fs";
import { chmod, copyFile, link, mkdir, mkdtemp, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import type { OutputFile } from "./plan.js";

/** How many files are written at once. */
const CONCURRENCY = 64;

export interface WriteStats {
  files: number;
  bytes: number;
  /** Files hard-linked from the previous output instead of written (their bytes did not change). */
  reused: number;
}

/**
 * The manifest of generated files, written into the output folder itself so that it is swapped in atomically with
 * the files it describes: `<sha1 base64url> <size> <path>` per generated file, sorted by path. Deterministic (no
 * times, no absolute paths), so reproducible builds stay byte-identical. Copied content files are not listed: they
 * are reused when the previous output's copy has the source's size and modification time (the writer gives copies
 * their source's modification time, to the millisecond).
 */
export const MANIFEST_FILE = ".build-manifest";
const MANIFEST_HEADER = "build-index-site manifest 1";

/** The file-system calls the writer makes: replaceable, so that tests can make any of them fail (a full disk). */
export interface WriteMethods {
  mkdir: typeof mkdir;
  mkdtemp: typeof mkdtemp;
  copyFile: typeof copyFile;
  writeFile: typeof writeFile;
  rename: typeof rename;
  rm: typeof rm;
  stat: typeof stat;
  link: typeof link;
  utimes: typeof utimes;
  readFile: typeof readFile;
  chmod: typeof chmod;
}

export interface WriteOptions {
  /** Aborting (Ctrl-C) stops the writing before the swap; the temporary folder is removed and the old site kept. */
  signal?: AbortSignal;
  methods?: Partial<WriteMethods>;
  /** Called after each file is written (tests inject failures here). */
  onFile?: (file: OutputFile) => void | Promise<void>;
  /** Hard-link unchanged files from the previous output instead of writing them (default true). */
  reuse?: boolean;
}

const FS: WriteMethods = { mkdir, mkdtemp, copyFile, writeFile, rename, rm, stat, link, utimes, readFile, chmod };

/** sha1, base64url: crypto.hash (Node ≥ 20.12) skips the Hash object per file. */
const digest: (data: Uint8Array) => string = typeof crypto.hash === "function"
  ? (data) => crypto.hash("sha1", data, "base64url")
  : (data) => crypto.createHash("sha1").update(data).digest("base64url");

/** The previous output's manifest: path → "<hash> <size>"; empty when there is none (or it is unreadable). */
export async function readManifest(out: string, fs: WriteMethods = FS): Promise<{ text: string; entries: Map<string, string> }> {
  const entries = new Map<string, string>();
  let text: string;
  try {
    text = await fs.readFile(path.join(out, MANIFEST_FILE), "utf8");
  } catch {
    return { text: "", entries };
  }
  const lines = text.split("\n");
  if (lines[0] !== MANIFEST_HEADER) return { text: "", entries };
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const second = line.indexOf(" ", line.indexOf(" ") + 1);
    if (second > 0) entries.set(line.slice(second + 1), line.slice(0, second));
  }
  return { text, entries };
}

/** What the writer knows of the previous output folder, to reuse its files. */
interface Previous {
  root: string;
  manifest: Map<string, string>;
  manifestText: string;
}

/**
 * The per-file calls of the writer. Without injected methods they are the synchronous calls: one thread that opens,
 * writes and closes each small file costs less than handing every call to libuv's pool (the floor, a plain
 * synchronous copy, is what the build is measured against). Injected methods (tests) are awaited.
 */
interface FileOps {
  mkdir(dir: string): void | Promise<unknown>;
  writeFile(dest: string, data: string | Uint8Array): void | Promise<void>;
  copyFile(source: string, dest: string): void | Promise<void>;
  utimes(dest: string, seconds: number): void | Promise<void>;
  link(existing: string, dest: string): void | Promise<void>;
  /** null when the path does not exist (or cannot be read). */
  stat(p: string): Stats | null | Promise<Stats | null>;
}

function fileOps(methods: Partial<WriteMethods>): { ops: FileOps; sync: boolean } {
  const ops: FileOps = {
    mkdir: methods.mkdir ? (d) => methods.mkdir!(d, { recursive: true }) : (d) => void mkdirSync(d, { recursive: true }),
    writeFile: methods.writeFile ? (d, data) => methods.writeFile!(d, data) : (d, data) => writeFileSync(d, data),
    copyFile: methods.copyFile ? (s, d) => methods.copyFile!(s, d) : (s, d) => copyFileSync(s, d),
    utimes: methods.utimes ? (d, t) => methods.utimes!(d, t, t) : (d, t) => utimesSync(d, t, t),
    link: methods.link ? (e, d) => methods.link!(e, d) : (e, d) => linkSync(e, d),
    stat: methods.stat ? (p) => methods.stat!(p).catch(() => null) : (p) => {
      try {
        return statSync(p);
      } catch {
        return null;
      }
    },
  };
  const perFile = ["mkdir", "writeFile", "copyFile", "utimes", "link", "stat"] as const;
  return { ops, sync: perFile.every((name) => methods[name] === undefined) };
}

/** Files written between two turns of the event loop (synchronous writing), so that Ctrl-C is heard while writing. */
const YIELD_EVERY = 256;
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function writeAll(
  root: string, files: readonly OutputFile[], methods: Partial<WriteMethods>, options: WriteOptions, previous: Previous | null,
): Promise<{ bytes: number; reused: number; manifest: Array<string | undefined> }> {
  const { ops, sync } = fileOps(methods);
  const dirs = new Set<string>();
  for (const f of files) {
    const dir = path.posix.dirname(f.path);
    if (dir !== ".") dirs.add(dir);
  }
  // mkdir -p of the deepest folders creates the others; sorted so that runs are deterministic.
  const leaves = [...dirs].sort().filter((d, i, all) => !(all[i + 1]?.startsWith(`${d}/`) ?? false));
  await Promise.all(leaves.map((d) => ops.mkdir(path.join(root, d))));

  let bytes = 0;
  let reused = 0;
  let next = 0;
  let failed = false;
  /** `<hash> <size>` of each generated file, by index in `files`. */
  const manifest = new Array<string | undefined>(files.length);
  /** Links the previous output's file into the new folder; false when that fails (then the file is written). */
  const reuse = async (rel: string, dest: string): Promise<boolean> => {
    try {
      await ops.link(path.join(previous!.root, rel), dest);
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
      const dest = path.join(root, f.path);
      if ("source" in f) {
        const mtimeMs = f.mtimeMs === undefined ? undefined : Math.floor(f.mtimeMs);
        const old = previous !== null && mtimeMs !== undefined ? await ops.stat(path.join(previous.root, f.path)) : null;
        const same = old !== null && old.isFile() && old.size === f.size && Math.round(old.mtimeMs) === mtimeMs;
        if (!(same && await reuse(f.path, dest))) {
          await ops.copyFile(f.source, dest);
          if (mtimeMs !== undefined) await ops.utimes(dest, mtimeMs / 1000);
        }
        bytes += f.size;
      } else {
        // Lazy files are produced here, one at a time, and dropped once written: the site is never held whole.
        const produced = "data" in f ? f.data : f.produce();
        const data = typeof produced === "string" ? Buffer.from(produced, "utf8") : produced;
        const size = data.byteLength;
        const entry = `${digest(data)} ${size}`;
        manifest[index] = entry; // the path is added when the manifest is printed: no second string per file
        if (!(previous?.manifest.get(f.path) === entry && await reuse(f.path, dest))) await ops.writeFile(dest, data);
        bytes += size;
      }
      await options.onFile?.(f);
    }
  };
  // Every worker stops at the first failure and all have stopped before the caller removes the folder.
  // Synchronous calls leave nothing to overlap: one worker.
  const results = await Promise.allSettled(Array.from({ length: Math.min(sync ? 1 : CONCURRENCY, files.length) }, () =>
    worker().catch((error: unknown) => {
      failed = true;
      throw error;
    })));
  const failure = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failure !== undefined) throw failure.reason;
  return { bytes, reused, manifest };
}

/**
 * The manifest's text (header, then `<hash> <size> <path>` per generated file, in `files` order), as chunks of a few
 * thousand lines: a ×100 site has 640,000 lines, and one string per line plus their join would double the memory.
 */
function printManifest(files: readonly OutputFile[], entries: ReadonlyArray<string | undefined>): string[] {
  const chunks: string[] = [];
  let chunk = `${MANIFEST_HEADER}\n`;
  let lines = 0;
  for (let i = 0; i < files.length; i++) {
    const entry = entries[i];
    if (entry === undefined) continue;
    chunk += `${entry} ${files[i]!.path}\n`;
    if (++lines % 4096 === 0) {
      chunks.push(flat(chunk));
      chunk = "";
    }
  }
  if (chunk !== "") chunks.push(flat(chunk));
  return chunks;
}

/**
 * A flat copy of a string built by concatenation (its rope of thousands of pieces would otherwise stay alive until
 * the text is written). A UTF-8 round trip is exact for text without surrogates (any other is left as it is).
 */
const flat = (s: string): string => (/[\uD800-\uDFFF]/.test(s) ? s : Buffer.from(s, "utf8").toString("utf8"));

/** Whether the chunks spell exactly `text`. */
function sameChunks(text: string, chunks: readonly string[]): boolean {
  let at = 0;
  for (const chunk of chunks) {
    if (!text.startsWith(chunk, at)) return false;
    at += chunk.length;
  }
  return at === text.length;
}

/** Temporary folders of this writer are named `.<out>.tmp-*` and `.<out>.old-*` beside the output folder. */
export async function writeOutput(outDir: string, files: readonly OutputFile[], options: WriteOptions = {}): Promise<WriteStats> {
  const fs: WriteMethods = { ...FS, ...options.methods };
  const exists = (p: string): Promise<boolean> => fs.stat(p).then(() => true, () => false);
  const out = path.resolve(outDir);
  const parent = path.dirname(out);
  const base = path.basename(out);
  options.signal?.throwIfAborted();
  await fs.mkdir(parent, { recursive: true });
  let previous: Previous | null = null;
  if (options.reuse !== false && await exists(out)) {
    const { text, entries } = await readManifest(out, fs);
    previous = { root: out, manifest: entries, manifestText: text };
  }
  const tmp = await fs.mkdtemp(path.join(parent, `.${base}.tmp-`));
  try {
    // mkdtemp makes the folder 0700: the swapped-in site must be readable like any folder (a web server's user).
    await fs.chmod(tmp, 0o777 & ~process.umask());
    const { bytes, reused, manifest } = await writeAll(tmp, files, options.methods ?? {}, options, previous);
    const manifestText = printManifest(files, manifest);
    const manifestPath = path.join(tmp, MANIFEST_FILE);
    const sameManifest = previous !== null && sameChunks(previous.manifestText, manifestText);
    if (!(sameManifest && await fs.link(path.join(out, MANIFEST_FILE), manifestPath).then(() => true, () => false))) {
      await fs.writeFile(manifestPath, manifestText);
    }
    options.signal?.throwIfAborted(); // the last moment to stop: the swap below is not interrupted
    if (await exists(out)) {
      const old = await fs.mkdtemp(path.join(parent, `.${base}.old-`));
      await fs.rename(out, path.join(old, base));
      try {
        await fs.rename(tmp, out);
      } catch (error) {
        await fs.rename(path.join(old, base), out);
        await fs.rm(old, { recursive: true, force: true });
        throw error;
      }
      await fs.rm(old, { recursive: true, force: true });
    } else {
      await fs.rename(tmp, out);
    }
    return { files: files.length, bytes, reused };
  } catch (error) {
    await fs.rm(tmp, { recursive: true, force: true });
    throw error;
  }
}
