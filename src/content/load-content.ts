// src/content/load-content.ts
// RawContent → SiteModel: parse, validate (schemas, then cross-file checks), resolve defaults. No IO, no clock of its
// own. It lives in src/content (with the reader and validators it uses); src/model below it imports nothing from here.

import {
  CONTENT_FILES,
  ICONS_DIR,
  iconFileName,
  JSON_CONTENT,
  type JsonContentName,
  type RawContent,
  type RawFile,
  type RawText,
} from "./read-content.js";
import { crossCheck, FileChecks, IconMapChecks } from "./cross-checks.js";
import { parseJson, withoutTree, type ParsedJson } from "./parse-json.js";
import { patchMember } from "./patch-member.js";
import { validateContent } from "./validate.js";
import type { Diagnostic } from "../errors.js";
import type { Json, JsonObject } from "../model/json.js";
import { digest } from "./file-facts.js";
import type { BuildClock } from "../model/time.js";
import { modelChanges, type ModelMaps } from "../model/changed-values.js";
import { extensionMapOf, iconMapOf, type FileInfo, type ModelChanges, type SiteModel } from "../model/types.js";

export interface ModelOptions {
  clock: BuildClock;
  /** Overrides manifest.base_url (the --base-url flag). */
  baseUrl?: string;
  /** The parses kept from earlier builds (dev's, or the records'): a file whose bytes are unchanged is neither parsed
   * nor checked again. */
  parsed?: ParsedFiles;
  /** The last model's parts (`dev` keeps them): a part made of what is unchanged is the same object. */
  parts?: ModelParts;
}

/**
 * The parts of the last model, reused by the next where what they are made of is unchanged: the same parsed value
 * (a kept parse, ParsedFiles) with the same time, or icons/ with the same files, sizes and times. What is made of a
 * part alone is then made once for both models (the whole-site answers, src/php/answers.ts: a large site's icons and
 * extensionMappings answers are large texts that an edit of icons.json leaves as they were).
 */
export class ModelParts {
  private config: SiteModel["config"] | null = null;
  private extensionMap: { from: JsonObject; part: SiteModel["extensionMap"] } | null = null;
  private iconMap: SiteModel["iconMap"] | null = null;
  private iconDirFiles: ReadonlyMap<string, FileInfo> | null = null;
  /** The maps of the last model made of these parts, which the next one says its changes against. */
  private lastMaps: ModelMaps | null = null;
  /** The last check of icons.json against icons/ (src/content/icon-map-checks.ts), made again where an edit reaches. */
  readonly iconMapChecks = new IconMapChecks();
  /** The last check of the content's files (their names and bytes), likewise. */
  readonly fileChecks = new FileChecks();

  /** config.json's part: the last one when made of the same value and time. */
  configOf(json: JsonObject, lastModified: number): SiteModel["config"] {
    const last = this.config;
    if (last !== null && last.json === json && last.lastModified === lastModified) return last;
    return (this.config = { json, version: json.get("version") as string, lastModified });
  }

  /** extensionMap.json's part (of its root object), likewise. */
  extensionMapOf(root: JsonObject, lastModified: number): SiteModel["extensionMap"] {
    const last = this.extensionMap;
    if (last !== null && last.from === root && last.part.lastModified === lastModified) return last.part;
    const part = extensionMapOf(root.get("indexing") as JsonObject, root.get("viewing") as JsonObject, lastModified);
    this.extensionMap = { from: root, part };
    return part;
  }

  /** icons.json's part, likewise. */
  iconMapOf(json: JsonObject, lastModified: number): SiteModel["iconMap"] {
    const last = this.iconMap;
    if (last !== null && last.json === json && last.lastModified === lastModified) return last;
    return (this.iconMap = iconMapOf(json, lastModified));
  }

  /** What changed since the last model made of these parts (none for the first), which `model` now is. */
  changesTo(model: ModelMaps): ModelChanges | undefined {
    const last = this.lastMaps;
    this.lastMaps = { iconMap: model.iconMap, extensionMap: model.extensionMap };
    return last === null ? undefined : modelChanges(last, model);
  }

