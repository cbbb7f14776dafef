// src/content/cross-checks.ts
// Checks that span files or need more than a schema: icons.json against icons/, icon bytes against their
// extensions, repeated versions, keys that lower-case lookups can never find, values no host config can carry.
// Pure: takes what read-content read and the parsed (schema-valid) files; returns Diagnostics.

import type { Diagnostic } from "../errors.js";
import type { Json, JsonObject } from "../model/json.js";
import { changedEntries } from "../model/changed-values.js";
import { asciiLower, isIconName } from "../model/types.js";
import { SAFE_VALUE } from "../routes/route-table.js";
import { BASE_URL_PATTERN } from "./base-url.js";
import { pointerToken, type ParsedJson, type Position } from "./parse-json.js";
import type { ImageFacts } from "./file-facts.js";
import { iconFileName, type JsonContentName, type RawContent, type RawFile } from "./read-content.js";

export interface CrossCheckInput {
  raw: RawContent;
  /** The parsed files that passed their schema (the others are skipped here: their errors are already reported). */
  valid: Partial<Record<JsonContentName, ParsedJson>>;
  /** --base-url, when given (it replaces manifest.base_url). */
  baseUrl?: string;
  /** The last check of icons.json, kept between builds (`dev`). */
  iconMapChecks?: IconMapChecks;
  /** The last check of the content's files, likewise. */
  fileChecks?: FileChecks;
}

/** The answer every unmapped extension and every missing icon falls back to. */
export const FALLBACK_ICON = "text.png";
export const FOLDER_ICON = "folder.png";
export { BASE_URL_PATTERN };

/** Control characters and unpaired surrogates: no URL, file name or host config line can carry them verbatim. */
export function hasUncarriableChar(s: string): boolean {
  return /[\u0000-\u001f\u007f]/.test(s) || /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
}

/** A file name (one path segment) holds at most this many bytes on every file system the output lands on. */
export const MAX_FILE_NAME_BYTES = 255;
/** Longest safe value ([A-Za-z0-9._-]) whose answer file `<value>.json` fits. */
export const MAX_SAFE_NAME_BYTES = MAX_FILE_NAME_BYTES - ".json".length;
/** Longest other value (UTF-8 bytes): its answer file is `~<hex of each byte>.json`. */
export const MAX_ESCAPED_NAME_BYTES = Math.floor((MAX_FILE_NAME_BYTES - ".json".length - 1) / 2);

/** The reason `value` cannot become an answer file name (see build-routes' escapedStem), or null when it can. */
export function answerNameTooLong(value: string): string | null {
  const bytes = Buffer.byteLength(value, "utf8");
  if (SAFE_VALUE.test(value)) {
    return bytes <= MAX_SAFE_NAME_BYTES ? null
      : `it has ${bytes} characters, and its answer file "<name>.json" may have at most ${MAX_FILE_NAME_BYTES} bytes, so at most ${MAX_SAFE_NAME_BYTES} characters`;
  }
  return bytes <= MAX_ESCAPED_NAME_BYTES ? null
    : `it has ${bytes} UTF-8 bytes; names with characters other than A-Z a-z 0-9 . _ - are stored as "~<hex of each byte>.json", which fits the ${MAX_FILE_NAME_BYTES}-byte file name limit only up to ${MAX_ESCAPED_NAME_BYTES} bytes`;
}

const short = (s: string): string => JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);

const fmt = (p: Position | undefined): string => (p === undefined ? "" : ` (line ${p.line}:${p.column})`);

class Out {
  readonly list: Diagnostic[] = [];
  at(parsed: ParsedJson, severity: Diagnostic["severity"], code: string, pointer: string, message: string, hint?: string): void {
    this.list.push({
      severity, code, file: parsed.file, pointer, ...(parsed.positionOf(pointer) ?? {}), message, ...(hint === undefined ? {} : { hint }),
    });
  }
  file(file: string, severity: Diagnostic["severity"], code: string, message: string, hint?: string): void {
    this.list.push({ severity, code, file, message, ...(hint === undefined ? {} : { hint }) });
  }
}

const visible = (s: string): string => JSON.stringify(s);

/**
 * Keys that lower-casing lookups (findIcon, getExtensionSetting) treat as one: every later twin is an error;
 * a key with capitals and no lower-case twin can never be found (a warning).
 */
