// src/model/json.ts
// Order-preserving JSON values and their one serializer (plain JS objects would move integer-like keys such as "7" first).

/** A JSON value as read from a content file: objects are Maps so that key order survives exactly as written. */
export type Json = null | boolean | number | string | Json[] | JsonObject;
export type JsonObject = Map<string, Json>;

/** A response body: plain objects for the fields we write, Maps for content copied through. */
export type Body = null | boolean | number | string | readonly Body[] | JsonObject | { readonly [key: string]: Body | undefined };

/**
 * Serialize like `JSON.stringify(value, null, 2) + "\n"`, except that Maps are objects in insertion order.
 * Fields whose value is `undefined` are left out, as JSON.stringify does.
 */
export function stringify(value: Body): string {
  const out: string[] = [];
  write(value, "", out);
  out.push("\n");
  return out.join("");
}

function write(value: Body, indent: string, out: string[]): void {
  if (value === null || typeof value !== "object") {
    out.push(JSON.stringify(value));
    return;
  }
  const inner = indent + "  ";
  if (Array.isArray(value)) {
    if (value.length === 0) return void out.push("[]");
    out.push("[");
    value.forEach((item: Body, i: number) => {
      out.push(i === 0 ? "\n" : ",\n", inner);
      write(item, inner, out);
    });
    out.push("\n", indent, "]");
    return;
  }
  const entries: Iterable<[string, Body | undefined]> =
    value instanceof Map ? value.entries() : Object.entries(value as { [key: string]: Body | undefined });
  let first = true;
  for (const [key, item] of entries) {
    if (item === undefined) continue;
    out.push(first ? "{\n" : ",\n", inner, JSON.stringify(key), ": ");
    write(item, inner, out);
    first = false;
  }
  out.push(first ? "{}" : `\n${indent}}`);
}

/** Convert order-preserving JSON into plain JS (for schema validation; key order does not matter there). */
export function toPlain(value: Json): unknown {
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) {
      Object.defineProperty(out, k, { value: toPlain(v), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  if (Array.isArray(value)) return value.map(toPlain);
  return value;
}
