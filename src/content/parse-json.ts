// src/content/parse-json.ts
// Content JSON text → order-preserving value, with the source position of every value and every duplicate key.

import { parseTree, printParseErrorCode, type Node, type ParseError } from "jsonc-parser";
import type { Diagnostic } from "../errors.js";
import type { Json, JsonObject } from "../model/json.js";

export interface Position {
  line: number;
  column: number;
}

export interface ParsedJson {
  file: string;
  value: Json;
  /** Position of the value at a JSON Pointer (or of its nearest existing parent). */
  positionOf(pointer: string): Position | undefined;
  /** Problems found while parsing: syntax errors (then `value` is null) and duplicate keys. */
  diagnostics: Diagnostic[];
}

/** Escape one reference token of a JSON Pointer (RFC 6901). */
export function pointerToken(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

export function lineColumn(lineStarts: readonly number[], offset: number): Position {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - lineStarts[lo]! + 1 };
}

function computeLineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

export function parseJson(file: string, text: string): ParsedJson {
  const lineStarts = computeLineStarts(text);
  const at = (offset: number): Position => lineColumn(lineStarts, offset);
  const diagnostics: Diagnostic[] = [];
  const offsets = new Map<string, number>();

  if (text.charCodeAt(0) === 0xfeff) {
    diagnostics.push({
      severity: "error", code: "JSON_BOM", file, line: 1, column: 1,
      message: "The file starts with a byte order mark (BOM), which PHP's json_decode rejects.",
      hint: "Save the file as UTF-8 without BOM.",
    });
    return { file, value: null, positionOf: () => undefined, diagnostics };
  }

  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  if (errors.length > 0 || root === undefined) {
    for (const e of errors) {
      diagnostics.push({
        severity: "error", code: "JSON_SYNTAX", file, ...at(e.offset),
        message: `Invalid JSON: ${describeParseError(printParseErrorCode(e.error))}.`,
      });
    }
    if (errors.length === 0) {
      diagnostics.push({ severity: "error", code: "JSON_SYNTAX", file, line: 1, column: 1, message: "Invalid JSON: the file is empty." });
    }
    return { file, value: null, positionOf: () => undefined, diagnostics };
  }

  const convert = (node: Node, pointer: string): Json => {
    offsets.set(pointer, node.offset);
    switch (node.type) {
      case "object": {
        const object: JsonObject = new Map();
        const firstSeen = new Map<string, number>();
        for (const property of node.children ?? []) {
          const [keyNode, valueNode] = property.children ?? [];
          if (keyNode === undefined || valueNode === undefined) continue;
          const key = keyNode.value as string;
          const childPointer = `${pointer}/${pointerToken(key)}`;
          const earlier = firstSeen.get(key);
          if (earlier !== undefined) {
            const first = at(earlier);
            diagnostics.push({
              severity: "error", code: "JSON_DUPLICATE_KEY", file, pointer: childPointer, ...at(keyNode.offset),
              message: `Duplicate key "${key}": it is also defined at line ${first.line}:${first.column}, and only the last value would be used.`,
              hint: "Remove one of the two entries.",
            });
          } else {
            firstSeen.set(key, keyNode.offset);
          }
          object.set(key, convert(valueNode, childPointer));
        }
        return object;
      }
      case "array":
        return (node.children ?? []).map((child, i) => convert(child, `${pointer}/${i}`));
      default:
        return node.value as Json;
    }
  };

  const value = convert(root, "");
  const positionOf = (pointer: string): Position | undefined => {
    let p = pointer;
    for (;;) {
      const offset = offsets.get(p);
      if (offset !== undefined) return at(offset);
      if (p === "") return undefined;
      p = p.slice(0, p.lastIndexOf("/"));
    }
  };
  return { file, value, positionOf, diagnostics };
}

function describeParseError(code: string): string {
  const words: Record<string, string> = {
    InvalidSymbol: "unexpected character",
    InvalidNumberFormat: "invalid number",
    PropertyNameExpected: "a property name in double quotes was expected",
    ValueExpected: "a value was expected",
    ColonExpected: "':' was expected",
    CommaExpected: "',' was expected",
    CloseBraceExpected: "'}' was expected",
    CloseBracketExpected: "']' was expected",
    EndOfFileExpected: "the document should end here",
    InvalidCommentToken: "comments are not allowed in JSON",
    UnexpectedEndOfComment: "comments are not allowed in JSON",
    UnexpectedEndOfString: "unterminated string",
    UnexpectedEndOfNumber: "unterminated number",
    InvalidUnicode: "invalid \\u escape",
    InvalidEscapeCharacter: "invalid escape character",
    InvalidCharacter: "control character in a string",
  };
  return words[code] ?? code;
}