function checkKeys(out: Out, parsed: ParsedJson, object: JsonObject, base: string, what: string): void {
  const firstByLower = new Map<string, string>();
  for (const key of object.keys()) {
    const pointer = `${base}/${pointerToken(key)}`;
    if (key.startsWith(".") && key.length > 1) {
      out.at(parsed, "warning", "KEY_LEADING_DOT", pointer,
        `The key ${visible(key)} starts with a dot, but clients send the extension without one, so ${what} never matches this entry.`,
        `Write it as ${visible(key.replace(/^\.+/, ""))}.`);
    }
    const tooLong = answerNameTooLong(key);
    if (tooLong !== null) {
      out.at(parsed, "error", "NAME_TOO_LONG", pointer, `The key ${short(key)} is too long to become an answer file name: ${tooLong}.`, "Shorten the key.");
      continue;
    }
    if (hasUncarriableChar(key)) {
      out.at(parsed, "error", "VALUE_UNSAFE", pointer,
        `The key ${visible(key)} contains a control character, which no URL, file name or host config can carry.`,
        "Remove the character (extensions are plain text, e.g. \"php\").");
      continue;
    }
    const lower = asciiLower(key);
    const first = firstByLower.get(lower);
    if (first !== undefined) {
      out.at(parsed, "error", "KEY_CASE_DUPLICATE", pointer,
        `The key ${visible(key)} differs only in case from ${visible(first)}${fmt(parsed.positionOf(`${base}/${pointerToken(first)}`))}: ${what} lower-cases the extension, so only one of them can ever be used.`,
        "Keep one entry, in lower case.");
      continue;
    }
    firstByLower.set(lower, key);
  }
  for (const key of object.keys()) {
    if (key !== asciiLower(key) && firstByLower.get(asciiLower(key)) === key && !hasUncarriableChar(key)) {
      out.at(parsed, "warning", "KEY_NOT_LOWERCASE", `${base}/${pointerToken(key)}`,
        `The key ${visible(key)} has capital letters, but ${what} lower-cases the extension before the lookup, so this entry is never found.`,
        `Write it as ${visible(asciiLower(key))}.`);
    }
  }
}

function checkManifest(out: Out, manifest: ParsedJson, config: ParsedJson | undefined): void {
  const root = manifest.value as JsonObject;
  const versions = root.get("versions") as string[];
  const latest = config?.value instanceof Map ? config.value.get("version") : undefined;
  if (versions.length === 0) {
    out.at(manifest, "warning", "VERSIONS_EMPTY", "/versions",
      `"versions" is empty: no versionCheck answer is precomputed, so a client on any version is told "Update available:  -> ${typeof latest === "string" ? latest : "<version>"}" (with no version of its own).`,
      `List every client configuration version, e.g. ["1.0", ${typeof latest === "string" ? visible(latest) : `"1.2.0"`}].`);
  } else if (typeof latest === "string" && !versions.includes(latest)) {
    out.at(manifest, "warning", "VERSION_LATEST_UNLISTED", "/versions",
      `"versions" does not list config.json's own version ${visible(latest)}: clients on ${latest} are told "Update available:  -> ${latest}" instead of "You have the latest version".`,
      `Add ${visible(latest)} to "versions".`);
  }
  const first = new Map<string, number>();
  versions.forEach((v, i) => {
    const pointer = `/versions/${i}`;
    if (hasUncarriableChar(v)) {
      out.at(manifest, "error", "VALUE_UNSAFE", pointer, `The version ${visible(v)} contains a control character, which no URL or host config can carry.`, "Remove the character.");
      return;
    }
    const tooLong = answerNameTooLong(v);
    if (tooLong !== null) {
      out.at(manifest, "error", "NAME_TOO_LONG", pointer, `The version ${short(v)} is too long to become an answer file name: ${tooLong}.`, "Shorten the version.");
      return;
    }
    const j = first.get(v);
    if (j !== undefined) {
      out.at(manifest, "error", "VERSION_REPEATED", pointer,
        `The version ${visible(v)} is listed twice: also at /versions/${j}${fmt(manifest.positionOf(`/versions/${j}`))}.`,
        "Remove the repeated entry.");
      return;
    }
    first.set(v, i);
  });
}

