// src/output/write-output.ts
// EDGE, the only writer: builds the whole site in a fresh folder beside the output folder and swaps it in only
// when every file is written, so a failed build leaves the previous site exactly as it was.

import { copyFile, mkdir, mkdtemp, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { OutputFile } from "./plan.js";

/** How many files are written at once. */
const CONCURRENCY = 64;

export interface WriteStats {
  files: number;
  bytes: number;
}

/** The file-system calls the writer makes: replaceable, so that tests can make any of them fail (a full disk). */
export interface WriteMethods {
  mkdir: typeof mkdir;
  mkdtemp: typeof mkdtemp;
  copyFile: typeof copyFile;
  writeFile: typeof writeFile;
  rename: typeof rename;
  rm: typeof rm;
  stat: typeof stat;
}

export interface WriteOptions {
  /** Aborting (Ctrl-C) stops the writing before the swap; the temporary folder is removed and the old site kept. */
  signal?: AbortSignal;
  methods?: Partial<WriteMethods>;
  /** Called after each file is written (tests inject failures here). */
  onFile?: (file: OutputFile) => void | Promise<void>;
}

const FS: WriteMethods = { mkdir, mkdtemp, copyFile, writeFile, rename, rm, stat };

async function writeAll(root: string, files: readonly OutputFile[], fs: WriteMethods, options: WriteOptions): Promise<number> {
  const dirs = new Set<string>();
  for (const f of files) {
    const dir = path.posix.dirname(f.path);
    if (dir !== ".") dirs.add(dir);
  }
  // mkdir -p of the deepest folders creates the others; sorted so that runs are deterministic.
  const leaves = [...dirs].sort().filter((d, i, all) => !(all[i + 1]?.startsWith(`${d}/`) ?? false));
  await Promise.all(leaves.map((d) => fs.mkdir(path.join(root, d), { recursive: true })));

  let bytes = 0;
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (next < files.length && !failed) {
      options.signal?.throwIfAborted();
      const f = files[next++]!;
      const dest = path.join(root, f.path);
      if ("source" in f) {
        await fs.copyFile(f.source, dest);
        bytes += f.size;
      } else {
        await fs.writeFile(dest, f.data);
        bytes += typeof f.data === "string" ? Buffer.byteLength(f.data) : f.data.byteLength;
      }
      await options.onFile?.(f);
    }
  };
  // Every worker stops at the first failure and all have stopped before the caller removes the folder.
  const results = await Promise.allSettled(Array.from({ length: Math.min(CONCURRENCY, files.length) }, () =>
    worker().catch((error: unknown) => {
      failed = true;
      throw error;
    })));
  const failure = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failure !== undefined) throw failure.reason;
  return bytes;
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
  const tmp = await fs.mkdtemp(path.join(parent, `.${base}.tmp-`));
  try {
    const bytes = await writeAll(tmp, files, fs, options);
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
    return { files: files.length, bytes };
  } catch (error) {
    await fs.rm(tmp, { recursive: true, force: true });
    throw error;
  }
}
