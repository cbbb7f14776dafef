// src/php/php-request.ts
// The reference service's request layer, as PHP 8.2 runs it (reference-behaviour.md §1–§4, §9): the raw query
// parsed into $_GET (main/php_variables.c), the dispatch on PHP values (strings or arrays), json_encode's refusal
// of invalid UTF-8, and the method rules. Pure and portable (Web APIs only): the request-time handler runs it.
//
// Strings hold PHP's bytes: valid UTF-8 decodes as usual; every byte that is not part of a valid UTF-8 sequence
// becomes the lone surrogate U+DC00 + byte ("surrogateescape"). Such a string never equals a content key, keeps
// its ASCII bytes for strtolower/basename/version_compare, and marks exactly the values json_encode refuses.

import type { Body } from "../model/json.js";
import type { SiteModel } from "../model/types.js";
import * as A from "./answers.js";

/** A PHP array from the query: keys in insertion order; integer keys are kept as their decimal text. */
export interface PhpArray {
  readonly entries: Map<string, PhpValue>;
  /** PHP's nNextFreeElement: the key `a[]` gets next. */
  nextIndex: number;
}
export type PhpValue = string | PhpArray;
export type PhpQuery = ReadonlyMap<string, PhpValue>;

export const isPhpArray = (v: PhpValue | undefined): v is PhpArray => typeof v === "object";

/** php.ini max_input_vars (default): variables after the 1000th are ignored (PHP also logs a warning). */
export const MAX_INPUT_VARS = 1000;
/** php.ini max_input_nesting_level (default): deeper names are dropped. */
const MAX_NESTING = 64;

const hexValue = (c: number): number =>
  c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 0x37 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;

const UTF8 = new TextEncoder();

/** PHP urldecode() on the bytes of a raw query part: '+' → space, %XX → byte, a lone '%' stays. */
export function urlDecodeBytes(raw: string): Uint8Array {
  const src = UTF8.encode(raw);
  const out = new Uint8Array(src.length);
  let n = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === 0x2b) out[n++] = 0x20;
    else if (c === 0x25 && i + 2 < src.length && hexValue(src[i + 1]!) >= 0 && hexValue(src[i + 2]!) >= 0) {
      out[n++] = hexValue(src[i + 1]!) * 16 + hexValue(src[i + 2]!);
      i += 2;
    } else out[n++] = c;
  }
  return out.subarray(0, n);
}

/** Bytes → string: valid UTF-8 decoded, every other byte as U+DC00 + byte (see the file comment). */
export function decodeBytes(bytes: Uint8Array): string {
  let out = "";
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      // A run of ASCII at once.
      let j = i + 1;
      while (j < bytes.length && bytes[j]! < 0x80) j++;
      out += String.fromCharCode(...bytes.subarray(i, j));
      i = j;
      continue;
    }
    const len = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    let cp = len === 2 ? b & 0x1f : len === 3 ? b & 0x0f : b & 0x07;
    let ok = len > 0 && i + len <= bytes.length;
    for (let k = 1; ok && k < len; k++) {
      const c = bytes[i + k]!;
      if ((c & 0xc0) !== 0x80) ok = false;
      else cp = (cp << 6) | (c & 0x3f);
    }
    // Overlong forms, UTF-16 surrogates and code points above U+10FFFF are invalid, as json_encode says.
    if (
      ok &&
      ((len === 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (len === 4 && (cp < 0x10000 || cp > 0x10ffff)))
    )
      ok = false;
    if (ok) {
      out += String.fromCodePoint(cp);
      i += len;
    } else {
      out += String.fromCharCode(0xdc00 + b);
      i += 1;
    }
  }
  return out;
}

/** A raw query part that urldecode() leaves as it is, in ASCII: no '%', no '+', nothing above U+007F. */
const PLAIN = /^[^%+\u0080-\uffff]*$/;

/** PHP urldecode() of a raw query part, as a string (decodeBytes of urlDecodeBytes); a plain part, most of them, is
 * its own decoding, and costs no bytes. */
export const urlDecodeText = (raw: string): string => (PLAIN.test(raw) ? raw : decodeBytes(urlDecodeBytes(raw)));

/** The bytes a string stands for (the inverse of decodeBytes). */
export function encodeBytes(s: string): Uint8Array {
  const out: number[] = [];
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    if (ch.length === 1 && c >= 0xdc80 && c <= 0xdcff) out.push(c - 0xdc00);
    else out.push(...UTF8.encode(ch));
  }
  return Uint8Array.from(out);
}

/** Whether a string holds bytes that are not valid UTF-8 (json_encode fails on it). */
export const hasInvalidUtf8 = (s: string): boolean => /(?<![\uD800-\uDBFF])[\uDC00-\uDCFF]/.test(s);