function checkExtensionMap(out: Out, map: ParsedJson, config: ParsedJson | undefined): void {
  const root = map.value as JsonObject;
  const settings = config?.value instanceof Map ? config.value : undefined;
  for (const [type, section] of [["indexing", "exclusions"], ["viewing", "viewable_files"]] as const) {
    const object = root.get(type) as JsonObject;
    checkKeys(out, map, object, `/${type}`, "getExtensionSetting");
    const known = settings?.get(section);
    if (!(known instanceof Map)) continue;
    for (const [ext, key] of object) {
      if (typeof key === "string" && !known.has(key)) {
        out.at(map, "warning", "MAPPING_KEY_UNKNOWN", `/${type}/${pointerToken(ext)}`,
          `${visible(key)} is not a key of config.json's ${section}, so the client finds no ${type} setting for ${visible(ext)}.`,
          `Add ${visible(key)} to ${section} in config.json, or map ${visible(ext)} to an existing key.`);
      }
    }
  }
}

/** A value of icons.json that names a file directly in icons/ (no folders, no parent references, no hidden files). */
export function isPlainFileName(name: string): boolean {
  return name !== "" && !/[/\\\u0000]/.test(name) && name !== "." && name !== ".." && !name.startsWith(".");
}

/** icons.json's findings against icons/, in the order found: the keys' (the "$schema" key's first), then each
 * mapping's (`at`: its index among the keys), then the folder icon's. */
interface IconFindings {
  head: Diagnostic[];
  values: Array<{ at: number; list: Diagnostic[] }>;
  tail: Diagnostic[];
}

function checkIconMap(icons: ParsedJson, raw: RawContent, files: IconFileNames): IconFindings {
  const root = icons.value as JsonObject;
  const head = new Out();
  if (root.has("$schema")) {
    head.at(icons, "warning", "ICONS_SCHEMA_KEY", "/$schema",
      `"$schema" in icons.json is not an editor hint here: every key of icons.json is an extension, so it is published as the mapping "$schema" → ${visible(String(root.get("$schema")))} (iconMappings lists it).`,
      `Remove it and associate schemas/icons.schema.json in your editor's settings instead (VS Code: "json.schemas" with "fileMatch": ["icons.json"]).`);
  }
  checkKeys(head, icons, root, "", "findIcon");
  const out = new Out();
  const values: IconFindings["values"] = [];
  let at = 0;
  for (const [key, value] of root as Map<string, Json>) {
    if (key !== "$schema") checkIconValue(out, icons, files, key, value as string); // $schema: above
    if (out.list.length > 0) values.push({ at, list: out.list.splice(0) });
    at++;
  }
  const tail = new Out();
  if (raw.iconsDirExists && !root.has("folder") && !files.has(FOLDER_ICON)) {
    tail.at(icons, "warning", "ICON_MISSING", "",
      `icons.json has no "folder" entry and icons/${FOLDER_ICON} does not exist: findIcon for folders ${files.has(FALLBACK_ICON) ? `falls back to ${FALLBACK_ICON}` : "answers 404"}.`,
      `Add icons/${FOLDER_ICON} or a "folder" entry.`);
  }
  return { head: head.list, values, tail: tail.list };
}

/** The names of icons/'s files, and (made when first asked) each by its name in lower case. */
type IconFileNames = ReadonlySet<string> & { byLower(): ReadonlyMap<string, string> };
function iconFileNames(raw: RawContent): IconFileNames {
  const files = new Set(raw.iconDirFiles.map(iconFileName));
  let lower: Map<string, string> | undefined;
  return Object.assign(files, {
    byLower: (): ReadonlyMap<string, string> => (lower ??= new Map([...files].map((f) => [f.toLowerCase(), f]))),
  });
}

