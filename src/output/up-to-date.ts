// src/output/up-to-date.ts
// Whether --out already holds the build of exactly these inputs, so that a rebuild with nothing changed can stop
// early: a key over the content (every file's bytes hashed: times can be normalised, e.g. to 1 in Nix, and then a
// same-size edit would look unchanged), the options and the tool's own code,
// stored in the output as `.build-inputs`, and a check that the output is still intact.

import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { RawContent } from "../content/read-content.js";
import { fromOsError } from "../errors.js";
import { MARKER_FILE as MANIFEST_FILE, MARKER_HEADER } from "./out-folder.js";

export const INPUTS_FILE = ".build-inputs";
const HEADER = "build-index-site inputs 1";

/** What the previous build recorded besides the key, so an up-to-date run can report it. */
export interface InputsStamp {
  key: string;
  warnings: number;
  answers: number;
  rules: number;
  /** The folders the build wrote beside the output folder (".netlify/v1"), each with this stamp. */
  beside: string[];
}

export interface KeySettings {
  baseUrl: string | undefined;
  sourceDateEpoch: string | undefined;
  strict: boolean;
  hosts: readonly string[];
}

let toolHash: string | undefined;

/**
 * A hash of the tool's own code (the folder this module was loaded from): a changed tool rebuilds everything.
 * Synchronous: a hundred small files, read faster in a row than through the thread pool.
 */
function toolFingerprint(): string {
  if (toolHash !== undefined) return toolHash;
  const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
  const hash = createHash("sha1");
  const files = readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(c?js|ts|json)$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
  for (const file of files) hash.update(path.relative(root, file)).update("\0").update(readFileSync(file)).update("\0");
  return (toolHash = hash.digest("base64url"));
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
  // Published files by their bytes (and their time, which the copy keeps). The JSON texts above are among them.
  for (const f of raw.published) {
    let bytes: Uint8Array;
    try {
      bytes = f.data ?? readFileSync(f.absPath);
    } catch (error) {
      throw fromOsError(error, undefined, "read");
    }
    hash.update(`${f.path}\0${f.size}\0${Math.min(f.mtimeMs, limit)}\0`).update(bytes).update("\n");
  }
  return hash.digest("base64url");
}

export function printStamp(stamp: InputsStamp): string {
  return `${HEADER}\nkey ${stamp.key}\nwarnings ${stamp.warnings}\nanswers ${stamp.answers}\nrules ${stamp.rules}\n`
    + `beside${stamp.beside.map((d) => ` ${d}`).join("")}\n`;
}

function parseStamp(text: string): InputsStamp | null {
  const lines = text.split("\n");
  if (lines[0] !== HEADER) return null;
  const field = (name: string): string | undefined => lines.find((l) => l.startsWith(`${name} `))?.slice(name.length + 1);
  const key = field("key");
  const numbers = ["warnings", "answers", "rules"].map((n) => Number(field(n)));
  const beside = lines.find((l) => l === "beside" || l.startsWith("beside "));
  if (key === undefined || beside === undefined || numbers.some((n) => !Number.isInteger(n))) return null;
  const [warnings, answers, rules] = numbers as [number, number, number];
  return { key, warnings, answers, rules, beside: beside.split(" ").slice(1) };
}

/**
 * The previous build's stamp when `out` holds the build of exactly this key and every file it wrote is still there
 * as written (generated files by size, copies by size and modification time); null otherwise.
 */
export async function upToDate(out: string, key: string, raw: RawContent, sourceDateEpoch?: number): Promise<InputsStamp | null> {
  const stamp = parseStamp(await readFile(path.join(out, INPUTS_FILE), "utf8").catch(() => ""));
  if (stamp === null || stamp.key !== key) return null;
  const text = await readFile(path.join(out, MANIFEST_FILE), "utf8").catch(() => "");
  if (!text.startsWith(`${MARKER_HEADER}\n`)) return null;
  // The writer gives copies their source's modification time in whole milliseconds, clamped to SOURCE_DATE_EPOCH.
  const limit = sourceDateEpoch === undefined ? Infinity : sourceDateEpoch * 1000;
  const copies = new Map(raw.published.map((f) => [f.path, f]));
  const intact = (file: string, size: number): boolean => {
    const s = statSync(`${out}/${file}`, { throwIfNoEntry: false });
    if (s === undefined || !s.isFile() || s.size !== size) return false;
    const copy = copies.get(file);
    if (copy === undefined) return true;
    copies.delete(file);
    return s.size === copy.size && Math.round(s.mtimeMs) === Math.min(Math.floor(copy.mtimeMs), limit);
  };
  // Line by line, one synchronous stat each: a ×100 site has 640,000 lines, and a Map of them or a promise per stat
  // cost more than the stats.
  let lines = 0;
  for (let at = text.indexOf("\n") + 1; at < text.length;) {
    const end = text.indexOf("\n", at);
    const line = text.slice(at, end === -1 ? text.length : end);
    at = end === -1 ? text.length : end + 1;
    if (line.startsWith("mtimes ")) continue;
    const first = line.indexOf(" ");
    const second = line.indexOf(" ", first + 1);
    if (first <= 0 || second <= first) continue;
    if (!intact(line.slice(second + 1), Number(line.slice(first + 1, second)))) return null;
    lines++;
  }
  if (lines === 0) return null;
  // Published files the manifest does not list (an older manifest) are checked by themselves.
  for (const f of copies.values()) if (!intact(f.path, f.size)) return null;
  return stamp;
}
