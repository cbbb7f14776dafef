// test/helpers/base-content.ts
// A minimal valid content folder written from code (known line numbers), and helpers to apply one defect to a copy.

import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll } from "vitest";
import { removeDir, tmpDir } from "./fixtures.js";

/** A 1×1 PNG, a 1×1 GIF and a small SVG: real images that image-size reads. */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);
export const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
export const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16"/></svg>\n';

export const BASE_FILES: Record<string, string | Buffer> = {
  "manifest.json": `{
  "base_url": "https://icons.example.org",
  "service": "Indexer API",
  "service_version": "1.2.0",
  "description": "Test content",
  "versions": ["1.0", "1.1", "1.2.0"]
}
`,
  "config.json": `{
  "version": "1.2.0",
  "main": {
    "cache_type": "sqlite",
    "index_hidden": false
  },
  "exclusions": {
    "index_php": false,
    "index_txt": true
  },
  "viewable_files": {
    "view_php": true,
    "view_txt": true
  }
}
`,
  "extensionMap.json": `{
  "indexing": {
    "php": "index_php",
    "txt": "index_txt"
  },
  "viewing": {
    "php": "view_php",
    "txt": "view_txt"
  }
}
`,
  "icons.json": `{
  "folder": "folder.png",
  "php": "php.png",
  "txt": "text.png",
  "svg": "vector.svg"
}
`,
  "icons/text.png": PNG,
  "icons/folder.png": PNG,
  "icons/php.png": PNG,
  "icons/vector.svg": SVG,
  "style/site.css": "body { margin: 0; }\n",
};

/** Writes the base content into a fresh temporary folder and returns it. */
export async function writeBase(files: Record<string, string | Buffer> = BASE_FILES): Promise<string> {
  const dir = await tmpDir("bis-valid-");
  for (const [rel, data] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), data);
  }
  return dir;
}

/**
 * For one test file: `base()` writes a fresh copy of the base content; `temps` holds every folder to remove after the
 * file's tests (push others into it too).
 */
export function baseContentFolders(): { base: () => Promise<string>; temps: string[] } {
  const temps: string[] = [];
  afterAll(async () => Promise.all(temps.map(removeDir)));
  const base = async (): Promise<string> => {
    const dir = await writeBase();
    temps.push(dir);
    return dir;
  };
  return { base, temps };
}

/** Replaces `from` (which must occur exactly once) by `to` in one content file. */
export async function edit(dir: string, rel: string, from: string, to: string): Promise<void> {
  const file = path.join(dir, rel);
  const text = await readFile(file, "utf8");
  const at = text.indexOf(from);
  if (at === -1 || text.indexOf(from, at + 1) !== -1)
    throw new Error(`test setup: ${JSON.stringify(from)} is not in ${rel} exactly once`);
  await writeFile(file, text.slice(0, at) + to + text.slice(at + from.length));
}
