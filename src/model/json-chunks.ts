// src/model/json-chunks.ts
// stringify's text of a large value in pieces (src/model/json.ts prints it whole): the records' route table.

import { asPhp, write, type Body } from "./json.js";

/** Pieces of about this many UTF-16 units (a write each). */
const PIECE = 65536;

/**
 * `stringify(value)` in pieces whose concatenation is exactly its text: the items of the value and of its members
 * printed one at a time, so that a large value (the route table) is never printed whole.
 */
export function* stringifyChunks(value: Body): Generator<string> {
  let piece = "";
  for (const part of parts(value, "", 2)) {
    piece += part;
    if (piece.length >= PIECE) {
      yield piece;
      piece = "";
    }
  }
  yield `${piece}\n`;
}

/** `write(value, indent)` in parts: `depth` levels of items one by one, below them whole. */
function* parts(value: Body, indent: string, depth: number): Generator<string> {
  const v = asPhp(value);
  if (depth === 0 || v === null || typeof v !== "object") {
    yield write(v, indent);
    return;
  }
  const inner = indent + "  ";
  if (Array.isArray(v)) {
    if (v.length === 0) return yield "[]";
    for (let i = 0; i < v.length; i++) {
      yield `${i === 0 ? "[\n" : ",\n"}${inner}`;
      yield* parts(v[i] as Body, inner, depth - 1);
    }
    return yield `\n${indent}]`;
  }
  const entries: Iterable<[string, Body | undefined]> =
    v instanceof Map ? v.entries() : Object.entries(v as { [key: string]: Body | undefined });
  let first = true;
  for (const [key, item] of entries) {
    if (item === undefined) continue;
    yield `${first ? "{\n" : ",\n"}${inner}${JSON.stringify(key)}: `;
    first = false;
    yield* parts(item, inner, depth - 1);
  }
  yield first ? "{}" : `\n${indent}}`;
}
