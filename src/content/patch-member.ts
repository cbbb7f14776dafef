// src/content/patch-member.ts
// An edit of one member's string value, applied to the parse before it (what `dev` does for one mapping of icons.json)
// instead of parsing the file again.

import type { JsonObject } from "../model/json.js";
import { LONE_SURROGATE } from "./parse-json.js";

/** One JSON string literal: no control character, only JSON's escapes. */
const STRING = String.raw`"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"`;
/** A line that holds one member of an object and nothing else: `"key": "value"`, perhaps a comma after it. */
const MEMBER_LINE = new RegExp(String.raw`^[ \t]*(${STRING})[ \t]*:[ \t]*(${STRING})[ \t]*(,?)[ \t]*\r?$`, "d");

/**
 * The value of `after`, a text that differs from `before` (whose value is `value`: an object of strings only, parsed
 * without a problem) in one member's string value alone, on a line that holds that member and nothing else: what
 * an edit of one mapping of icons.json is. Returns the changed key and the new object (`value` is left as it is), or
 * null when the edit is anything else: then the text is parsed (a large icons.json takes a while to parse).
 * Strings cannot span lines, so such a line is a member of the root object (it holds no other object). The edit
 * begins inside the value's quotes, so every value begins where it did, on the same line and column.
 */
export function patchMember(
  before: string,
  after: string,
  value: JsonObject,
): { key: string; value: JsonObject } | null {
  const shortest = Math.min(before.length, after.length);
  let start = 0;
  while (start < shortest && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0; // characters equal at the end, not reaching into the common start
  while (
    end < shortest - start &&
    before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)
  )
    end++;
  if (start === before.length && start === after.length) return null; // the same text
  const lineStart = before.lastIndexOf("\n", start - 1) + 1;
  const beforeEnd = lineEnd(before, start);
  const afterEnd = lineEnd(after, start);
  // The change lies within one line of each text.
  if (beforeEnd < before.length - end || afterEnd < after.length - end) return null;
  const was = MEMBER_LINE.exec(before.slice(lineStart, beforeEnd));
  const now = MEMBER_LINE.exec(after.slice(lineStart, afterEnd));
  if (was === null || now === null || was[1] !== now[1] || was[3] !== now[3]) return null;
  const valueAt = was.indices![2]![0];
  if (now.indices![2]![0] !== valueAt || start - lineStart <= valueAt) return null;
  const key = JSON.parse(was[1]!) as string;
  const old = JSON.parse(was[2]!) as string;
  const next = JSON.parse(now[2]!) as string;
  if (value.get(key) !== old || LONE_SURROGATE.test(next)) return null;
  for (const v of value.values()) if (typeof v !== "string") return null;
  const patched: JsonObject = new Map(value);
  patched.set(key, next);
  return { key, value: patched };
}

const lineEnd = (text: string, from: number): number => {
  const at = text.indexOf("\n", from);
  return at < 0 ? text.length : at;
};
