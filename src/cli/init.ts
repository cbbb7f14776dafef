// src/cli/init.ts
// `build-index-site init [dir]`: writes the starter content into a new (or empty) folder, and a netlify.toml in the
// current folder when there is none. Never overwrites anything.

import { lstat, mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { UsageError } from "../errors.js";
import { netlifyToml, starterContent } from "../init/templates.js";

export interface InitResult {
  dir: string;
  /** The files written, relative to `dir`. */
  files: string[];
  /** netlify.toml was written (false: one was already there and was left alone). */
  netlify: boolean;
}

async function isEmptyOrMissing(dir: string): Promise<boolean> {
  const stats = await lstat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  if (stats === null) return true;
  if (!stats.isDirectory()) {
    throw new UsageError(`${dir} exists and is not a folder: init writes a new content folder.`, "Name a new folder: build-index-site init <dir>.");
  }
  return (await readdir(dir)).length === 0;
}

export async function init(dir: string, cwd: string = process.cwd()): Promise<InitResult> {
  const target = path.resolve(cwd, dir);
  if (!(await isEmptyOrMissing(target))) {
    throw new UsageError(`${dir} is not empty: init only writes into a new or empty folder, and nothing was changed.`,
      "Name a new folder (build-index-site init <dir>), or build the content that is there: build-index-site --content " + dir);
  }
  const files: string[] = [];
  const schemas = path.relative(target, path.join(cwd, "node_modules/build-index-site/schemas")).split(path.sep).join("/");
  for (const [rel, data] of starterContent(schemas)) {
    const file = path.join(target, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, data, { flag: "wx" });
    files.push(rel);
  }
  let netlify = false;
  try {
    await writeFile(path.join(cwd, "netlify.toml"), netlifyToml(dir), { flag: "wx" });
    netlify = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return { dir, files, netlify };
}
