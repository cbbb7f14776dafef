// src/content/cross-checks.ts
// Checks that span files or need more than a schema, all together: repeated versions, mappings to unknown settings,
// keys that lower-case lookups can never find, values no host config can carry; icons.json against icons/
// (icon-map-checks.ts) and the files' names and bytes (file-checks.ts).
// Pure: takes what read-content read and the parsed (schema-valid) files; returns Diagnostics.

import type { Diagnostic } from "../errors.js";
import type { JsonObject } from "../model/json.js";
import { BASE_URL_PATTERN, baseUrlProblem, PLACEHOLDER_BASE_URL } from "./base-url.js";
import { FileChecks } from "./file-checks.js";
import { fmt, Out, short, visible } from "./findings.js";
import { IconMapChecks } from "./icon-map-checks.js";
import { answerNameTooLong, checkKeys, hasUncarriableChar } from "./name-checks.js";
import { pointerToken, type ParsedJson } from "./parse-json.js";
import type { JsonContentName, RawContent } from "./read-content.js";

export { FileChecks, IconMapChecks };

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

function checkManifest(out: Out, manifest: ParsedJson, config: ParsedJson | undefined): void {
  const root = manifest.value as JsonObject;
  const versions = root.get("versions") as string[];
  const latest = config?.value instanceof Map ? config.value.get("version") : undefined;
  if (versions.length === 0) {
    out.at(
      manifest,
      "warning",
      "VERSIONS_EMPTY",
      "/versions",
      `"versions" is empty: no versionCheck answer is precomputed, so a client on any version is told "Update available:  -> ${typeof latest === "string" ? latest : "<version>"}" (with no version of its own).`,
      `List every client configuration version, e.g. ["1.0", ${typeof latest === "string" ? visible(latest) : `"1.2.0"`}].`,
    );
  } else if (typeof latest === "string" && !versions.includes(latest)) {
    out.at(
      manifest,
      "warning",
      "VERSION_LATEST_UNLISTED",
      "/versions",
      `"versions" does not list config.json's own version ${visible(latest)}: clients on ${latest} are told "Update available:  -> ${latest}" instead of "You have the latest version".`,
      `Add ${visible(latest)} to "versions".`,
    );
  }
  const first = new Map<string, number>();
  versions.forEach((v, i) => {
    const pointer = `/versions/${i}`;
    if (hasUncarriableChar(v)) {
      out.at(
        manifest,
        "error",
        "VALUE_UNSAFE",
        pointer,
        `The version ${visible(v)} contains a control character, which no URL or host config can carry.`,
        "Remove the character.",
      );
      return;
    }
    const tooLong = answerNameTooLong(v);
    if (tooLong !== null) {
      out.at(
        manifest,
        "error",
        "NAME_TOO_LONG",
        pointer,
        `The version ${short(v)} is too long to become an answer file name: ${tooLong}.`,
        "Shorten the version.",
      );
      return;
    }
    const j = first.get(v);
    if (j !== undefined) {
      out.at(
        manifest,
        "error",
        "VERSION_REPEATED",
        pointer,
        `The version ${visible(v)} is listed twice: also at /versions/${j}${fmt(manifest.positionOf(`/versions/${j}`))}.`,
        "Remove the repeated entry.",
      );
      return;
    }
    first.set(v, i);
  });
}

function checkExtensionMap(out: Out, map: ParsedJson, config: ParsedJson | undefined): void {
  const root = map.value as JsonObject;
  const settings = config?.value instanceof Map ? config.value : undefined;
  for (const [type, section] of [
    ["indexing", "exclusions"],
    ["viewing", "viewable_files"],
  ] as const) {
    const object = root.get(type) as JsonObject;
    checkKeys(out, map, object, `/${type}`, "getExtensionSetting");
    const known = settings?.get(section);
    if (!(known instanceof Map)) continue;
    for (const [ext, key] of object) {
      if (typeof key === "string" && !known.has(key)) {
        out.at(
          map,
          "warning",
          "MAPPING_KEY_UNKNOWN",
          `/${type}/${pointerToken(ext)}`,
          `${visible(key)} is not a key of config.json's ${section}, so the client finds no ${type} setting for ${visible(ext)}.`,
          `Add ${visible(key)} to ${section} in config.json, or map ${visible(ext)} to an existing key.`,
        );
      }
    }
  }
}

