// src/model/types.ts
// The resolved site model: everything the answers are computed from, already validated and normalised.

import { stringMap, type JsonObject } from "./json.js";

export interface FileInfo {
  size: number;
  /** Modification time in whole seconds (clamped to SOURCE_DATE_EPOCH when that is set). */
  lastModified: number;
}

export interface SiteModel {
  /** https URL without trailing slash. */
  baseUrl: string;
  service: string;
  serviceVersion: string;
  description: string;
  /** Client configuration versions to precompute versionCheck for, in manifest order, without repeats. */
  versions: string[];
  /** Build time in whole seconds since the epoch (SOURCE_DATE_EPOCH when set). */
  buildTime: number;
  config: { json: JsonObject; version: string; lastModified: number };
  extensionMap: {
    /** The two objects as written (key order kept), for extensionMappings. */
    indexingJson: JsonObject;
    viewingJson: JsonObject;
    indexing: ReadonlyMap<string, string>;
    viewing: ReadonlyMap<string, string>;
    lastModified: number;
  };
  iconMap: {
    /** icons.json as written, for iconMappings. */
    json: JsonObject;
    /** Extension (as written) → icon file name. */
    entries: ReadonlyMap<string, string>;
    lastModified: number;
  };
  /** Every regular file directly in icons/, by exact name (icons or not: findIcon accepts any existing file). */
  iconDirFiles: ReadonlyMap<string, FileInfo>;
  configReference: { text: string; lastModified: number } | null;
  /** What changed since the model `dev` made before this one (src/content/load-content.ts: ModelParts); absent in a
   * build that made no model before. */
  changes?: ModelChanges;
}

/**
 * The maps of the model made before, and the keys whose values changed in each (src/model/changed-values.ts), in
 * order; null where a map's keys changed (added, removed or moved): then what is made of it is made anew.
 */
export interface ModelChanges {
  was: {
    iconMap: ReadonlyMap<string, string>;
    indexing: ReadonlyMap<string, string>;
    viewing: ReadonlyMap<string, string>;
  };
  iconMap: readonly string[] | null;
  indexing: readonly string[] | null;
  viewing: readonly string[] | null;
}

/** extensionMap.json's two objects, with the lookup maps derived from them (every model builder makes it here). */
export function extensionMapOf(
  indexingJson: JsonObject,
  viewingJson: JsonObject,
  lastModified: number,
): SiteModel["extensionMap"] {
  return {
    indexingJson,
    viewingJson,
    indexing: stringMap(indexingJson),
    viewing: stringMap(viewingJson),
    lastModified,
  };
}

/** icons.json, with the extension → icon lookup map derived from it. */
export function iconMapOf(json: JsonObject, lastModified: number): SiteModel["iconMap"] {
  return { json, entries: stringMap(json), lastModified };
}

/** Extensions that make a file in icons/ an icon (compared case-insensitively, except for status.icon_count). */
export const ICON_EXTENSIONS = ["png", "jpg", "jpeg", "gif", "svg", "webp"] as const;
const ICON_NAME = new RegExp(`\\.(${ICON_EXTENSIONS.join("|")})$`, "i");
const ICON_NAME_LOWER = new RegExp(`\\.(${ICON_EXTENSIONS.join("|")})$`);

export const isIconName = (name: string): boolean => ICON_NAME.test(name);
export const isLowerCaseIconName = (name: string): boolean => ICON_NAME_LOWER.test(name);

/** PHP 8's strtolower(): ASCII letters only. */
export const asciiLower = (s: string): string => (HAS_UPPER.test(s) ? s.replace(/[A-Z]+/g, (m) => m.toLowerCase()) : s);
export const asciiUpper = (s: string): string => (HAS_LOWER.test(s) ? s.replace(/[a-z]+/g, (m) => m.toUpperCase()) : s);

/**
 * The case of a value's ASCII letters (the others have no case here): "lower" (no capital, or no letter at all),
 * "upper" (no small letter), "capitalized" (its first letter the only capital: capitalize(asciiLower(value))), or
 * "mixed". Lower case maps the ASCII values of one class but "mixed" one to one.
 */
export function caseShape(value: string): "lower" | "upper" | "capitalized" | "mixed" {
  let upper = 0;
  let lower = 0;
  let firstIsUpper = false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 65 && c <= 90) {
      if (upper === 0 && lower === 0) firstIsUpper = true;
      upper++;
    } else if (c >= 97 && c <= 122) lower++;
  }
  if (upper === 0) return "lower";
  if (lower === 0) return "upper";
  return firstIsUpper && upper === 1 ? "capitalized" : "mixed";
}
// Most keys hold no letter of the other case: a test is cheaper than a replace with a callback.
const HAS_UPPER = /[A-Z]/;
const HAS_LOWER = /[a-z]/;

/** PHP's empty() on a query value: absent, "" and "0" are empty. */
export const isEmptyParam = (value: string | undefined): boolean =>
  value === undefined || value === "" || value === "0";

/** Icon names of the site, sorted in byte order (UTF-8), as the icons action lists them. */
export function sortedIconNames(site: SiteModel): string[] {
  return sortBytes([...site.iconDirFiles.keys()].filter(isIconName));
}

/** Any UTF-16 unit from a surrogate up: only there does UTF-16 order differ from UTF-8 byte order. */
const HIGH_UNITS = /[\uD800-\uFFFF]/;

/** Orders strings by their UTF-8 bytes (PHP's sort order for file names). */
export function compareBytes(a: string, b: string): number {
  if (HIGH_UNITS.test(a) || HIGH_UNITS.test(b)) {
    const x = UTF8.encode(a);
    const y = UTF8.encode(b);
    const n = Math.min(x.length, y.length);
    for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i]! - y[i]! < 0 ? -1 : 1;
    return x.length - y.length < 0 ? -1 : x.length > y.length ? 1 : 0;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

const UTF8 = new TextEncoder();

/**
 * Sorts `values` in place by their UTF-8 bytes, like `.sort(compareBytes)`; when no value holds a unit from a
 * surrogate up (the usual case), by the engine's own string order, which is the same there and faster.
 */
export function sortBytes(values: string[]): string[] {
  return values.some((v) => HIGH_UNITS.test(v)) ? values.sort(compareBytes) : values.sort();
}
