// src/output/up-to-date.ts
// Whether --out already holds the build of exactly these inputs, so that a rebuild with nothing changed can stop
// early: a key over the content (every file's bytes hashed: times can be normalised, e.g. to 1 in Nix, and then a
// same-size edit would look unchanged), the options and the tool's own code,
// stored in the build's records (src/layout), and a check that every folder the build wrote is still intact.

import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { RawContent } from "../content/read-content.js";
import { isAnswerPath, treeHolds, type LinkTree } from "../layout/link-trees.js";
import type { Layout } from "../layout/paths.js";
import { besideStamp, lastBuild } from "../layout/read-build.js";
import type { BuildStamp } from "../layout/stamp.js";
import { MARKER_HEADER } from "./out-folder.js";

export { BESIDE_STAMP_FILE } from "../layout/paths.js";
const HEADER = "build-index-site inputs 1";

export interface KeySettings {
  baseUrl: string | undefined;
  /** true with --base-url request (absent otherwise, so that other builds keep their key). */
  requestOrigin?: true;
  sourceDateEpoch: string | undefined;
  strict: boolean;
  hosts: readonly string[];
  plan: string;
  /** false with --no-catalogue (absent otherwise, so that default builds keep their key). */
  catalogue?: false;
}

let toolHash: string | undefined;

/** The tool's fingerprint as the package build wrote it (scripts/build-fingerprint.mjs): lib/tool-fingerprint.txt.
 * The path holds from lib/output/ and from the command's bundle in lib/cli-bundle/. */
const FINGERPRINT_FILE = new URL("../tool-fingerprint.txt", import.meta.url);

/**
 * A hash of the tool's own code: a changed tool rebuilds everything. The package build hashes lib/ once and writes
 * it down (reading and hashing lib/, 2.8 MB, took 30 ms of every build); without that file (the sources, in tests)
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
 * The key of a build's inputs. Modification times are clamped like the build clamps them under SOURCE_DATE_EPOCH,
 * and paths are relative, so the key (and so the output) stays reproducible.
 */
export async function inputsKey(raw: RawContent, settings: KeySettings): Promise<string> {
  const hash = createHash("sha1").update(`${HEADER}\n${toolFingerprint()}\n${JSON.stringify(settings)}\n`);
  const limit = settings.sourceDateEpoch ? Number(settings.sourceDateEpoch) * 1000 : Infinity;
  for (const [name, text] of Object.entries(raw.json).sort(([a], [b]) => (a < b ? -1 : 1))) {
    hash.update(`${name} ${Math.min(text.file.mtimeMs, limit)} `).update(text.text).update("\0");
  }
  if (raw.configReference) hash.update(`reference ${Math.min(raw.configReference.file.mtimeMs, limit)} `).update(raw.configReference.text).update("\0");
  // Published files by their bytes' hash (and their time, which the copy keeps). The JSON texts above are among them.
  for (const f of raw.published) {
    if (f.facts === undefined) throw new Error(`Internal: ${f.path} was not read (readContent gives every published file its facts).`);
    hash.update(`${f.path}\0${f.size}\0${Math.min(f.mtimeMs, limit)}\0`).update(f.facts.hash).update("\n");
  }
  return hash.digest("base64url");
}

/**
 * Whether `dir` still holds every file its manifest lists, as written (generated files by size; copies of the
 * content by size and modification time). False for an empty or unreadable manifest. `also` is asked of each file
 * listed too, in the same pass (the hosts' links to it).
 */
export function intact(
  dir: string, manifest: string, raw: RawContent | null, sourceDateEpoch?: number, also?: (file: string, size: number) => boolean,
): boolean {
  if (!manifest.startsWith(`${MARKER_HEADER}\n`)) return false;
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
  const check = also === undefined ? same : (file: string, size: number): boolean => same(file, size) && also(file, size);
  // Line by line, one synchronous stat each: a ×100 site has 640,000 lines, and a Map of them or a promise per stat
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
    const beside = besideStamp(folder);
    if (beside === null || beside.key !== key || beside.out !== stamp.out) return null;
    if (!intact(folder, last.folderManifest(folder), null)) return null;
  }
  return stamp;
}
