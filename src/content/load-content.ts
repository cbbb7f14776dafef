// src/content/load-content.ts
// RawContent → SiteModel: parse, validate (schemas, then cross-file checks), resolve defaults. No IO, no clock of its
// own. It lives in src/content (with the reader and validators it uses); src/model below it imports nothing from here.

import { CONTENT_FILES, JSON_CONTENT, type JsonContentName, type RawContent } from "./read-content.js";
import { crossCheck } from "./cross-checks.js";
import { parseJson, type ParsedJson } from "./parse-json.js";
import { validateContent } from "./validate.js";
import type { Diagnostic } from "../errors.js";
import type { JsonObject } from "../model/json.js";
import type { BuildClock } from "../model/time.js";
import { extensionMapOf, iconMapOf, type FileInfo, type SiteModel } from "../model/types.js";

export interface ModelOptions {
  clock: BuildClock;
  /** Overrides manifest.base_url (the --base-url flag). */
  baseUrl?: string;
}

export interface ModelResult {
  /** null when there were errors. */
  model: SiteModel | null;
  diagnostics: Diagnostic[];
  /** The parsed JSON files, for further checks (schemas, cross-file). */
  parsed: Partial<Record<JsonContentName, ParsedJson>>;
}

export function buildModel(raw: RawContent, options: ModelOptions): ModelResult {
  const diagnostics: Diagnostic[] = [...raw.diagnostics];
  const parsed: Partial<Record<JsonContentName, ParsedJson>> = {};
  for (const name of JSON_CONTENT) {
    const file = `${raw.dir}/${CONTENT_FILES[name]}`;
    const text = raw.json[name];
    if (text === undefined) {
      diagnostics.push({
        severity: "error", code: "FILE_MISSING", file,
        message: `${CONTENT_FILES[name]} is missing: every content directory needs it.`,
      });
      continue;
    }
    const result = parseJson(file, text.text, text.invalidUtf8At === undefined ? {} : { invalidUtf8At: text.invalidUtf8At });
    parsed[name] = result;
    diagnostics.push(...result.diagnostics);
  }
  if (!raw.iconsDirExists) {
    diagnostics.push({ severity: "error", code: "FILE_MISSING", file: `${raw.dir}/icons`, message: "The icons/ folder is missing." });
  }
  // Schemas: every file that parsed is validated, so all errors of all files are reported at once.
  const valid: Partial<Record<JsonContentName, ParsedJson>> = {};
  for (const name of JSON_CONTENT) {
    const p = parsed[name];
    if (p === undefined || p.value === null && p.diagnostics.some((d) => d.severity === "error")) continue; // unparsed: its error is reported
    // --base-url replaces manifest.base_url, so the manifest's own value is not held against it.
    const skip = (pointer: string): boolean => name === "manifest" && options.baseUrl !== undefined && pointer === "/base_url";
    const problems = validateContent(name, p, skip);
    diagnostics.push(...problems);
    if (problems.length === 0) valid[name] = p;
  }
  diagnostics.push(...crossCheck({ raw, valid, ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}) }));
  const { manifest, config, extensionMap, icons } = valid;
  if (manifest === undefined || config === undefined || extensionMap === undefined || icons === undefined
    || diagnostics.some((d) => d.severity === "error")) {
    return { model: null, diagnostics: sortDiagnostics(diagnostics), parsed };
  }

  // Everything below relies on the schemas: the shapes are known.
  const mtime = (name: JsonContentName): number => options.clock.mtime(raw.json[name]!.file.mtimeMs);
  const mRoot = manifest.value as JsonObject;
  const cRoot = config.value as JsonObject;
  const eRoot = extensionMap.value as JsonObject;
  const baseUrl = options.baseUrl ?? (mRoot.get("base_url") as string);
  const versions = [...new Set(mRoot.get("versions") as string[])];

  const iconDirFiles = new Map<string, FileInfo>();
  for (const f of raw.iconDirFiles) {
    iconDirFiles.set(f.path.slice("icons/".length), { size: f.size, lastModified: options.clock.mtime(f.mtimeMs) });
  }
  const model: SiteModel = {
    baseUrl,
    service: mRoot.get("service") as string,
    serviceVersion: mRoot.get("service_version") as string,
    description: mRoot.get("description") as string,
    versions,
    buildTime: options.clock.now,
    config: { json: cRoot, version: cRoot.get("version") as string, lastModified: mtime("config") },
    extensionMap: extensionMapOf(eRoot.get("indexing") as JsonObject, eRoot.get("viewing") as JsonObject, mtime("extensionMap")),
    iconMap: iconMapOf(icons.value as JsonObject, mtime("icons")),
    iconDirFiles,
    configReference: raw.configReference === null ? null : {
      text: raw.configReference.text,
      lastModified: options.clock.mtime(raw.configReference.file.mtimeMs),
    },
  };
  return { model, diagnostics: sortDiagnostics(diagnostics), parsed };
}

/** Diagnostics in a stable order: by file, then position (file-level ones first), keeping discovery order otherwise. */
export function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return list
    .map((d, i) => ({ d, i }))
    .sort((a, b) => (a.d.file < b.d.file ? -1 : a.d.file > b.d.file ? 1 : 0)
      || (a.d.line ?? 0) - (b.d.line ?? 0) || (a.d.column ?? 0) - (b.d.column ?? 0) || a.i - b.i)
    .map(({ d }) => d);
}
