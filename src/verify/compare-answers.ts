// src/verify/compare-answers.ts
// The comparison rules (pure): status, the API's headers, and the body. JSON deep-equal ignoring key order, with
// the fields that vary by design compared by form only (`timestamp`; an icon's `path`, by its ending
// `icons/<filename>`; absolute URLs under the build's base URL); a list is no object (`[]` is not `{}`), and a whole
// number written as a float (`1.0e+20`) is not the integer (src/verify/json-literals.ts). Plain files by sha256. Content-Type by media type
// and charset, case-insensitively; a JSON type without a charset is UTF-8 (RFC 8259).

import { createHash } from "node:crypto";
import { FloatLiteral, parseJsonLiterals } from "./json-literals.js";

/** An answer as received (header names lower case). */
export interface Received {
  status: number;
  headers: Record<string, string | undefined>;
  body: Buffer;
}

export type ExpectedBody =
  | { kind: "json"; value: unknown }
  | { kind: "bytes"; sha256: string; size: number }
  | { kind: "empty" }
  | { kind: "any" };

export interface Expected {
  status: number;
  /** Header (lower case) → value; undefined: the header must be absent. Headers not listed are not compared. */
  headers: Record<string, string | undefined>;
  body: ExpectedBody;
}

export interface CompareOptions {
  /** The build's base URL (or --base-url): absolute URLs under it are compared by form. */
  baseUrl: string;
  /** Top-level JSON fields that the received answer may leave out (REFERENCE_OMITS, against the PHP service). */
  mayOmit?: readonly string[];
}

/** The API's headers that are compared (reference-behaviour.md §9). */
export const API_HEADERS = [
  "content-type",
  "cache-control",
  "access-control-allow-origin",
  "access-control-allow-methods",
  "access-control-allow-headers",
] as const;

export const sha256 = (bytes: Buffer | string): string => createHash("sha256").update(bytes).digest("hex");

/** "Application/JSON" → { type: "application/json", charset: "utf-8" }. */
export function parseContentType(value: string | undefined): { type: string; charset: string | undefined } | undefined {
  if (value === undefined) return undefined;
  const [head = "", ...params] = value.split(";");
  const named = head.trim().toLowerCase();
  const type = ALIASES[named] ?? named;
  let charset: string | undefined;
  for (const p of params) {
    const m = /^\s*charset\s*=\s*"?([^";\s]+)"?\s*$/i.exec(p);
    if (m !== null) charset = m[1]!.toLowerCase();
  }
  if (charset === undefined && (type === "application/json" || type.endsWith("+json"))) charset = "utf-8";
  return { type, charset };
}

/** Names of one media type: the unregistered name hosts still send → the registered one. */
const ALIASES: Readonly<Record<string, string>> = { "image/x-icon": "image/vnd.microsoft.icon" };

/** Types a client decodes as UTF-8 when no charset is stated (JSON: RFC 8259; CSS Syntax §3.2; JavaScript). */
const UTF8_BY_DEFAULT = new Set(["application/json", "text/css", "text/javascript", "application/javascript"]);

/**
 * Same media type, and same charset. A charset left out matches UTF-8 where it cannot change the decoding: for a type
 * that is UTF-8 by default, or for a body of ASCII bytes only (every default charset decodes those alike).
 */
export function sameContentType(expected: string | undefined, received: string | undefined, body?: Buffer): boolean {
  const a = parseContentType(expected);
  const b = parseContentType(received);
  if (a === undefined || b === undefined) return a === b;
  if (a.type !== b.type) return false;
  if (a.charset === b.charset) return true;
  const unstated = a.charset === undefined ? b : b.charset === undefined ? a : null;
  if (unstated === null || unstated.charset !== "utf-8") return false;
  return UTF8_BY_DEFAULT.has(unstated.type) || (body !== undefined && body.every((byte) => byte < 0x80));
}

