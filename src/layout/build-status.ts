// src/layout/build-status.ts
// I/O: what the commands ask of a build before they read it: whether `outDir` holds one, whether it is whole, its
// stamp, and what names one version of its records.

import { readFileSync, realpathSync, statSync } from "node:fs";
import { lastBuild } from "./last-build.js";
import { layoutOf, type Layout } from "./paths.js";
import { parseStamp, type BuildStamp } from "./stamp.js";

/** What names one version of a file (device, inode, size, modification time), or "" when it is not there. */
export const fileVersion = (file: string): string => {
  const s = statSync(file, { throwIfNoEntry: false });
  return s === undefined ? "" : `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}`;
};

/**
 * What names one version of a file of a build's records: its device, inode, size, and modification and change times
 * in nanoseconds; null when it is not there. `dev` keeps what it wrote while the file is the same
 * (src/output/publish.ts: PublishMemo).
 */
export function fileIdentity(file: string): string | null {
  const s = statSync(file, { bigint: true, throwIfNoEntry: false });
  return s === undefined ? null : `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
}

/** Synchronously: whether `outDir` holds a build whose records can be read (dev, before it starts a preview). */
export const isBuild = (outDir: string): boolean => buildStamp(outDir) !== null;

/** The stamp of the build in `outDir` (its records' build.json), or null when it is no build. */
export function buildStamp(outDir: string): BuildStamp | null {
  try {
    return stampIn(layoutOf(realpathSync(outDir)));
  } catch {
    return null;
  }
}

/** The stamp of the build laid out as `layout`, or null when it is no build. */
function stampIn(layout: Layout): BuildStamp | null {
  try {
    return parseStamp(readFileSync(layout.stamp, "utf8"));
  } catch {
    return null;
  }
}

/**
 * Whether a build of `hosts` by the tool `tool` over the build laid out as `layout` is likely to update it in place:
 * it is that tool's build of the same hosts (another tool's answers, or other hosts' folders, are written in full).
 */
export function likelyInPlace(layout: Layout, tool: string, hosts: readonly string[]): boolean {
  const stamp = stampIn(layout);
  return stamp !== null && stamp.tool === tool && stamp.hosts.join() === hosts.join();
}

/** The version of the records of the build in `outDir` (see Build.version), without reading them. */
export const buildVersion = (outDir: string): string => fileVersion(layoutOf(realpathSync(outDir)).stamp);

/**
 * Synchronously: whether `outDir` holds a build that was stopped midway (between its swaps, or during an in-place
 * update: its journal is there). Its files are whole, but not all of one build. False when it is no build.
 */
export function isIncomplete(outDir: string): boolean {
  try {
    const last = lastBuild(layoutOf(realpathSync(outDir)));
    return last.stamp !== null && (!last.describesSite || last.unfinished);
  } catch {
    return false;
  }
}

/** What `check`, `preview`, `dev` and `verify` say of an incomplete build (isIncomplete). */
export const incompleteLine = (dir: string): string =>
  `${dir} is incomplete: a build was stopped midway, so it holds whole files of two builds. Run the build again: it finishes the update.`;