/** What one mapping of icons.json (`key` → `name`) finds: a name that is no plain file name, a missing or no image. */
function checkIconValue(out: Out, icons: ParsedJson, files: IconFileNames, key: string, name: string): void {
  const pointer = `/${pointerToken(key)}`;
  if (!isPlainFileName(name)) {
    out.at(icons, "error", "ICON_NAME_INVALID", pointer,
      `${visible(name)} is not a plain file name: icons.json values name a file directly in icons/ (no folders, no "..", no hidden files).`,
      `Use just the file name, e.g. ${visible(name.split(/[/\\]/).pop() || "php.png")}.`);
  } else if (!files.has(name)) {
    const other = files.byLower().get(name.toLowerCase());
    const fallback = files.has(FALLBACK_ICON) ? `falls back to ${FALLBACK_ICON}` : `has no fallback (${FALLBACK_ICON} is missing too) and answers 404`;
    out.at(icons, "warning", "ICON_MISSING", pointer,
      `icons/${name} does not exist: findIcon for ${key === "folder" ? "folders" : visible(key)} ${fallback}.`,
      other !== undefined ? `icons/${other} exists: file names are case-sensitive; use ${visible(other)}.` : `Add icons/${name}, or map ${visible(key)} to an existing icon.`);
  } else if (!isIconName(name)) {
    out.at(icons, "warning", "ICON_NOT_IMAGE", pointer,
      `${visible(name)} does not end in an image extension (.png .jpg .jpeg .gif .svg .webp): findIcon serves it, but the icons list and the icon action do not know it.`,
      "Map the extension to an image file.");
  }
}

/**
 * icons.json checked against icons/ (checkIconMap), made again only for the changed mappings: what `dev` keeps between
 * builds (src/content/load-content.ts: ModelParts), for an edited mapping (a ×100 icons.json has 50,000 keys: 0.2 s
 * to check whole). The findings hang on the keys (in their order), each mapping alone, and icons/'s file names: with
 * the same keys and files, a changed mapping's findings replace its own, and every finding is placed again in the new
 * text (an edit may move the lines after it). The file is checked whole when the keys or files changed, "$schema"'s
 * value did (its warning quotes it), or the last findings or the new ones hold an error (one quotes another's place).
 */
export class IconMapChecks {
  /** The root checked last, held (not weakly: the collector would drop it between two builds), with what it found. */
  private last: {
    icons: ParsedJson; root: JsonObject; paths: readonly string[]; names: IconFileNames; dirExists: boolean; found: IconFindings;
  } | null = null;

  /** icons.json's findings against icons/, in the order checkIconMap finds them. */
  check(icons: ParsedJson, raw: RawContent): Diagnostic[] {
    const root = icons.value as JsonObject;
    const last = this.last;
    const changed = last !== null && last.dirExists === raw.iconsDirExists && samePaths(last.paths, raw.iconDirFiles)
      && !hasError(last.found) ? changedEntries(last.root, root) : null;
    let found: IconFindings | null = null;
    const files = changed !== null ? last!.names : iconFileNames(raw); // the same paths: the same names
    if (changed !== null && changed.keys.length === 0 && icons === last!.icons) {
      found = last!.found; // the same parse of the same text: its findings stand where they are
    } else if (changed !== null && !changed.keys.includes("$schema")) {
      const out = new Out();
      const fresh: IconFindings["values"] = [];
      changed.keys.forEach((key, j) => {
        checkIconValue(out, icons, files, key, root.get(key) as string);
        if (out.list.length > 0) fresh.push({ at: changed.at[j]!, list: out.list.splice(0) });
      });
      const moved = new Set(changed.at);
      // The same positions (a parse patched from the last, src/content/load-content.ts: ParsedFiles) place each where it was.
      const place = icons.positionOf === last!.icons.positionOf && icons.file === last!.icons.file
        ? (list: Diagnostic[]): Diagnostic[] => list : (list: Diagnostic[]): Diagnostic[] => placed(icons, list);
      const kept = last!.found.values.filter((v) => !moved.has(v.at)).map((v) => ({ at: v.at, list: place(v.list) }));
      found = { head: place(last!.found.head), values: [...kept, ...fresh].sort((x, y) => x.at - y.at), tail: place(last!.found.tail) };
      if (hasError(found)) found = null;
    }
    found ??= checkIconMap(icons, raw, files);
    this.last = {
      icons, root, paths: changed !== null ? last!.paths : raw.iconDirFiles.map((f) => f.path), names: files, dirExists: raw.iconsDirExists, found,
    };
    return [...found.head, ...found.values.flatMap((v) => v.list), ...found.tail].map((d) => ({ ...d })); // each build its own copies
  }
}

