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

async function writeAll(root: string, files: readonly OutputFile[]): Promise<number> {
  const dirs = new Set<string>();
  for (const f of files) {
    const dir = path.posix.dirname(f.path);
    if (dir !== ".") dirs.add(dir);
  }
  // mkdir -p of the deepest folders creates the others; sorted so that runs are deterministic.
  const leaves = [...dirs].sort().filter((d, i, all) => !(all[i + 1]?.startsWith(`${d}/`) ?? false));
  await Promise.all(leaves.map((d) => mkdir(path.join(root, d), { recursive: true })));

  let bytes = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const f = files[next++]!;
      const dest = path.join(root, f.path);
      if ("source" in f) {
        await copyFile(f.source, dest);
        bytes += f.size;
      } else {
        await writeFile(dest, f.data);
        bytes += typeof f.data === "string" ? Buffer.byteLength(f.data) : f.data.byteLength;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, files.length) }, worker));
  return bytes;
}

const exists = (p: string): Promise<boolean> => stat(p).then(() => true, () => false);

/** Temporary folders of this writer are named `.<out>.tmp-*` and `.<out>.old-*` beside the output folder. */
export async function writeOutput(outDir: string, files: readonly OutputFile[]): Promise<WriteStats> {
  const out = path.resolve(outDir);
  const parent = path.dirname(out);
  const base = path.basename(out);
  await mkdir(parent, { recursive: true });
  const tmp = await mkdtemp(path.join(parent, `.${base}.tmp-`));
  try {
    const bytes = await writeAll(tmp, files);
    if (await exists(out)) {
      const old = await mkdtemp(path.join(parent, `.${base}.old-`));
      await rename(out, path.join(old, base));
      try {
        await rename(tmp, out);
      } catch (error) {
        await rename(path.join(old, base), out);
        throw error;
      }
      await rm(old, { recursive: true, force: true });
    } else {
      await rename(tmp, out);
    }
    return { files: files.length, bytes };
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    throw error;
  }
}