/** Whether json_encode fails on a value: an invalid string anywhere in it, keys included. */
export function jsonEncodeFails(value: Body | undefined): boolean {
  if (typeof value === "string") return hasInvalidUtf8(value);
  if (value === null || typeof value !== "object") return false;
  if (value instanceof Map) {
    for (const [k, v] of value) if (hasInvalidUtf8(k) || jsonEncodeFails(v)) return true;
    return false;
  }
  if (Array.isArray(value)) return value.some((v: Body) => jsonEncodeFails(v));
  for (const k in value) if (hasInvalidUtf8(k) || jsonEncodeFails((value as Record<string, Body>)[k])) return true;
  return false;
}

/** PHP's integer-like array keys ("0", "12", "-3", within PHP_INT range): stored as integers. */
const INTEGER_KEY = /^(?:0|-?[1-9][0-9]*)$/;
export const isIntegerKey = (k: string): boolean =>
  INTEGER_KEY.test(k) && k !== "-0" && BigInt(k) <= 9223372036854775807n && BigInt(k) >= -9223372036854775808n;

const newArray = (): PhpArray => ({ entries: new Map(), nextIndex: 0 });

function arraySet(array: PhpArray, key: string | null, value: PhpValue): void {
  if (key === null) {
    array.entries.set(String(array.nextIndex), value);
    array.nextIndex++;
    return;
  }
  array.entries.set(key, value);
  if (isIntegerKey(key) && Number(key) >= array.nextIndex) array.nextIndex = Number(key) + 1;
}

/**
 * The raw query string (without "?") as PHP's $_GET: php_default_treat_data + php_register_variable_ex.
 * Top-level names are plain strings; values are strings or arrays.
 */
export function parsePhpQuery(rawQuery: string): Map<string, PhpValue> {
  const top = newArray();
  let count = 0;
  for (const part of rawQuery.split("&")) {
    if (part === "") continue; // strtok skips empty tokens
    if (++count > MAX_INPUT_VARS) break;
    const eq = part.indexOf("=");
    const rawName = eq === -1 ? part : part.slice(0, eq);
    register(top, urlDecodeText(rawName), eq === -1 ? "" : urlDecodeText(part.slice(eq + 1)));
  }
  return top.entries;
}

/** php_register_variable_ex on the decoded name. */
function register(top: PhpArray, decoded: string, value: string): void {
  // The name is a C string: it ends at the first NUL (a NUL byte is never part of a UTF-8 sequence, so cutting the
  // decoded text there is cutting the bytes).
  const nul = decoded.indexOf("\0");
  let name = nul === -1 ? decoded : decoded.slice(0, nul);
  name = name.replace(/^ +/, ""); // leading spaces are ignored
  // Spaces and dots become '_' up to the first '['.
  const bracket = name.indexOf("[");
  const head = (bracket === -1 ? name : name.slice(0, bracket)).replace(/[ .]/g, "_");
  if (head.length === 0) return;
  name = bracket === -1 ? head : head + name.slice(bracket);
  if (bracket === -1) {
    arraySet(top, head, value);
    return;
  }
  // Indices: `[` … `]` groups; a `[` without `]` turns into '_' and the rest of the name is kept as is.
  let target = top;
  let index: string | null = head;
  let nesting = 0;
  let ip = bracket; // at '['
  for (;;) {
    ip++;
    const start = ip;
    if (name[ip] === " ") ip++; // "[ ]" is an empty index; "[ x]" keeps its space
    let newIndex: string | null;
    if (name[ip] === "]") {
      newIndex = null;
    } else {
      const close = name.indexOf("]", ip);
      if (close === -1) {
        // Not an index. At the first level the '[' becomes '_' and so do ' ', '.' and '[' in the rest of the name
        // (PHP 8); deeper, the name ends before it.
        if (nesting === 0) index = `${head}_${name.slice(start).replace(/[ .[]/g, "_")}`;
        break;
      }
      newIndex = name.slice(start, close);
      ip = close;
    }
    if (++nesting > MAX_NESTING) return;
    let child: PhpValue | undefined = index === null ? undefined : target.entries.get(index);
    if (child === undefined || typeof child === "string") {
      child = newArray();
      arraySet(target, index, child);
    }
    target = child;
    index = newIndex;
    ip++;
    if (name[ip] !== "[") break;
  }
  arraySet(target, index, value);
}

/** A PHP array as json_encode prints it: a list when its keys are 0…n-1 in order, else an object. */
export function phpJson(value: PhpValue): Body {
  if (typeof value === "string") return value;
  const keys = [...value.entries.keys()];
  if (keys.every((k, i) => k === String(i))) return [...value.entries.values()].map(phpJson);
  const map = new Map<string, Body>();
  for (const [k, v] of value.entries) map.set(k, phpJson(v));
  return map as unknown as Body;
}

/** PHP 8 throws a TypeError for this request (an array where the script needs a string): 500, empty body. */
export const TYPE_ERROR = "type-error" as const;

