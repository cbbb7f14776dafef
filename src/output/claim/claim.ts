// src/output/claim/claim.ts
// I/O: claims an output folder before anything is written to it: checked, locked, recovered, and released when done.

import path from "node:path";
import { fromOsError } from "../../errors.js";
import { layoutOf, type Layout } from "../../layout/paths.js";
import { checkFolders, checkRecords } from "./folder-checks.js";
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
  /** The content folder, which --out must neither hold nor lie in. */
  content: string;
  /** Replace an existing output (and records) that this tool did not write (--replace-out). */
  replaceOut: boolean;
  /** How to name the output folder in messages (default: the path as given). */
  label?: string;
  methods?: Partial<WriteMethods>;
}

/**
 * Claims --out for a build, then runs `work` with the claim and the layout of what it writes (a refused or busy --out
 * exits 2 before any work): the layout is that of the real --out (through a symlink), where the readers look too.
 * The places are checked first (--out apart from the content, its records this tool's), then the claim is taken.
 */
export async function withClaim<T>(
  options: ClaimOptions,
  work: (claim: OutputClaim, layout: Layout) => Promise<T>,
): Promise<T> {
  checkFolders(options.content, options.out);
  const target = await resolveTarget(options.out);
  const layout = layoutOf(target);
  const claim = await claimTarget(target, layout.records, {
    ...options,
    label: options.label ?? options.out,
    checkRecords: true,
  });
  try {
    return await work(claim, layout);
  } finally {
    await claim.release();
  }
}

type ClaimTargetOptions = Pick<ClaimOptions, "label" | "methods"> & { replaceOut?: boolean };

/**
 * Claims an output folder: resolves a symlinked --out to its target, refuses what may not be replaced (a mount
 * point; anything not empty and not made by this tool unless `replaceOut`) before touching anything, takes the
 * lock beside it (a second build exits 2), and recovers from a killed build (finishes an interrupted swap, removes
 * the temporary folders of dead builds). Throws a UsageError (exit 2) or a BuildError naming an OS error.
 */
export async function claimOutput(outDir: string, options: ClaimTargetOptions = {}): Promise<OutputClaim> {
  const target = await resolveTarget(outDir).catch((error: unknown) => {
    throw fromOsError(error, (p) => p);
  });
  return claimTarget(target, layoutOf(target).records, { ...options, label: options.label ?? outDir });
}

/** Claims `target`, the real --out, whose records are `records` (refused first when not this tool's, if asked). */
async function claimTarget(
  target: string,
  records: string,
  options: ClaimTargetOptions & { label: string; checkRecords?: boolean },
): Promise<OutputClaim> {
  const fs: WriteMethods = { ...FS, ...options.methods };
  const { label } = options;
  const replaceOut = options.replaceOut === true;
  const shown = (p: string): string => p;
  if (options.checkRecords === true) await checkRecords(records, replaceOut);
  try {
    await checkTarget(target, records, label, replaceOut); // read-only: a refusal touches nothing
    await fs.mkdir(path.dirname(target), { recursive: true });
    const lock = await acquireLock(target, label);
    try {
      await recover(target, fs);
      await checkTarget(target, records, label, replaceOut);
    } catch (error) {
      await lock.release();
      throw error;
    }
    return { target, label, lock, release: () => lock.release() };
  } catch (error) {
    throw fromOsError(error, shown);
  }
}
