// src/content/content-cache.ts
// I/O: the facts of the content's files (file-facts.ts: sha1, image type and size) kept between builds, so that a
// rebuild reads only the files that changed: in memory in `dev`, and in `.build-index-site/<out>.content` for the
// next command (docs/layout.md). A fact is trusted only for the same file, unchanged: the same size, modification
// time, device, inode and change time. No tool can set a change time back, so an edit that keeps the size and the
// modification time (a normalised time, 1 in a Nix store) still shows. A file changed within RACY_MS of being read
// is not kept: its change time could be that of a later write in the same clock tick (git's "racily clean").

import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import type { FileFacts, ImageFacts } from "./file-facts.js";

/** What the cache knows a file by: its place, size, modification time, and stamp (raw-content.ts: RawFile). */
export interface CachedFile {
  absPath: string;
  size: number;
  mtimeMs: number;
  stamp?: { dev: number; ino: number; ctimeMs: number };
}

/** A file whose change time is this close to the moment it was read is read again next time. */
export const RACY_MS = 3000;
const FORMAT = 1;

interface Entry {
  size: number;
  mtimeMs: number;
  dev: number;
  ino: number;
  ctimeMs: number;
  facts: FileFacts;
}

/** The record's text: JSON, one file per line: [path, size, mtime, dev, ino, ctime, sha1 (base64url), image facts]. */
type Line = [string, number, number, number, number, number, string, ImageFacts?];

export class ContentCache {
  private readonly files = new Map<string, Entry>();
  private changed = false;
  private loaded = false;
  /** Whether the file it was loaded from or saved to holds what it knows (then an unchanged cache is not written). */
  private stored = false;

  /** How many files it knows. */
  get size(): number {
    return this.files.size;
  }

  /** The facts of the file, when they were kept for this very version of it. */
  get(f: CachedFile): FileFacts | undefined {
    const hit = this.files.get(f.absPath);
    const s = f.stamp;
    if (hit === undefined || s === undefined) return undefined;
    return hit.size === f.size &&
      hit.mtimeMs === f.mtimeMs &&
      hit.ctimeMs === s.ctimeMs &&
      hit.ino === s.ino &&
      hit.dev === s.dev
      ? hit.facts
      : undefined;
  }

  /** Keeps the facts of a file read at `readAt` (ms since the epoch), unless it changed too close to it. */
  set(f: CachedFile, facts: FileFacts, readAt: number): void {
    const s = f.stamp;
    if (s === undefined || !(s.ctimeMs < readAt - RACY_MS)) {
      if (this.files.delete(f.absPath)) this.changed = true;
      return;
    }
    this.files.set(f.absPath, { size: f.size, mtimeMs: f.mtimeMs, dev: s.dev, ino: s.ino, ctimeMs: s.ctimeMs, facts });
    this.changed = true;
  }

  /** Keeps only the files read by the last build (the others were removed or renamed). */
  retain(absPaths: ReadonlySet<string>): void {
    for (const key of this.files.keys()) {
      if (absPaths.has(key)) continue;
      this.files.delete(key);
      this.changed = true;
    }
  }

  /** A path the watcher saw change (absolute, through the content folder's real path), or everything. */
  forget(absPath?: string): void {
    if (absPath === undefined) {
      if (this.files.size > 0) this.changed = true;
      this.files.clear();
    } else if (this.files.delete(absPath)) this.changed = true;
  }

  /** The cache a build starts from: `from.start` (dev's memory, a test's) or a new one, filled from `file` for the
   * tool `tool` the first time; a new empty one when `from.fresh` (--force reads every file). */
  static open(file: string, tool: string, from: { fresh: boolean; start?: ContentCache }): ContentCache {
    return from.fresh ? new ContentCache() : (from.start ?? new ContentCache()).load(file, tool);
  }

  /** Fills the cache with what a build kept in `file` for the tool `tool` (its fingerprint), the first time it is
   * asked: nothing when there is none, or it is another tool's or unreadable (then every file is read). */
  load(file: string, tool: string): this {
    if (this.loaded) return this;
    this.loaded = true;
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      return this;
    }
    try {
      const json = JSON.parse(text) as { format?: unknown; tool?: unknown; files?: unknown };
      if (json.format !== FORMAT || json.tool !== tool || !Array.isArray(json.files)) return this;
      for (const line of json.files as unknown[]) {
        if (!isLine(line)) throw new Error("not a line of this cache");
        const [absPath, size, mtimeMs, dev, ino, ctimeMs, sha1, image] = line;
        const hash = Buffer.from(sha1, "base64url");
        this.files.set(absPath, {
          size,
          mtimeMs,
          dev,
          ino,
          ctimeMs,
          facts: image === undefined ? { hash } : { hash, image },
        });
      }
      this.stored = true;
    } catch {
      this.files.clear();
    }
    return this;
  }

  /** Writes the cache to `file` (beside it, then renamed over it), unless the file holds it as it is. */
  save(file: string, tool: string): void {
    if (!this.changed && this.stored) return;
    const lines: string[] = [];
    for (const [absPath, e] of this.files) {
      const line: Line = [absPath, e.size, e.mtimeMs, e.dev, e.ino, e.ctimeMs, e.facts.hash.toString("base64url")];
      if (e.facts.image !== undefined) line.push(e.facts.image);
      lines.push(JSON.stringify(line));
    }
    // Written beside it and renamed over it. The temporary is created anew, never opened as it is: one left there (by
    // a killed build, or anyone) is removed first, so that nothing it may link to is written through.
    const tmp = `${file}.new`;
    rmSync(tmp, { force: true });
    try {
      writeFileSync(tmp, `{"format":${FORMAT},"tool":${JSON.stringify(tool)},"files":[\n${lines.join(",\n")}\n]}\n`, {
        flag: "wx",
      });
      renameSync(tmp, file);
    } catch (error) {
      rmSync(tmp, { force: true });
      throw error;
    }
    this.changed = false;
    this.stored = true;
  }
}

const isCount = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x) && x >= 0;
const isPixels = (x: unknown): boolean => x === null || isCount(x);

/** A line as save() writes it: a damaged or edited cache is not trusted in any part (load() starts empty). */
function isLine(x: unknown): x is Line {
  if (!Array.isArray(x) || (x.length !== 7 && x.length !== 8)) return false;
  const [absPath, size, mtimeMs, dev, ino, ctimeMs, sha1, image] = x as unknown[];
  if (typeof absPath !== "string" || ![size, mtimeMs, dev, ino, ctimeMs].every(isCount)) return false;
  if (typeof sha1 !== "string" || !/^[A-Za-z0-9_-]{27}$/.test(sha1)) return false;
  if (image === undefined) return x.length === 7;
  if (typeof image !== "object" || image === null) return false;
  const { type, width, height, active } = image as Record<string, unknown>;
  return (
    (type === null || typeof type === "string") &&
    isPixels(width) &&
    isPixels(height) &&
    (active === undefined || (Array.isArray(active) && active.every((a) => typeof a === "string")))
  );
}