  /** icons/'s files (`files`, in their order, each with its time as the model gives it): the last map when it lists
   * the same ones alike. */
  iconDirFilesOf(files: readonly RawFile[], lastModified: (file: RawFile) => number): ReadonlyMap<string, FileInfo> {
    const last = this.iconDirFiles;
    if (last !== null && last.size === files.length) {
      let i = 0;
      let same = true;
      for (const [key, info] of last) {
        const f = files[i++]!;
        // The name compared in place (no slice of every path): ICONS_DIR + key.
        if (
          info.size !== f.size ||
          info.lastModified !== lastModified(f) ||
          f.path.length !== ICONS_DIR.length + key.length ||
          !f.path.endsWith(key)
        ) {
          same = false;
          break;
        }
      }
      if (same) return last;
    }
    return (this.iconDirFiles = new Map(
      files.map((f) => [iconFileName(f), { size: f.size, lastModified: lastModified(f) }]),
    ));
  }
}

/** What ParsedFiles keeps of one JSON content file, and what its record (src/content/parse-cache.ts) holds: nothing
 * of where the file is (`--content` may name the folder otherwise next time). */
export interface KeptParse {
  name: JsonContentName;
  /** The sha1 of the file's bytes (base64url): the parse is kept for these bytes only. */
  hash: string;
  value: Json;
  /** Its schema problems, with or without manifest.base_url checked (--base-url replaces it); their `file` is empty. */
  problems?: { skipBaseUrl: boolean; found: Diagnostic[] };
}

/**
 * Each JSON content file's parse and schema problems, kept for its exact bytes: by `dev` between builds, and in the
 * records for the next command (src/content/parse-cache.ts). An edit of icons.json leaves config.json and
 * extensionMap.json (large, and slow to parse and check) as they were. A file whose parse reported anything is
 * not kept. Positions are not kept: a diagnostic that asks for one parses the text again (parse-json.ts: withoutTree).
 */
export class ParsedFiles {
  private files: Map<JsonContentName, Kept> | null = null;
  /** Whether it holds a parse its record does not (then src/content/parse-cache.ts writes it again). */
  changed = false;

  /** `restore`: the parses a record holds, read when first needed (none without it). */
  constructor(private readonly restore?: () => readonly KeptParse[]) {}

  private kept(): Map<JsonContentName, Kept> {
    if (this.files === null) this.files = new Map((this.restore?.() ?? []).map((k) => [k.name, { ...k }]));
    return this.files;
  }

  /** What it keeps, for its record. */
  entries(): KeptParse[] {
    return [...this.kept().values()].map(({ parsed: _parsed, text: _text, patched: _patched, ...k }) => k);
  }

  /** The parse of `text` as `file` (the name its diagnostics give), kept or made now: an edit of one member's string
   * value (one mapping of icons.json, patch-member.ts: patchMember) is made from the parse of the text before it. */
  parse(name: JsonContentName, file: string, text: RawText): ParsedJson {
    const hash = hashOf(text);
    const kept = this.kept().get(name);
    if (kept !== undefined && kept.hash === hash) {
      if (kept.parsed?.file !== file)
        kept.parsed = withoutTree({ file, value: kept.value, positionOf: () => undefined, diagnostics: [] }, text.text);
      kept.text ??= text.text; // a parse the record kept: the next edit is compared with its text
      return kept.parsed;
    }
    // A kept text has its parse beside it (each way of keeping one sets both).
    const patch =
      kept?.text !== undefined && kept.value instanceof Map && text.invalidUtf8At === undefined
        ? patchMember(kept.text, text.text, kept.value)
        : null;
    if (patch !== null) {
      // A parse of the new text finds nothing either: the same keys, and a string in place of a string; and every
      // value where it was (the kept parse's positions, found once when first asked for, serve both).
      const parsed: ParsedJson = { file, value: patch.value, positionOf: kept!.parsed!.positionOf, diagnostics: [] };
      const valid =
        kept!.problems?.found.length === 0
          ? { patched: { key: patch.key, skipBaseUrl: kept!.problems.skipBaseUrl } }
          : {};
      this.files!.set(name, { name, hash, value: patch.value, parsed, text: text.text, ...valid });
      this.changed = true;
      return parsed;
    }
    const parsed = parseJson(
      file,
      text.text,
      text.invalidUtf8At === undefined ? {} : { invalidUtf8At: text.invalidUtf8At },
    );
    if (kept !== undefined || parsed.diagnostics.length === 0) this.changed = true;
    if (parsed.value === null || parsed.diagnostics.length > 0) this.files!.delete(name);
    else
      this.files!.set(name, {
        name,
        hash,
        value: parsed.value,
        parsed: withoutTree(parsed, text.text),
        text: text.text,
      });
    return parsed;
  }

