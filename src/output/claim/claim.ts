// src/output/claim/claim.ts
// I/O: claims an output folder before anything is written to it: checked, locked, recovered, and released when done.

import path from "node:path";
import { fromOsError } from "../../errors.js";
import { layoutOf, type Layout } from "../../layout/paths.js";
import { checkRecords } from "./folder-checks.js";
import { FS, type WriteMethods } from "./fs-methods.js";
import { acquireLock, type OutLock } from "./lock.js";
import { checkTarget, resolveTarget } from "./out-folder.js";
import { recover } from "./recovery.js";

/** An output folder claimed for writing: checked, locked, recovered. `claimOutput` makes one; release it when done. */
export interface OutputClaim {
  /** The real folder that is replaced (through a symlinked --out). */
  target: string;
  /** --out as the user gave it, for messages. */
  label: string;
  lock: OutLock;
  release(): Promise<void>;
}

export interface ClaimOptions {
  /** --out as given. */
  out: string;
  /** Replace an existing output (and records) that this tool did not write (--replace-out). */
  replaceOut: boolean;
  /** How to name the output folder in messages (default: the path as given). */
  label?: string;
  methods?: Partial<WriteMethods>;
}

/**
 * Claims --out for a build, then runs `work` with the claim and the layout of what it writes (a refused or busy --out
 * exits 2 before any work): the layout is that of the real --out (through a symlink), where the readers look too.
 */
export async function withClaim<T>(
  options: ClaimOptions,
  work: (claim: OutputClaim, layout: Layout) => Promise<T>,
): Promise<T> {
  const target = await resolveTarget(options.out);
  const layout = layoutOf(target);
  await checkRecords(layout.records, options.replaceOut);
  const claim = await claimOutput(options.out, options);
  try {
    return await work(claim, layout);
  } finally {
    await claim.release();
  }
}

/**
 * Claims an output folder: resolves a symlinked --out to its target, refuses what may not be replaced (a mount
 * point; anything not empty and not made by this tool unless `replaceOut`) before touching anything, takes the
 * lock beside it (a second build exits 2), and recovers from a killed build (finishes an interrupted swap, removes
 * the temporary folders of dead builds). Throws a UsageError (exit 2) or a BuildError naming an OS error.
 */
export async function claimOutput(
  outDir: string,
  options: Pick<ClaimOptions, "label" | "methods"> & { replaceOut?: boolean } = {},
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
