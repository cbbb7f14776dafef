// src/content/name-checks.ts
// What a name (a key, a version, a file name) must be to become an answer file and part of a URL: the limits, and
// the checks of an object's keys against them and against lower-case lookups.

import { asciiLower } from "../model/types.js";
import { SAFE_VALUE } from "../routes/route-table.js";
import { fmt, short, visible, type Out } from "./findings.js";
import { pointerToken, type ParsedJson } from "./parse-json.js";
import type { JsonObject } from "../model/json.js";

/** Control characters and unpaired surrogates: no URL, file name or host config line can carry them verbatim. */
export function hasUncarriableChar(s: string): boolean {
  // oxlint-disable-next-line no-control-regex -- the control characters are what it looks for
  return (
    /[\u0000-\u001f\u007f]/.test(s) || /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s)
  );
}

/** A file name (one path segment) holds at most this many bytes on every file system the output lands on. */
export const MAX_FILE_NAME_BYTES = 255;
/** Longest safe value ([A-Za-z0-9._-]) whose answer file `<value>.json` fits. */
export const MAX_SAFE_NAME_BYTES = MAX_FILE_NAME_BYTES - ".json".length;
/** Longest other value (UTF-8 bytes): its answer file is `~<hex of each byte>.json`. */
export const MAX_ESCAPED_NAME_BYTES = Math.floor((MAX_FILE_NAME_BYTES - ".json".length - 1) / 2);

/** The reason `value` cannot become an answer file name (see src/routes/route-builder.ts: escapedStem), or null when it can. */
export function answerNameTooLong(value: string): string | null {
  const bytes = Buffer.byteLength(value, "utf8");
  if (SAFE_VALUE.test(value)) {
    return bytes <= MAX_SAFE_NAME_BYTES
      ? null
      : `it has ${bytes} characters, and its answer file "<name>.json" may have at most ${MAX_FILE_NAME_BYTES} bytes, so at most ${MAX_SAFE_NAME_BYTES} characters`;
  }
  return bytes <= MAX_ESCAPED_NAME_BYTES
    ? null
    : `it has ${bytes} UTF-8 bytes; names with characters other than A-Z a-z 0-9 . _ - are stored as "~<hex of each byte>.json", which fits the ${MAX_FILE_NAME_BYTES}-byte file name limit only up to ${MAX_ESCAPED_NAME_BYTES} bytes`;
}

/** A value of icons.json that names a file directly in icons/ (no folders, no parent references, no hidden files). */
export function isPlainFileName(name: string): boolean {
  // oxlint-disable-next-line no-control-regex -- NUL is what no file name can hold
  return name !== "" && !/[/\\\u0000]/.test(name) && name !== "." && name !== ".." && !name.startsWith(".");
}

/**
 * Keys that lower-casing lookups (findIcon, getExtensionSetting) treat as one: every later twin is an error;
 * a key with capitals and no lower-case twin can never be found (a warning).
 */
export function checkKeys(out: Out, parsed: ParsedJson, object: JsonObject, base: string, what: string): void {
  const firstByLower = new Map<string, string>();
  for (const key of object.keys()) {
    const pointer = `${base}/${pointerToken(key)}`;
    if (key.startsWith(".") && key.length > 1) {
      out.at(
        parsed,
        "warning",
        "KEY_LEADING_DOT",
        pointer,
        `The key ${visible(key)} starts with a dot, but clients send the extension without one, so ${what} never matches this entry.`,
        key.replace(/^\.+/, "") === ""
          ? "Remove the key: no extension is made of dots alone."
          : `Write it as ${visible(key.replace(/^\.+/, ""))}.`,
      );
    }
    const tooLong = answerNameTooLong(key);
    if (tooLong !== null) {
      out.at(
        parsed,
        "error",
        "NAME_TOO_LONG",
        pointer,
        `The key ${short(key)} is too long to become an answer file name: ${tooLong}.`,
        "Shorten the key.",
      );
      continue;
    }
    if (hasUncarriableChar(key)) {
      // A lone surrogate is the parse's own error (JSON_LONE_SURROGATE); only a control character is reported here.
      if (/[\u0000-\u001f\u007f]/.test(key)) {
        out.at(
          parsed,
          "error",
          "VALUE_UNSAFE",
          pointer,
          `The key ${visible(key)} contains a control character, which no URL, file name or host config can carry.`,
          'Remove the character (extensions are plain text, e.g. "php").',
        );
      }
      continue;
    }
    const lower = asciiLower(key);
    const first = firstByLower.get(lower);
    if (first !== undefined) {
      out.at(
        parsed,
        "error",
        "KEY_CASE_DUPLICATE",
        pointer,
        `The key ${visible(key)} differs only in case from ${visible(first)}${fmt(parsed.positionOf(`${base}/${pointerToken(first)}`))}: ${what} lower-cases the extension, so only one of them can ever be used.`,
        "Keep one entry, in lower case.",
      );
      continue;
    }
    firstByLower.set(lower, key);
  }
  for (const key of object.keys()) {
    if (key !== asciiLower(key) && firstByLower.get(asciiLower(key)) === key && !hasUncarriableChar(key)) {
      out.at(
        parsed,
        "warning",
        "KEY_NOT_LOWERCASE",
        `${base}/${pointerToken(key)}`,
        `The key ${visible(key)} has capital letters, but ${what} lower-cases the extension before the lookup, so this entry is never found.`,
        `Write it as ${visible(asciiLower(key))}.`,
      );
    }
  }
}