  /** The schema problems of `parsed` (made from `text`), kept or found now by `validate` (`skipBaseUrl`:
   * manifest.base_url is not checked); kept ones name the file as `parsed` does. A parse patched from one without a
   * problem is validated with the member that changed (validate.ts: validateContent). */
  problems(
    name: JsonContentName,
    parsed: ParsedJson,
    text: RawText,
    skipBaseUrl: boolean,
    validate: (changed?: string) => Diagnostic[],
  ): Diagnostic[] {
    const kept = this.kept().get(name);
    if (kept === undefined || kept.hash !== hashOf(text)) return validate();
    if (kept.problems?.skipBaseUrl !== skipBaseUrl) {
      const found = validate(kept.patched?.skipBaseUrl === skipBaseUrl ? kept.patched.key : undefined);
      kept.problems = { skipBaseUrl, found: found.map((d) => ({ ...d, file: "" })) }; // kept without the file's place
      this.changed = true;
      return found;
    }
    return kept.problems.found.map((d) => ({ ...d, file: parsed.file }));
  }
}

/** A parse kept in memory: with its text (what the next text is compared with) and, when it was patched from a parse
 * without a schema problem, the member that changed. */
interface Kept extends KeptParse {
  parsed?: ParsedJson;
  text?: string;
  patched?: { key: string; skipBaseUrl: boolean };
}

/** The sha1 of a text's bytes: its facts' (read-content.ts gives each published file its facts), or made once (parse
 * and problems both ask: manifest.json is not published). */
const hashes = new WeakMap<RawText, string>();
function hashOf(text: RawText): string {
  let hash = hashes.get(text);
  if (hash === undefined)
    hashes.set(text, (hash = (text.file.facts?.hash ?? digest(text.file.data ?? text.text)).toString("base64url")));
  return hash;
}

export interface ModelResult {
  /** null when there were errors. */
  model: SiteModel | null;
  diagnostics: Diagnostic[];
  /** The parsed JSON files, for further checks (schemas, cross-file). */
  parsed: Partial<Record<JsonContentName, ParsedJson>>;
}

type Parsed = Partial<Record<JsonContentName, ParsedJson>>;

/** Every JSON file parsed (or reported missing), and the icons/ folder's absence reported. */
function parseFiles(raw: RawContent, options: ModelOptions, diagnostics: Diagnostic[]): Parsed {
  const parsed: Parsed = {};
  for (const name of JSON_CONTENT) {
    const file = `${raw.dir}/${CONTENT_FILES[name]}`;
    const text = raw.json[name];
    if (text === undefined) {
      diagnostics.push({
        severity: "error",
        code: "FILE_MISSING",
        file,
        message: `${CONTENT_FILES[name]} is missing: every content directory needs it.`,
      });
      continue;
    }
    const result =
      options.parsed?.parse(name, file, text) ??
      parseJson(file, text.text, text.invalidUtf8At === undefined ? {} : { invalidUtf8At: text.invalidUtf8At });
    parsed[name] = result;
    diagnostics.push(...result.diagnostics);
  }
  if (!raw.iconsDirExists) {
    diagnostics.push({
      severity: "error",
      code: "FILE_MISSING",
      file: `${raw.dir}/icons`,
      message: "The icons/ folder is missing.",
    });
  }
  return parsed;
}

