// src/content/read-content.ts
// I/O: reads a content directory from disk into RawContent (texts, file sizes and times, the facts of each file's bytes
// through the content cache: content-cache.ts); decides nothing about the content itself, but refuses to read anything
// outside the directory (symlinks) and skips what is not a regular file.

import { readFileSync } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import { fromOsError, UsageError } from "../errors.js";
import type { ContentCache } from "./content-cache.js";
import type { ContentListings } from "./content-listings.js";
import { DEFAULT_EXCLUDE } from "./exclude.js";
import { factsOf, IMAGE_NAME } from "./file-facts.js";
import { Reader } from "./folder-reader.js";
import {
  CONTENT_FILES,
  iconDirName,
  JSON_CONTENT,
  PUBLISHED_DIRS,
  ROOT_PAGE,
  type JsonContentName,
  type RawContent,
  type RawFile,
  type RawText,
} from "./raw-content.js";

export * from "./raw-content.js";
export { ignorePattern } from "./folder-reader.js";
export { ContentListings } from "./content-listings.js";

const byPath = (a: { path: string }, b: { path: string }): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/**
 * The facts of every published file (file-facts.ts): kept by the cache for the same version of the file, or read
 * from its bytes. The bytes of an image directly in icons/ stay with the file (the writer copies them); the others
 * are dropped once hashed. One file at a time, synchronously: for many small icons, a promise, a file handle and
 * four trips through libuv's pool per icon cost more time and memory than the reads themselves when the files are
 * cached (and never more open files than one).
 */
function readFacts(raw: RawContent, cache: ContentCache | undefined, readAt: number): void {
  let hits = 0;
  for (const f of raw.published) {
    if (f.data !== undefined) {
      f.facts = factsOf(f.data, false, f.path); // a text the build read whole
      continue;
    }
    const kept = cache?.get(f);
    if (kept !== undefined) {
      f.facts = kept;
      hits++;
      continue;
    }
    const image = iconDirName(f.path) !== null && IMAGE_NAME.test(f.path);
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(f.absPath);
    } catch (error) {
      throw fromOsError(error, undefined, "read");
    }
    f.facts = factsOf(bytes, image, f.path);
    if (image) f.data = bytes;
    cache?.set(f, f.facts, readAt);
  }
  // Every file it knows was found (as many hits as it holds: each hit is one of them): it keeps what it has.
  if (cache !== undefined && hits !== cache.size) cache.retain(new Set(raw.published.map((f) => f.absPath)));
}

export { DEFAULT_EXCLUDE };

export interface ReadOptions {
  /** Glob patterns (fast-glob) of files in the published folders that the build skips; default DEFAULT_EXCLUDE. */
  exclude?: readonly string[];
  /** The facts of the content's files kept from the last build (content-cache.ts): only the files not known are read. */
  cache?: ContentCache;
  /** `dev`: the published folders' files as its last build found them, while its watcher saw no change in them. */
  listings?: ContentListings;
}

/**
 * Reads a content folder: its texts, its files' sizes and times, and the bytes of the images in icons/. The files
 * directly in the content folder are read by name; `exclude` applies to the published folders (icons/, style/, favicon/).
 */
export async function readContent(dir: string, options: ReadOptions = {}): Promise<RawContent> {
  let real: string;
  try {
    real = await realpath(dir);
    if (!(await stat(real)).isDirectory()) throw new Error("not a folder");
  } catch {
    throw new UsageError(
      `--content ${dir} is not a folder.`,
      "Pass the folder that holds manifest.json, config.json, extensionMap.json, icons.json and icons/.",
    );
  }
  const readAt = Date.now();
  const reader = new Reader(dir, real, options.exclude ?? DEFAULT_EXCLUDE);

  const json: Partial<Record<JsonContentName, RawText>> = {};
  await Promise.all(
    JSON_CONTENT.map(async (name) => {
      const raw = await reader.text(CONTENT_FILES[name]);
      if (raw !== null) json[name] = raw;
    }),
  );
  const configReference = await reader.text(CONTENT_FILES.configReference);
  // A root page of the content's own: published, in place of the catalogue (src/catalogue says so).
  const rootPage = await reader.text(ROOT_PAGE);

  const dirFiles: RawFile[] = [];
  const seen = new Set<string>();
  let iconsDirExists = false;
  const { listings } = options;
  for (const d of PUBLISHED_DIRS) {
    const kept = listings?.get(real, d);
    if (kept !== undefined) {
      for (const f of kept.files) dirFiles.push({ ...f });
      if (kept.exists) seen.add(path.join(real, d)); // as its walk did: a link to it elsewhere is not walked again
      if (d === "icons") iconsDirExists = kept.exists;
      continue;
    }
    const mark = listings?.mark(d);
    const before = { files: dirFiles.length, diagnostics: reader.diagnostics.length, links: reader.links };
    const exists = await reader.tree(d, dirFiles, seen);
    if (d === "icons") iconsDirExists = exists;
    if (mark !== undefined && reader.diagnostics.length === before.diagnostics && reader.links === before.links) {
      listings!.set(real, d, mark, exists, dirFiles.slice(before.files));
    }
  }
  dirFiles.sort(byPath);
  const iconDirFiles = dirFiles.filter((f) => iconDirName(f.path) !== null);
  const topFiles = [
    json.config?.file,
    json.extensionMap?.file,
    json.icons?.file,
    configReference?.file,
    rootPage?.file,
  ].filter((f): f is RawFile => f !== undefined);
  const published = [...topFiles, ...dirFiles].sort(byPath);

  const raw: RawContent = {
    dir,
    json,
    configReference,
    iconsDirExists,
    iconDirFiles,
    published,
    diagnostics: reader.diagnostics,
  };
  readFacts(raw, options.cache, readAt);
  return raw;
}
