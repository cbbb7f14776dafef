// src/pipeline/up-to-date.ts
// I/O: whether --out already holds the build of exactly these inputs, so that a rebuild with nothing changed can stop
// early: the key of the inputs (src/content/inputs-key.ts) stored in the build's records (src/layout), and a check
// that every folder the build wrote is still intact; and the tool's own fingerprint, which that key holds.

import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { RawContent } from "../content/read-content.js";
import { isAnswerPath, type LinkTree } from "../layout/link-trees.js";
import { treeHolds } from "../output/plan/tree-links.js";
import { lastBuild } from "../layout/last-build.js";
import type { BuildStamp } from "../layout/stamp.js";
import { MANIFEST_HEADER, type Layout } from "../layout/paths.js";

let toolHash: string | undefined;

/** The tool's fingerprint as the package build wrote it (scripts/build-fingerprint.mjs): lib/tool-fingerprint.txt.
 * The path holds from lib/pipeline/ and from the command's bundle in lib/cli-bundle/. */
const FINGERPRINT_FILE = new URL("../tool-fingerprint.txt", import.meta.url);

/**
 * A hash of the tool's own code: a changed tool rebuilds everything. The package build hashes lib/ once and writes
 * it down (reading and hashing lib/ would cost every build more than the rest of a no-op); without that file (the
 * sources, in tests)
 * the folder this module was loaded from is hashed here.
 */
export function toolFingerprint(): string {
  if (toolHash !== undefined) return toolHash;
  try {
    return (toolHash = readFileSync(FINGERPRINT_FILE, "utf8").trim());
  } catch {
    return (toolHash = hashTree(path.dirname(path.dirname(fileURLToPath(import.meta.url)))));
  }
}

/** The hash of a folder's code (.js, .cjs, .ts, .json files: paths and bytes, in path order). Synchronous: a few
 * hundred small files, read faster in a row than through the thread pool. */
export function hashTree(root: string): string {
  const hash = createHash("sha1");
  const files = readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(c?js|ts|json)$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
  for (const file of files) hash.update(path.relative(root, file)).update("\0").update(readFileSync(file)).update("\0");
  return hash.digest("base64url");
}

/**
 * Whether `dir` still holds every file its manifest lists, as written (generated files by size; copies of the
 * content by size and modification time). False for an empty or unreadable manifest. `also` is asked of each file
 * listed too, in the same pass (the hosts' links to it).
 */
export function intact(
  dir: string,
  manifest: string,
  raw: RawContent | null,
  sourceDateEpoch?: number,
  also?: (file: string, size: number) => boolean,
): boolean {
  if (!manifest.startsWith(`${MANIFEST_HEADER}\n`)) return false;
  // The writer gives copies their source's modification time in whole milliseconds, clamped to SOURCE_DATE_EPOCH.
  const limit = sourceDateEpoch === undefined ? Infinity : sourceDateEpoch * 1000;
  const copies = new Map(raw?.published.map((f) => [f.path, f]));
  const same = (file: string, size: number): boolean => {
    const s = statSync(`${dir}/${file}`, { throwIfNoEntry: false });
    if (s === undefined || !s.isFile() || s.size !== size) return false;
    const copy = copies.get(file);
    if (copy === undefined) return true;
    copies.delete(file);
    return s.size === copy.size && Math.round(s.mtimeMs) === Math.min(Math.floor(copy.mtimeMs), limit);
  };
  const check =
    also === undefined ? same : (file: string, size: number): boolean => same(file, size) && also(file, size);
  // Line by line, one synchronous stat each: on a large site a Map of the lines or a promise per stat
  // cost more than the stats.
  let lines = 0;
  for (let at = manifest.indexOf("\n") + 1; at < manifest.length;) {
    const end = manifest.indexOf("\n", at);
    const line = manifest.slice(at, end === -1 ? manifest.length : end);
    at = end === -1 ? manifest.length : end + 1;
    if (line.startsWith("mtimes ")) continue;
    const first = line.indexOf(" ");
    const second = line.indexOf(" ", first + 1);
    if (first <= 0 || second <= first) continue;
    if (!check(line.slice(second + 1), Number(line.slice(first + 1, second)))) return false;
    lines++;
  }
  if (lines === 0) return false;
  // Published files the manifest does not list are checked by themselves.
  for (const f of copies.values()) if (!same(f.path, f.size)) return false;
  return true;
}

/** Whether the records hold the hosts' copies (src/layout/link-trees.ts) of a file of --out whole, by size. */
function linksWhole(records: string, trees: readonly LinkTree[]): (file: string, size: number) => boolean {
  return (file, size) => {
    const answer = isAnswerPath(file);
    for (const tree of trees) {
      if (!treeHolds(tree, answer, file)) continue;
      const s = statSync(`${records}/${tree.prefix}${file}`, { throwIfNoEntry: false });
      if (s === undefined || !s.isFile() || s.size !== size) return false;
    }
    return true;
  };
}

/**
 * The previous build's stamp when --out, its records and every folder it wrote beside --out hold the build of
 * exactly this key, whole; null otherwise.
 */
export function upToDate(layout: Layout, key: string, raw: RawContent, sourceDateEpoch?: number): BuildStamp | null {
  const last = lastBuild(layout);
  const { stamp } = last;
  if (stamp === null || stamp.key !== key || stamp.out !== path.basename(layout.out)) return null;
  if (!last.describesSite || last.unfinished) return null; // an update was stopped midway: it is finished
  const trees = last.linkTrees();
  if (trees === null) return null;
  const links = trees.length === 0 ? undefined : linksWhole(layout.records, trees);
  if (!intact(layout.out, last.siteManifest(), raw, sourceDateEpoch, links)) return null;
  if (!intact(layout.records, last.folderManifest(layout.records), null)) return null;
  for (const dir of stamp.beside) {
    const folder = layout.beside(dir);
    // The records' manifest of the folder is its own: they name its identity.
    if (!last.describesBeside(dir) || !intact(folder, last.folderManifest(folder), null)) return null;
  }
  return stamp;
}