/** Schemas: every file that parsed is validated, so all errors of all files are reported at once. */
function validFiles(raw: RawContent, options: ModelOptions, parsed: Parsed, diagnostics: Diagnostic[]): Parsed {
  const valid: Parsed = {};
  for (const name of JSON_CONTENT) {
    const p = parsed[name];
    if (p === undefined || (p.value === null && p.diagnostics.some((d) => d.severity === "error"))) continue; // unparsed: its error is reported
    // --base-url replaces manifest.base_url, so the manifest's own value is not held against it.
    const skip = (pointer: string): boolean =>
      name === "manifest" && options.baseUrl !== undefined && pointer === "/base_url";
    const check = (changed?: string): Diagnostic[] => validateContent(name, p, skip, changed);
    const problems =
      options.parsed?.problems(name, p, raw.json[name]!, name === "manifest" && options.baseUrl !== undefined, check) ??
      check();
    diagnostics.push(...problems);
    if (problems.length === 0) valid[name] = p;
  }
  return valid;
}

/** The model of schema-valid files: the shapes are known. */
function modelOf(raw: RawContent, options: ModelOptions, valid: Required<Parsed>): SiteModel {
  const { manifest, config, extensionMap, icons } = valid;
  const mtime = (name: JsonContentName): number => options.clock.mtime(raw.json[name]!.file.mtimeMs);
  const mRoot = manifest.value as JsonObject;
  const parts = options.parts ?? new ModelParts();
  const iconDirFiles = parts.iconDirFilesOf(raw.iconDirFiles, (f) => options.clock.mtime(f.mtimeMs));
  const model: SiteModel = {
    baseUrl: options.baseUrl ?? (mRoot.get("base_url") as string),
    service: mRoot.get("service") as string,
    serviceVersion: mRoot.get("service_version") as string,
    description: mRoot.get("description") as string,
    versions: [...new Set(mRoot.get("versions") as string[])],
    buildTime: options.clock.now,
    config: parts.configOf(config.value as JsonObject, mtime("config")),
    extensionMap: parts.extensionMapOf(extensionMap.value as JsonObject, mtime("extensionMap")),
    iconMap: parts.iconMapOf(icons.value as JsonObject, mtime("icons")),
    iconDirFiles,
    configReference:
      raw.configReference === null
        ? null
        : {
            text: raw.configReference.text,
            lastModified: options.clock.mtime(raw.configReference.file.mtimeMs),
          },
  };
  const changes = parts.changesTo(model);
  if (changes !== undefined) model.changes = changes;
  return model;
}

export function buildModel(raw: RawContent, options: ModelOptions): ModelResult {
  const diagnostics: Diagnostic[] = [...raw.diagnostics];
  const parsed = parseFiles(raw, options, diagnostics);
  const valid = validFiles(raw, options, parsed, diagnostics);
  diagnostics.push(
    ...crossCheck({
      raw,
      valid,
      ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
      ...(options.parts === undefined
        ? {}
        : { iconMapChecks: options.parts.iconMapChecks, fileChecks: options.parts.fileChecks }),
    }),
  );
  const { manifest, config, extensionMap, icons } = valid;
  if (
    manifest === undefined ||
    config === undefined ||
    extensionMap === undefined ||
    icons === undefined ||
    diagnostics.some((d) => d.severity === "error")
  ) {
    return { model: null, diagnostics: sortDiagnostics(diagnostics), parsed };
  }
  const sorted = sortDiagnostics(diagnostics);
  return { model: modelOf(raw, options, { manifest, config, extensionMap, icons }), diagnostics: sorted, parsed };
}

/** Diagnostics in a stable order: by file, then position (file-level ones first), keeping discovery order otherwise. */
export function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return list
    .map((d, i) => ({ d, i }))
    .sort(
      (a, b) =>
        (a.d.file < b.d.file ? -1 : a.d.file > b.d.file ? 1 : 0) ||
        (a.d.line ?? 0) - (b.d.line ?? 0) ||
        (a.d.column ?? 0) - (b.d.column ?? 0) ||
        a.i - b.i,
    )
    .map(({ d }) => d);
}