/** Findings of an earlier text of icons.json, each placed where its pointer is in `icons` now, as Out.at places it. */
function placed(icons: ParsedJson, list: readonly Diagnostic[]): Diagnostic[] {
  const out = new Out();
  for (const d of list) out.at(icons, d.severity, d.code, d.pointer!, d.message, d.hint);
  return out.list;
}

const hasError = (found: IconFindings): boolean =>
  [found.head, ...found.values.map((v) => v.list), found.tail].some((list) => list.some((d) => d.severity === "error"));

function samePaths(paths: readonly string[], files: readonly RawFile[]): boolean {
  if (paths.length !== files.length) return false;
  for (let i = 0; i < paths.length; i++) if (paths[i] !== files[i]!.path) return false;
  return true;
}

/** The findings of the content's files themselves (their names and bytes), against icons/ and one another. */
function checkFiles(raw: RawContent): Diagnostic[] {
  const out = new Out();
  if (raw.iconsDirExists && !raw.iconDirFiles.some((f) => f.path === `icons/${FALLBACK_ICON}`)) {
    out.file(`${raw.dir}/icons`, "error", "ICON_FALLBACK_MISSING",
      `icons/${FALLBACK_ICON} does not exist: it is the answer for every unmapped extension and every mapped icon that is missing, so findIcon would answer 404.`,
      `Add an icon named ${FALLBACK_ICON}.`);
  }
  for (const f of raw.iconDirFiles) {
    const name = iconFileName(f);
    const tooLong = answerNameTooLong(name);
    if (tooLong !== null) {
      out.file(`${raw.dir}/${f.path}`, "error", "NAME_TOO_LONG", `The icon file name ${short(name)} is too long to become an answer file name (action=icon&name=…): ${tooLong}.`, "Rename the file.");
    }
    checkIconFile(out, raw.dir, f);
  }
  checkNormalization(out, raw.dir, raw.published);
  for (const f of raw.published) {
    checkSvgContent(out, raw.dir, f);
    if (hasUncarriableChar(f.path)) {
      out.file(`${raw.dir}/${f.path}`, "error", "VALUE_UNSAFE", `The file name ${visible(f.path)} contains a control character, which no URL or host config can carry.`, "Rename the file.");
    }
  }
  return out.list;
}

/**
 * checkFiles, kept between builds (`dev`): the same findings while the content folder publishes the same files (paths,
 * whether each is empty, and image facts, all checkFiles reads of the bytes: the content cache keeps a file's facts
 * object while the file is unchanged; a text read whole has none, so an edit of icons.json, a published file whose
 * size changes, keeps them). A ×100 site publishes 49,000 files: their names normalised and tested, 0.1 s a rebuild.
 */
export class FileChecks {
  private last: { dir: string; dirExists: boolean; files: KeptFile[]; found: Diagnostic[] } | null = null;

  check(raw: RawContent): Diagnostic[] {
    const last = this.last;
    if (last === null || last.dir !== raw.dir || last.dirExists !== raw.iconsDirExists || !sameFiles(last.files, raw.published)) {
      this.last = {
        dir: raw.dir, dirExists: raw.iconsDirExists, files: raw.published.map((f) => ({ path: f.path, empty: f.size === 0, image: f.facts?.image })),
        found: checkFiles(raw),
      };
    }
    return this.last!.found.map((d) => ({ ...d })); // each build its own copies
  }
}

interface KeptFile { path: string; empty: boolean; image: ImageFacts | undefined }

function sameFiles(was: readonly KeptFile[], now: readonly RawFile[]): boolean {
  if (was.length !== now.length) return false;
  for (let i = 0; i < was.length; i++) {
    const a = was[i]!;
    const b = now[i]!;
    if (a.image !== b.facts?.image || a.path !== b.path || a.empty !== (b.size === 0)) return false;
  }
  return true;
}

/** image-size's name of the format each file extension claims. */
const CLAIMED_TYPE: Record<string, string> = { png: "png", jpg: "jpg", jpeg: "jpg", gif: "gif", svg: "svg", webp: "webp" };