const show = (v: unknown): string => {
  const text =
    v === undefined
      ? "(absent)"
      : v instanceof FloatLiteral
        ? v.text
        : Object.is(v, -0)
          ? "-0"
          : typeof v === "string"
            ? JSON.stringify(v)
            : (JSON.stringify(v) ?? String(v));
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof FloatLiteral);
const ABSOLUTE = /^https?:\/\/[^/?#\s]+/;
const ICON_ENDING = /(?:^|\/)icons\/[^/]+$/;

/** The first place where `got` differs from `want` ("$.icon.size: expected 12, received 13"), or null. */
export function jsonDifference(
  want: unknown,
  got: unknown,
  options: CompareOptions,
  at = "$",
  key = "",
): string | null {
  if (key === "timestamp" && typeof want === "string") {
    return typeof got === "string" ? null : `${at}: expected a timestamp string, received ${show(got)}`;
  }
  if (typeof want === "string" && typeof got === "string" && want !== got) {
    const ending = key === "path" ? ICON_ENDING.exec(want)?.[0] : undefined;
    if (ending !== undefined) {
      const tail = ending.replace(/^\//, "");
      return got === tail || got.endsWith(`/${tail}`)
        ? null
        : `${at}: expected a path ending in ${show(tail)}, received ${show(got)}`;
    }
    if (options.baseUrl !== "" && want.startsWith(options.baseUrl)) {
      const rest = want.slice(options.baseUrl.length);
      const origin = ABSOLUTE.exec(got)?.[0];
      const gotRest = origin === undefined ? undefined : got.slice(origin.length);
      const wantPath = new URL(options.baseUrl).pathname.replace(/\/$/, "") + rest;
      if (gotRest !== undefined && (gotRest === wantPath || gotRest.endsWith(rest))) return null;
      return `${at}: expected an absolute URL ending in ${show(rest)}, received ${show(got)}`;
    }
    return `${at}: expected ${show(want)}, received ${show(got)}`;
  }
  if (Array.isArray(want)) {
    if (!Array.isArray(got)) return `${at}: expected an array, received ${show(got)}`;
    if (got.length !== want.length) return `${at}: expected ${want.length} items, received ${got.length}`;
    for (let i = 0; i < want.length; i += 1) {
      const d = jsonDifference(want[i], got[i], options, `${at}[${i}]`, key);
      if (d !== null) return d;
    }
    return null;
  }
  if (isObject(want)) {
    if (!isObject(got)) return `${at}: expected an object, received ${show(got)}`;
    for (const k of Object.keys(want)) {
      if (!Object.hasOwn(got, k)) {
        if (at === "$" && options.mayOmit?.includes(k) === true) continue;
        return `${at}.${k}: expected ${show(want[k])}, received (absent)`;
      }
      const d = jsonDifference(want[k], got[k], options, `${at}.${k}`, k);
      if (d !== null) return d;
    }
    const extra = Object.keys(got).find((k) => !Object.hasOwn(want, k));
    return extra === undefined ? null : `${at}.${extra}: expected (absent), received ${show(got[extra])}`;
  }
  if (want instanceof FloatLiteral || got instanceof FloatLiteral) {
    const value = (v: unknown): unknown => (v instanceof FloatLiteral ? v.value : v);
    if (want instanceof FloatLiteral && got instanceof FloatLiteral && Object.is(want.value, got.value)) return null;
    const form = Object.is(value(want), value(got)) ? " (a float and an integer to a typed client)" : "";
    return `${at}: expected ${show(want)}, received ${show(got)}${form}`;
  }
  return Object.is(want, got) ? null : `${at}: expected ${show(want)}, received ${show(got)}`;
}

/** Every difference of `got` from `want`, one line each (empty when they match). */
export function compareAnswer(want: Expected, got: Received, options: CompareOptions): string[] {
  const differences: string[] = [];
  if (got.status !== want.status) differences.push(`status: expected ${want.status}, received ${got.status}`);
  for (const [name, value] of Object.entries(want.headers)) {
    const received = got.headers[name];
    const same = name === "content-type" ? sameContentType(value, received, got.body) : value === received?.trim();
    if (!same) differences.push(`${name}: expected ${show(value)}, received ${show(received)}`);
  }
  const body = want.body;
  if (body.kind === "empty") {
    if (got.body.length > 0) differences.push(`body: expected none, received ${got.body.length} bytes`);
  } else if (body.kind === "bytes") {
    if (got.body.length !== body.size || sha256(got.body) !== body.sha256) {
      differences.push(
        `body: expected ${body.size} bytes (sha256 ${body.sha256.slice(0, 12)}…), received ${got.body.length} bytes (sha256 ${sha256(got.body).slice(0, 12)}…)`,
      );
    }
  } else if (body.kind === "json") {
    let parsed: unknown;
    try {
      parsed = parseJsonLiterals(got.body.toString("utf8"));
    } catch {
      const start = got.body.subarray(0, 60).toString("utf8").replace(/\s+/g, " ").trim();
      differences.push(`body: expected JSON, received ${got.body.length === 0 ? "nothing" : show(start)}`);
      return differences;
    }
    const d = jsonDifference(body.value, parsed, options);
    if (d !== null) differences.push(`body ${d}`);
  }
  return differences;
}
