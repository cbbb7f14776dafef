// src/model/json.ts
// Order-preserving JSON values and their one serializer (plain JS objects would move integer-like keys such as "7" first).

/** A JSON value as read from a content file: objects are Maps so that key order survives exactly as written. */
export type Json = null | boolean | number | string | Json[] | JsonObject;
export type JsonObject = Map<string, Json>;

/** A JSON object whose values are strings (the schemas make sure of it) as a lookup map: extensionMap's sections, icons.json. */
export const stringMap = (o: JsonObject): Map<string, string> => new Map(o) as Map<string, string>;

/** A response body: plain objects for the fields we write, Maps for content copied through. */
export type Body =
  null | boolean | number | string | readonly Body[] | JsonObject | { readonly [key: string]: Body | undefined };

/**
 * Serialize like `JSON.stringify(value, null, 2) + "\n"`, except that Maps are objects in insertion order (printed as
 * PHP prints the array it decodes them into: see isPhpList) and numbers are printed as PHP prints them (phpNumber).
 * Fields whose value is `undefined` are left out, as JSON.stringify does.
 * Values without Maps (and without such numbers) are exactly what JSON.stringify prints, so they are handed to it
 * whole (most answers are).
 */
export function stringify(value: Body): string {
  return `${native(value) ? JSON.stringify(value, null, 2) : write(value, "")}\n`;
}

/**
 * A number as PHP 8's json_encode prints it (serialize_precision -1): the shortest digits that read back the same, as
 * JavaScript's, but in exponent form below 1e-4 and from 1e17 on, with ".0" after a lone digit (`1.0e+17`, `1.0e-5`),
 * and -0 as "-0" (content's -0.0; an integer -0 is read as 0). Elsewhere it is JavaScript's text.
 */
export function phpNumber(n: number): string {
  if (Object.is(n, -0)) return "-0";
  if (jsPrintsAsPhp(n)) return String(n);
  const [mantissa, exponent] = n.toExponential().split("e") as [string, string];
  const e = Number(exponent);
  return `${mantissa.includes(".") ? mantissa : `${mantissa}.0`}e${e < 0 ? "-" : "+"}${Math.abs(e)}`;
}

/** Whether JSON.stringify prints the number as PHP does (content's numbers are finite: parse-json refuses others). */
const jsPrintsAsPhp = (n: number): boolean => (n === 0 ? !Object.is(n, -0) : Math.abs(n) >= 1e-4 && Math.abs(n) < 1e17);

/**
 * Whether JSON.stringify prints `value` as `write` would: no Map anywhere in it, no hole or undefined in an array, no
 * number that PHP prints otherwise.
 */
function native(value: Body | undefined): boolean {
  if (typeof value === "number") return jsPrintsAsPhp(value);
  if (value === null || typeof value !== "object") return true;
  if (value instanceof Map) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i] as Body | undefined;
      if (item === undefined || !native(item)) return false;
    }
    return true;
  }
  for (const key in value) {
    if (
      Object.prototype.hasOwnProperty.call(value, key) &&
      !native((value as { readonly [key: string]: Body | undefined })[key])
    )
      return false;
  }
  return true;
}

/**
 * Whether PHP prints this object as a list. The reference decodes content with `json_decode(…, true)`, so every object
 * becomes a PHP array, and `json_encode` prints an array whose keys are 0, 1, … n-1 in order as a list: `{}` comes
 * back as `[]`, and `{"0":"a","1":"b"}` as `["a","b"]`.
 */
export function isPhpList(map: ReadonlyMap<string, unknown>): boolean {
  let i = 0;
  for (const key of map.keys()) if (key !== String(i++)) return false;
  return true;
}

/** A content object as PHP re-encodes it: its values as a list where isPhpList says so, else the object itself. */
export const asPhp = (value: Body): Body => (value instanceof Map && isPhpList(value) ? [...value.values()] : value);

/** `value` printed as stringify prints it, at `indent` (its first line not indented). */
export function write(value: Body, indent: string): string {
  if (typeof value === "number") return phpNumber(value);
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "";
  if (value instanceof Map && isPhpList(value)) return write(asPhp(value), indent);
  // A subtree without Maps: JSON.stringify prints it; its lines get this level's indent (strings hold no raw newline).
  if (native(value))
    return indent === ""
      ? JSON.stringify(value, null, 2)
      : JSON.stringify(value, null, 2).replaceAll("\n", `\n${indent}`);
  const inner = indent + "  ";
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    let out = "[";
    for (let i = 0; i < value.length; i++) out += `${i === 0 ? "\n" : ",\n"}${inner}${write(value[i] as Body, inner)}`;
    return `${out}\n${indent}]`;
  }
  const entries: Iterable<[string, Body | undefined]> =
    value instanceof Map ? value.entries() : Object.entries(value as { [key: string]: Body | undefined });
  let out = "";
  for (const [key, item] of entries) {
    if (item === undefined) continue;
    out += `${out === "" ? "{\n" : ",\n"}${inner}${JSON.stringify(key)}: ${write(item, inner)}`;
  }
  return out === "" ? "{}" : `${out}\n${indent}}`;
}

/** Whether `stringify(a) === stringify(b)`, without printing either (Maps and plain objects with the same entries are equal). */
export function sameText(a: Body, b: Body): boolean {
  if (a === b) return true;
  a = asPhp(a);
  b = asPhp(b);
  if (typeof a === "number" && typeof b === "number") return phpNumber(a) === phpNumber(b);
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object")
    return JSON.stringify(a) === JSON.stringify(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameText(a[i] as Body, b[i] as Body)) return false;
    return true;
  }
  const ea = definedEntries(a as JsonObject | { readonly [key: string]: Body | undefined });
  const eb = definedEntries(b as JsonObject | { readonly [key: string]: Body | undefined });
  if (ea.length !== eb.length) return false;
  for (let i = 0; i < ea.length; i++) {
    if (ea[i]![0] !== eb[i]![0] || !sameText(ea[i]![1], eb[i]![1])) return false;
  }
  return true;
}

function definedEntries(value: JsonObject | { readonly [key: string]: Body | undefined }): Array<[string, Body]> {
  const entries: Iterable<[string, Body | undefined]> = value instanceof Map ? value.entries() : Object.entries(value);
  const out: Array<[string, Body]> = [];
  for (const [key, item] of entries) if (item !== undefined) out.push([key, item]);
  return out;
}

/** Convert order-preserving JSON into plain JS (for schema validation; key order does not matter there). */
export function toPlain(value: Json): unknown {
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) {
      // "__proto__" is a key like any other in JSON: defined, not assigned (which would set the prototype).
      if (k === "__proto__")
        Object.defineProperty(out, k, { value: toPlain(v), enumerable: true, writable: true, configurable: true });
      else out[k] = toPlain(v);
    }
    return out;
  }
  if (Array.isArray(value)) return value.map(toPlain);
  return value;
}