/**
 * The script's dispatch on $_GET. Arrays never equal an action or a type. Where the script would pass an array to
 * a string function (version_compare, strtolower, basename), PHP 8 throws a TypeError: TYPE_ERROR. getExtensionSetting
 * only compares its type with `===` (../shared/reference/api.php, checked with verify against php -S): an array type
 * is not found, and echoed.
 */
/** The answer functions phpAnswer dispatches to (the edge handler hands in its own for the whole-site answers). */
export type Answers = Pick<
  typeof A,
  | "info"
  | "versionCheck"
  | "extensionMappings"
  | "getExtensionSetting"
  | "icon"
  | "findIcon"
  | "config"
  | "icons"
  | "iconMappings"
  | "status"
  | "configReference"
>;

export function phpAnswer(site: SiteModel, query: PhpQuery, answers: Answers = A): A.Answer | typeof TYPE_ERROR {
  const A = answers;
  const action = query.get("action");
  if (typeof action !== "string") return A.info(site);
  const str = (name: string): string | undefined => {
    const v = query.get(name);
    return typeof v === "string" ? v : undefined;
  };
  switch (action) {
    case "versionCheck": {
      if (isPhpArray(query.get("current_version"))) return TYPE_ERROR;
      return A.versionCheck(site, str("current_version"));
    }
    case "extensionMappings":
      return A.extensionMappings(site, str("type"));
    case "getExtensionSetting": {
      const extension = query.get("extension");
      if (isPhpArray(extension)) return TYPE_ERROR;
      if (A.getExtensionSetting(site, extension, undefined).status !== 200)
        return A.getExtensionSetting(site, extension, undefined);
      const type = query.get("type");
      if (isPhpArray(type)) {
        // An array is no "indexing" nor "viewing" (`===`): not found, the array echoed as the type (api.php).
        const answer = A.getExtensionSetting(site, extension, "");
        return { ...answer, body: { ...(answer.body as Record<string, Body>), type: phpJson(type) } };
      }
      return A.getExtensionSetting(site, extension, str("type"));
    }
    case "icon":
      if (isPhpArray(query.get("name"))) return TYPE_ERROR;
      return A.icon(site, str("name"));
    case "findIcon": {
      const type = query.get("type");
      const extension = query.get("extension");
      if (isPhpArray(extension)) {
        if (type !== "folder") return TYPE_ERROR; // strtolower(array)
        const answer = A.findIcon(site, "folder", "x");
        return { ...answer, body: { ...(answer.body as Record<string, Body>), extension: phpJson(extension) } };
      }
      if (isPhpArray(type)) {
        // Not "folder": the file lookup, with the array echoed as the type.
        const answer = A.findIcon(site, "file", extension);
        if (answer.status !== 200) return answer;
        const body = answer.body as Record<string, Body>;
        return {
          ...answer,
          body: { success: body.success, type: phpJson(type), extension: body.extension, icon: body.icon },
        };
      }
      return A.findIcon(site, type, extension);
    }
    case "config":
      return A.config(site);
    case "icons":
      return A.icons(site);
    case "iconMappings":
      return A.iconMappings(site);
    case "status":
      return A.status(site);
    case "configReference":
      return A.configReference(site);
    default:
      return A.info(site);
  }
}

/** What the client receives: status, headers, body text (HEAD: headers only). */
export interface PhpResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The headers of OPTIONS and of PHP's TypeError answers: the CORS headers and Content-Type only. */
export const BARE_HEADERS: Readonly<Record<string, string>> = A.answerHeaders({ kind: "info", status: 200 });

/**
 * The reference's answer to `<method> /api.php[/…]?<rawQuery>`: OPTIONS → 200, empty body, CORS headers; every
 * other method like GET (bodies ignored); HEAD without a body. json_encode failing (invalid UTF-8 echoed) → 200 with
 * an empty body and the answer's usual headers.
 */
export function phpRespond(site: SiteModel, method: string, rawQuery: string): PhpResponse {
  if (method === "OPTIONS") return { status: 200, headers: { ...BARE_HEADERS }, body: "" };
  return respondTo(phpAnswer(site, parsePhpQuery(rawQuery)), method);
}

/** What the client receives for an answer of phpAnswer (the method is not OPTIONS). */
export function respondTo(answer: A.Answer | typeof TYPE_ERROR, method: string): PhpResponse {
  if (answer === TYPE_ERROR) return { status: 500, headers: { ...BARE_HEADERS }, body: "" };
  const headers = A.answerHeaders(answer);
  const echoes = answer.kind === "versionCheck" || answer.kind === "getExtensionSetting" || answer.kind === "findIcon";
  const text = echoes && jsonEncodeFails(answer.body) ? "" : A.answerText(answer);
  return { status: answer.status, headers, body: method === "HEAD" ? "" : text };
}