type FileCheck = (out: Out, file: ParsedJson, config: ParsedJson | undefined) => void;

/**
 * The findings of a check of one file against config.json, made once while both parses are the same: `dev` keeps a
 * file's parse while its bytes are unchanged (src/content/load-content.ts: ParsedFiles), and an edit of icons.json
 * leaves extensionMap.json (often the largest file) as it was. Each build gets its own copies of the findings.
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

/** The values the indexer's configuration reference lists for its string settings: another may mean nothing to it. */
const SETTING_VALUES: Record<string, readonly string[]> = {
  cache_type: ["sqlite", "json"],
  icon_type: ["default", "minimal", "emoji", "disabled"],
};

/** A documented setting with a value its reference does not list (a warning: a newer indexer may know more). */
function checkSettings(out: Out, config: ParsedJson): void {
  const main = (config.value as JsonObject).get("main");
  if (!(main instanceof Map)) return;
  for (const [key, values] of Object.entries(SETTING_VALUES)) {
    const value = main.get(key);
    if (typeof value !== "string" || values.includes(value)) continue;
    out.at(
      config,
      "warning",
      "CONFIG_SETTING_VALUE",
      `/main/${key}`,
      `main.${key} is ${visible(value)}, which the indexer's configuration reference does not list: it may not understand it.`,
      `Use one of ${values.map(visible).join(", ")}.`,
    );
  }
}

/** What the schema's pattern lets through but a URL parser refuses (a bad port, an empty label, credentials, …). */
function checkManifestBaseUrl(out: Out, manifest: ParsedJson): void {
  const baseUrl = (manifest.value as JsonObject).get("base_url");
  if (typeof baseUrl !== "string" || !BASE_URL_PATTERN.test(baseUrl)) return; // the schema reports it
  if (baseUrl === PLACEHOLDER_BASE_URL) {
    out.at(
      manifest,
      "warning",
      "BASE_URL_PLACEHOLDER",
      "/base_url",
      `base_url is ${visible(baseUrl)}, the placeholder that \`init\` wrote: every absolute URL in the answers would point there.`,
      "Set base_url to the site's public address, or build with --base-url from-env (the deploy's own URL on Netlify, Vercel and Cloudflare Pages).",
    );
    return;
  }
  const wrong = baseUrlProblem(baseUrl);
  if (wrong === null) return;
  out.at(
    manifest,
    "error",
    "BASE_URL",
    "/base_url",
    `base_url ${visible(baseUrl)} cannot be used: ${wrong}.`,
    "For example https://api.example.org or https://example.org/indexer; the spec requires HTTPS.",
  );
}

export function crossCheck(input: CrossCheckInput): Diagnostic[] {
  const out = new Out();
  const { raw, valid } = input;
  const baseUrlWrong = input.baseUrl === undefined ? null : baseUrlProblem(input.baseUrl);
  if (input.baseUrl !== undefined && baseUrlWrong !== null) {
    out.file(
      "--base-url",
      "error",
      "BASE_URL",
      `base_url ${visible(input.baseUrl)} cannot be used: ${baseUrlWrong}.`,
      "For example https://api.example.org or https://example.org/indexer; the spec requires HTTPS.",
    );
  }
  if (valid.manifest !== undefined && input.baseUrl === undefined) checkManifestBaseUrl(out, valid.manifest);
  if (valid.manifest !== undefined) out.list.push(...checkedOnce(checkManifest, valid.manifest, valid.config));
  if (valid.config !== undefined) checkSettings(out, valid.config);
  if (valid.extensionMap !== undefined)
    out.list.push(...checkedOnce(checkExtensionMap, valid.extensionMap, valid.config));
  if (valid.icons !== undefined) out.list.push(...(input.iconMapChecks ?? new IconMapChecks()).check(valid.icons, raw));
  out.list.push(...(input.fileChecks ?? new FileChecks()).check(raw));
  return out.list;
}
