// src/content/read-content.ts
// EDGE: reads a content directory from disk into RawContent (texts, file sizes and times); decides nothing.

import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import fg from "fast-glob";

/** The content directory contract: these names are relied on by tests and tools outside the project. */
export const CONTENT_FILES = {
  manifest: "manifest.json",
  config: "config.json",
  extensionMap: "extensionMap.json",
  icons: "icons.json",
  configReference: "config-reference.txt",
} as const;
export type JsonContentName = "manifest" | "config" | "extensionMap" | "icons";
export const JSON_CONTENT: readonly JsonContentName[] = ["manifest", "config", "extensionMap", "icons"];

/** Files published byte for byte besides the three JSON files: folders copied whole. */
export const PUBLISHED_DIRS = ["icons", "style", "favicon"] as const;
/** Top-level files published byte for byte (when present). */
export const PUBLISHED_FILES = [CONTENT_FILES.config, CONTENT_FILES.extensionMap, CONTENT_FILES.icons, CONTENT_FILES.configReference];

export interface RawFile {
  /** Path relative to the content directory, '/'-separated. */
  path: string;
  absPath: string;
  size: number;
  mtimeMs: number;
}

export interface RawText {
  file: RawFile;
  text: string;
}

export interface RawContent {
  dir: string;
  /** The JSON content files that exist, with their text. */
  json: Partial<Record<JsonContentName, RawText>>;
  configReference: RawText | null;
  iconsDirExists: boolean;
  /** Regular files directly in icons/. */
  iconDirFiles: RawFile[];
  /** Every file to publish byte for byte, sorted by path. */
  published: RawFile[];
}

async function statFile(dir: string, rel: string): Promise<RawFile | null> {
  const absPath = path.join(dir, rel);
  try {
    const s = await stat(absPath);
    if (!s.isFile()) return null;
    return { path: rel, absPath, size: s.size, mtimeMs: s.mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

async function readText(dir: string, rel: string): Promise<RawText | null> {
  const file = await statFile(dir, rel);
  if (file === null) return null;
  return { file, text: await readFile(file.absPath, "utf8") };
}

export async function readContent(dir: string): Promise<RawContent> {
  const json: Partial<Record<JsonContentName, RawText>> = {};
  await Promise.all(JSON_CONTENT.map(async (name) => {
    const raw = await readText(dir, CONTENT_FILES[name]);
    if (raw !== null) json[name] = raw;
  }));
  const configReference = await readText(dir, CONTENT_FILES.configReference);

  const entries = await fg(PUBLISHED_DIRS.map((d) => `${d}/**`), {
    cwd: dir, onlyFiles: true, dot: false, followSymbolicLinks: false, stats: true,
  });
  const dirFiles: RawFile[] = entries
    .filter((e) => e.stats!.isFile())
    .map((e) => ({ path: e.path, absPath: path.join(dir, e.path), size: e.stats!.size, mtimeMs: e.stats!.mtimeMs }));
  const iconDirFiles = dirFiles.filter((f) => /^icons\/[^/]+$/.test(f.path));
  const iconsDir = await stat(path.join(dir, "icons")).catch(() => null);

  const topFiles = [json.config?.file, json.extensionMap?.file, json.icons?.file, configReference?.file]
    .filter((f): f is RawFile => f !== undefined);
  const published = [...topFiles, ...dirFiles].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  return { dir, json, configReference, iconsDirExists: iconsDir?.isDirectory() ?? false, iconDirFiles, published };
}