function checkIconFile(out: Out, dir: string, f: RawFile): void {
  const image = f.facts?.image;
  if (image === undefined) return;
  const ext = f.path.slice(f.path.lastIndexOf(".") + 1).toLowerCase();
  const claimed = CLAIMED_TYPE[ext];
  if (claimed === undefined) return;
  const { type } = image;
  if (type === claimed) return;
  out.file(`${dir}/${f.path}`, "error", "ICON_UNREADABLE",
    type === null
      ? `${f.size === 0 ? "The file is empty" : `The file is not a readable ${ext.toUpperCase()} image`}: it would be listed and served as an icon that no client can show.`
      : `The file is a ${type.toUpperCase()} image but its name says ${ext.toUpperCase()}: it would be served with the wrong Content-Type.`,
    type === null ? "Replace it with a valid image, or remove it." : `Rename it to end in .${type === "jpg" ? "jpg" : type}, or convert it.`);
}

/** An SVG that can run code or embed HTML when opened from the site's origin (file-facts.ts finds what). */
function checkSvgContent(out: Out, dir: string, f: RawFile): void {
  const found = f.facts?.image?.active;
  if (found === undefined) return;
  out.file(`${dir}/${f.path}`, "warning", "SVG_ACTIVE_CONTENT",
    `The SVG has ${found.join(", ")}: opened from the site, it would run in the API's origin (the host configs send a Content-Security-Policy that blocks it, but other servers may not).`,
    "Remove the scripts, event handlers, javascript: links and <foreignObject> (an icon needs none); --strict refuses such a file.");
}

/**
 * Published names that differ only in Unicode normalization (café as NFC and as NFD): one file on macOS, and hosts
 * normalise URLs differently. (Names that differ only in case are refused where the output is planned.)
 */
function checkNormalization(out: Out, dir: string, files: readonly RawFile[]): void {
  const first = new Map<string, string>();
  for (const f of files) {
    const key = f.path.normalize("NFC").toLowerCase();
    const other = first.get(key);
    if (other === undefined) {
      first.set(key, f.path);
    } else if (other.toLowerCase() !== f.path.toLowerCase()) {
      out.file(`${dir}/${f.path}`, "error", "NAME_NORMALIZATION",
        `The file names ${visible(other)} and ${visible(f.path)} differ only in Unicode normalization (NFC and NFD): they are one file on macOS, and hosts normalise URLs differently.`,
        "Keep one of them, named in NFC (the form most editors write).");
    }
  }
}

type FileCheck = (out: Out, file: ParsedJson, config: ParsedJson | undefined) => void;

/**
 * The findings of a check of one file against config.json, made once while both parses are the same: `dev` keeps a
 * file's parse while its bytes are unchanged (src/content/load-content.ts: ParsedFiles), and an edit of icons.json
 * leaves extensionMap.json (100,000 keys at ×100) as it was. Each build gets its own copies of the findings.
 */
const found = new WeakMap<FileCheck, WeakMap<ParsedJson, { config: ParsedJson | undefined; list: Diagnostic[] }>>();
function checkedOnce(check: FileCheck, file: ParsedJson, config: ParsedJson | undefined): Diagnostic[] {
  let byFile = found.get(check);
  if (byFile === undefined) found.set(check, (byFile = new WeakMap()));
  let kept = byFile.get(file);
  if (kept === undefined || kept.config !== config) {
    const out = new Out();
    check(out, file, config);
    byFile.set(file, (kept = { config, list: out.list }));
  }
  return kept.list.map((d) => ({ ...d }));
}

export function crossCheck(input: CrossCheckInput): Diagnostic[] {
  const out = new Out();
  const { raw, valid } = input;
  if (input.baseUrl !== undefined && !BASE_URL_PATTERN.test(input.baseUrl)) {
    out.file("--base-url", "error", "BASE_URL",
      `base_url must be an https:// URL without a trailing slash, query or fragment (got ${visible(input.baseUrl)}).`,
      "For example https://api.example.org or https://example.org/indexer; the spec requires HTTPS.");
  }
  if (valid.manifest !== undefined) out.list.push(...checkedOnce(checkManifest, valid.manifest, valid.config));
  if (valid.extensionMap !== undefined) out.list.push(...checkedOnce(checkExtensionMap, valid.extensionMap, valid.config));
  if (valid.icons !== undefined) out.list.push(...(input.iconMapChecks ?? new IconMapChecks()).check(valid.icons, raw));
  out.list.push(...(input.fileChecks ?? new FileChecks()).check(raw));
  return out.list;
}
