// src/edge/data.ts
// The data files the request-time handler reads (written by src/edge/data-files.ts, read by src/edge/handler.ts):
// their place in the site, their format, and the key → shard hash both sides share. Web APIs only.
//
//   /_edge-data/core.json           the site's scalars, the shard count, and each whole-site answer's status and
//                                   ETag (small bodies inline)
//   /_edge-data/whole/<name>.json   a whole-site answer's body, byte for byte (icons, iconMappings, config, …)
//   /_edge-data/shards/<i>.json     the per-key lookups whose key hashes to shard i
//   /_edge-data/whole/<name>.template   with --base-url request: a whole answer's body (when it is not inline) with a
//                                   NUL character where the base URL stands, so that the handler puts the request's
//                                   origin there (JSON text holds no raw NUL)

import { fnv1a32 } from "../model/fnv.js";

/** The site path of the data folder. Never under /api.php: reading it never re-enters the handler's route. */
export const DATA_DIR = "/_edge-data";
/** The same, as a folder of the output ("_edge-data"). */
export const DATA_FOLDER = DATA_DIR.slice(1);
/** Whether a path of --out ("_edge-data/core.json") is one of the handler's data files. */
export const isEdgeDataPath = (sitePath: string): boolean => sitePath.startsWith(`${DATA_FOLDER}/`);
export const DATA_FORMAT = 3;

/** The answers that take no per-key parameter: precomputed, one file (or inline body) each. */
export const WHOLE_ANSWERS = [
  "info",
  "status",
  "config",
  "icons",
  "iconMappings",
  "configReference",
  "extensionMappings-all",
  "extensionMappings-indexing",
  "extensionMappings-viewing",
] as const;
export type WholeAnswer = (typeof WHOLE_ANSWERS)[number];

/**
 * The per-key lookups, by the letter that prefixes their keys in the hash: `e` icons.json's lookup (extension →
 * icon file), `x` and `v` extensionMap.json's indexing and viewing lookups, `f` the files of icons/ (name → size,
 * modification time).
 */
export type LookupKind = "e" | "x" | "v" | "f";

/** The icon files findIcon answers with when the extension's own is missing (src/php/answers.ts). */
export const FALLBACK_FILES = ["text.png", "folder.png"] as const;

export interface CoreData {
  format: typeof DATA_FORMAT;
  /** How many shard files there are (a power of two). */
  shards: number;
  baseUrl: string;
  service: string;
  serviceVersion: string;
  description: string;
  buildTime: number;
  config: { version: string; lastModified: number };
  iconMapLastModified: number;
  extensionMapLastModified: number;
  /**
   * `--base-url request`: absolute URLs in answers take each request's origin (scheme and host) in place of
   * `baseUrl`, precomputed answers included (at the offsets `baseAt` lists). Absent: every answer says `baseUrl`.
   */
  requestOrigin?: true;
  /** The rows of the icon files findIcon falls back to (FALLBACK_FILES), present or not. */
  files: FileRow[];
  /** Each whole-site answer: status, ETag (200 answers), and the body when it is small (else in whole/<name>.json). */
  whole: Record<WholeAnswer, WholeMeta>;
}

export interface WholeMeta {
  status: number;
  etag?: string;
  body?: string;
  /**
   * With `requestOrigin`, for an inline body: where the base URL (as JSON text) starts in it, in UTF-8 bytes,
   * ascending. Absent when the body holds no base URL.
   */
  baseAt?: number[];
  /** With `requestOrigin`, for a body in its own file that holds the base URL: whole/<name>.template is there. */
  templateFile?: true;
}

/**
 * An icon file's row: name, size, modification time; or the name alone when icons/ has no such file. `e` rows carry
 * their target's row (so that findIcon needs one shard, not two), and core.json those of findIcon's fallbacks.
 */
export type FileRow = [string, number, number] | [string];

export interface ShardData {
  /** extension → icon file, with that file's row after it (`[ext, ...FileRow]`). */
  e: Array<[string, ...FileRow]>;
  x: Array<[string, string]>;
  v: Array<[string, string]>;
  f: Array<[string, number, number]>;
}

/**
 * FNV-1a (32 bits) over the UTF-16 units of `x:key` for the extension-keyed kinds (e, x, v: an extension's rows share
 * a shard, so that a request about one extension reads one shard; getExtensionSetting looks up both of its maps) and
 * `f:key` for the icon files, reduced to a shard. The same in Node and on every host.
 */
export function shardOf(kind: LookupKind, key: string, shards: number): number {
  return fnv1a32(`${kind === "f" ? "f" : "x"}:${key}`) % shards;
}

export const corePath = (): string => `${DATA_DIR}/core.json`;
export const wholePath = (name: WholeAnswer): string => `${DATA_DIR}/whole/${name}.json`;
export const shardPath = (i: number): string => `${DATA_DIR}/shards/${i}.json`;
export const templatePath = (name: WholeAnswer): string => `${DATA_DIR}/whole/${name}.template`;
/** What stands for the base URL in a template: JSON text never holds a raw NUL (it writes \u0000). */
export const TEMPLATE_MARK = "\u0000";

/** A string as it stands inside a JSON string literal (what the answers' serializer writes for it). */
export const jsonText = (s: string): string => JSON.stringify(s).slice(1, -1);

/**
 * `body` with the `length` bytes at each offset of `at` (ascending, not overlapping) replaced by `by`: the base URL
 * of a precomputed answer replaced by the request's origin (both as the UTF-8 bytes of their JSON text).
 */
export function rebase(body: Uint8Array, at: readonly number[], length: number, by: Uint8Array): Uint8Array {
  const out = new Uint8Array(body.length + at.length * (by.length - length));
  let from = 0;
  let to = 0;
  for (const i of at) {
    out.set(body.subarray(from, i), to);
    to += i - from;
    out.set(by, to);
    to += by.length;
    from = i + length;
  }
  out.set(body.subarray(from), to);
  return out;
}

/** Whether a site path would be answered by the handler itself (/api.php, /api.php/…): never a data path. */
export const isHandlerPath = (pathname: string): boolean => /^\/+api\.php(?:\/|$)/i.test(pathname);
