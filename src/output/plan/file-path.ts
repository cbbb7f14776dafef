// src/output/plan/file-path.ts
// Where a planned file lies on disk: `path.join(dir, rel)`, made by concatenation wherever that gives the same text.
// A large build joins millions of paths (each file written, and each hard link's target and place), and path.join
// normalises the whole string every time.

import path from "node:path";
import { insideFolder } from "../../model/relative-path.js";

/** Each folder asked for, normalised with one separator at the end ("" when it is not absolute). A build asks for a
 * few (--out, its records, the folders beside it, the output it replaces), alternately: a link's target and place. */
const bases = new Map<string, string>();
const MAX_BASES = 64;

/**
 * `path.join(dir, rel)`, the same text. For an absolute `dir` and a `rel` of plain names (insideFolder: none empty,
 * "." or ".."), which is what a plan's paths are, it is `dir` normalised once plus `rel`; anything else, and any
 * platform whose separator is not "/", goes through path.join.
 */
export function filePath(dir: string, rel: string): string {
  let base = bases.get(dir);
  if (base === undefined) {
    base = path.sep === "/" && path.isAbsolute(dir) ? path.join(dir, "/") : "";
    if (bases.size >= MAX_BASES) bases.clear();
    bases.set(dir, base);
  }
  return base !== "" && insideFolder(rel) ? base + rel : path.join(dir, rel);
}
