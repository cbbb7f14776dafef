// src/model/build-model.ts
// RawContent → SiteModel: parse, check the shapes the answers rely on, resolve defaults. Pure: no IO, no clock.

import { CONTENT_FILES, JSON_CONTENT, type JsonContentName, type RawContent } from "../content/read-content.js";
import { parseJson, pointerToken, type ParsedJson } from "../content/parse-json.js";
import type { Diagnostic } from "../errors.js";
import type { Json, JsonObject } from "./json.js";
import type { BuildClock } from "./time.js";
import type { FileInfo, SiteModel } from "./types.js";

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

const isObject = (v: Json | undefined): v is JsonObject => v instanceof Map;
const typeName = (v: Json | undefined): string =>
  v === undefined ? "missing" : v === null ? "null" : Array.isArray(v) ? "array" : v instanceof Map ? "object" : typeof v;

/** Collects problems with their location in one parsed file. */
class Checker {
  constructor(private readonly parsed: ParsedJson, private readonly out: Diagnostic[]) {}

  problem(pointer: string, code: string, message: string, hint?: string): void {
    const pos = this.parsed.positionOf(pointer);
    this.out.push({ severity: "error", code, file: this.parsed.file, pointer, ...(pos ?? {}), message, ...(hint ? { hint } : {}) });
  }

  object(value: Json | undefined, pointer: string): JsonObject | null {
    if (isObject(value)) return value;
    this.problem(pointer, "SCHEMA", `must be an object (got ${typeName(value)}).`);
    return null;
  }

  string(value: Json | undefined, pointer: string): string | null {
    if (typeof value === "string") return value;
    this.problem(pointer, "SCHEMA", `must be a string (got ${typeName(value)}).`);
    return null;
  }

  /** An object whose values must all be strings. */
  stringMap(value: Json | undefined, pointer: string): Map<string, string> | null {
    const object = this.object(value, pointer);
    if (object === null) return null;
    const out = new Map<string, string>();
    for (const [key, item] of object) {
      const s = this.string(item, `${pointer}/${pointerToken(key)}`);
      if (s !== null) out.set(key, s);
    }
    return out;
  }
}

export function buildModel(raw: RawContent, options: ModelOptions): ModelResult {
  const diagnostics: Diagnostic[] = [];
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
    const result = parseJson(file, text.text);
    parsed[name] = result;
    diagnostics.push(...result.diagnostics);
  }
  if (!raw.iconsDirExists) {
    diagnostics.push({ severity: "error", code: "FILE_MISSING", file: `${raw.dir}/icons`, message: "The icons/ folder is missing." });
  }
  const { manifest, config, extensionMap, icons } = parsed;
  if (manifest === undefined || config === undefined || extensionMap === undefined || icons === undefined
    || diagnostics.some((d) => d.severity === "error")) {
    return { model: null, diagnostics, parsed };
  }

  const mtime = (name: JsonContentName): number => options.clock.mtime(raw.json[name]!.file.mtimeMs);

  // manifest.json
  const m = new Checker(manifest, diagnostics);
  const mRoot = m.object(manifest.value, "");
  const baseUrl = options.baseUrl ?? (mRoot ? m.string(mRoot.get("base_url"), "/base_url") : null);
  const service = mRoot ? m.string(mRoot.get("service"), "/service") : null;
  const serviceVersion = mRoot ? m.string(mRoot.get("service_version"), "/service_version") : null;
  const description = mRoot ? m.string(mRoot.get("description"), "/description") : null;
  const versions: string[] = [];
  const versionList = mRoot?.get("versions");
  if (mRoot && !Array.isArray(versionList)) m.problem("/versions", "SCHEMA", `must be an array of strings (got ${typeName(versionList)}).`);
  if (Array.isArray(versionList)) {
    versionList.forEach((v, i) => {
      const s = m.string(v, `/versions/${i}`);
      if (s !== null && !versions.includes(s)) versions.push(s);
    });
  }
  if (baseUrl !== null && !/^https:\/\/[^/\s?#]+(\/[^\s?#]*[^/\s?#])?$/.test(baseUrl)) {
    const where = options.baseUrl !== undefined ? "--base-url" : "manifest.json";
    diagnostics.push({
      severity: "error", code: "BASE_URL", file: options.baseUrl !== undefined ? "--base-url" : manifest.file,
      ...(options.baseUrl === undefined ? { pointer: "/base_url", ...(manifest.positionOf("/base_url") ?? {}) } : {}),
      message: `base_url must be an https:// URL without a trailing slash, query or fragment (got "${baseUrl}" from ${where}).`,
    });
  }

  // config.json
  const c = new Checker(config, diagnostics);
  const cRoot = c.object(config.value, "");
  const configVersion = cRoot ? c.string(cRoot.get("version"), "/version") : null;

  // extensionMap.json
  const e = new Checker(extensionMap, diagnostics);
  const eRoot = e.object(extensionMap.value, "");
  const indexing = eRoot ? e.stringMap(eRoot.get("indexing"), "/indexing") : null;
  const viewing = eRoot ? e.stringMap(eRoot.get("viewing"), "/viewing") : null;

  // icons.json
  const i = new Checker(icons, diagnostics);
  const iconEntries = i.stringMap(icons.value, "");

  if (diagnostics.some((d) => d.severity === "error")) return { model: null, diagnostics, parsed };

  const iconDirFiles = new Map<string, FileInfo>();
  for (const f of raw.iconDirFiles) {
    iconDirFiles.set(f.path.slice("icons/".length), { size: f.size, lastModified: options.clock.mtime(f.mtimeMs) });
  }
  const model: SiteModel = {
    baseUrl: baseUrl!,
    service: service!,
    serviceVersion: serviceVersion!,
    description: description!,
    versions,
    buildTime: options.clock.now,
    config: { json: cRoot!, version: configVersion!, lastModified: mtime("config") },
    extensionMap: {
      indexingJson: eRoot!.get("indexing") as JsonObject,
      viewingJson: eRoot!.get("viewing") as JsonObject,
      indexing: indexing!,
      viewing: viewing!,
      lastModified: mtime("extensionMap"),
    },
    iconMap: { json: icons.value as JsonObject, entries: iconEntries!, lastModified: mtime("icons") },
    iconDirFiles,
    configReference: raw.configReference === null ? null : {
      text: raw.configReference.text,
      lastModified: options.clock.mtime(raw.configReference.file.mtimeMs),
    },
  };
  return { model, diagnostics, parsed };
}
