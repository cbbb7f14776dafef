// src/content/parse-json.ts
// Content JSON text → order-preserving value, with the source position of every value and every duplicate key.

import {
  findNodeAtOffset,
  getNodePath,
  parseTree,
  printParseErrorCode,
  type Node,
  type ParseError,
} from "jsonc-parser";
import type { Diagnostic } from "../errors.js";
import type { Json, JsonObject } from "../model/json.js";
import { plainJsonValue } from "./fast-json.js";

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

/** PHP's json_decode default $depth. It counts the value inside the deepest array as a level of its own, so it
 * admits PHP_MAX_DEPTH - 1 nested arrays or objects (PHP 8.2: 511 decode, 512 do not). */
export const PHP_MAX_DEPTH = 512;
/** The deepest nesting of arrays and objects that PHP's json_decode admits. */
export const PHP_MAX_NESTING = PHP_MAX_DEPTH - 1;

const SYNTAX_HINT = "JSON needs double quotes around keys and strings, no comments and no comma after the last item.";

/** Offset of the first "[" or "{" that nests deeper than PHP_MAX_NESTING, or -1 (strings skipped). */
function tooDeepAt(text: string): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > PHP_MAX_NESTING) return i;
    } else if (c === 93 || c === 125) depth--;
  }
  return -1;
}

const INT64_MAX = 2n ** 63n - 1n;

/** Why a number cannot be built as PHP answers it, or null: PHP keeps whole numbers to 2^63 - 1 exactly (we round
 * beyond 2^53), makes JavaScript's float of any other (printed alike: phpNumber), and INF of one beyond the floats. */
function numberProblem(literal: string, value: number): string | null {
  if (!Number.isFinite(value))
    return `${literal} is beyond the largest float: PHP reads it as INF, which json_encode cannot print, so the answers that hold it would be empty.`;
  if (!/^-?\d+$/.test(literal) || Number.isSafeInteger(value)) return null;
  const n = BigInt(literal);
  return n <= INT64_MAX && n >= -INT64_MAX - 1n
    ? `${literal} is a whole number beyond 2^53: PHP keeps it exactly as a 64-bit integer, but this build would round it to ${String(value)}, so the answers would differ from PHP's.`
    : null;
}

export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export interface ParseOptions {
  /** Offset in `text` where the file's bytes were not valid UTF-8 (folder-reader.ts decodes them as U+FFFD). */
  invalidUtf8At?: number;
}

/** The pointer of the value or key that contains `offset` ("" for the root). */
function pointerAt(root: Node, offset: number): string {
  const node = findNodeAtOffset(root, offset, true);
  if (node === undefined) return "";
  return getNodePath(node)
    .map((t) => `/${pointerToken(String(t))}`)
    .join("");
}

/** A parse that found no value: the file's problems alone. */
const failed = (file: string, diagnostics: Diagnostic[]): ParsedJson => ({
  file,
  value: null,
  positionOf: () => undefined,
  diagnostics,
});

/** The file's value and problems. Plain JSON with nothing to report is parsed without a tree (fast-json.ts): its
 * positions, which only a diagnostic asks for, by parsing it again then (withoutTree). */
export function parseJson(file: string, text: string, options: ParseOptions = {}): ParsedJson {
  const plain = options.invalidUtf8At === undefined ? plainJsonValue(text, PHP_MAX_NESTING) : null;
  if (plain === null) return parseWithTree(file, text, options);
  return withoutTree({ file, value: plain, positionOf: () => undefined, diagnostics: [] }, text);
}

/** The parse with its syntax tree: every value's position, and every problem found. */
export function parseWithTree(file: string, text: string, options: ParseOptions = {}): ParsedJson {
  const lineStarts = computeLineStarts(text);
  const at = (offset: number): Position => lineColumn(lineStarts, offset);
  const unreadable = textProblem(file, text, at);
  if (unreadable !== null) return failed(file, [unreadable]);

  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  if (errors.length > 0 || root === undefined) {
    // Only the first error: the ones after it are mostly its echoes (one single-quoted string gives three).
    const e = errors[0];
    return failed(
      file,
      e === undefined
        ? []
        : [{ severity: "error", code: "JSON_SYNTAX", file, ...syntaxError(text, e, at), hint: SYNTAX_HINT }],
    );
  }
  const diagnostics: Diagnostic[] = [];
  if (options.invalidUtf8At !== undefined) {
    diagnostics.push({
      severity: "error",
      code: "JSON_INVALID_UTF8",
      file,
      pointer: pointerAt(root, options.invalidUtf8At),
      ...at(options.invalidUtf8At),
      message: "The file is not valid UTF-8 here: PHP's json_decode refuses the whole file.",
      hint: 'Save the file as UTF-8 (your editor\'s "Save with encoding" or `iconv -f latin1 -t utf-8`).',
    });
  }
  const value = valueOf(root, text, file, at, diagnostics);
  const positionOf = (pointer: string): Position | undefined => at(nodeAt(root, pointer).offset);
  return { file, value, positionOf, diagnostics };
}

/** What keeps the whole text from being parsed at all: a BOM, no content, or nesting deeper than PHP reads. */
function textProblem(file: string, text: string, at: (offset: number) => Position): Diagnostic | null {
  if (text.charCodeAt(0) === 0xfeff) {
    return {
      severity: "error",
      code: "JSON_BOM",
      file,
      line: 1,
      column: 1,
      message: "The file starts with a byte order mark (BOM), which PHP's json_decode rejects.",
      hint: "Save the file as UTF-8 without BOM.",
    };
  }
  if (text.trim() === "") {
    return {
      severity: "error",
      code: "JSON_SYNTAX",
      file,
      line: 1,
      column: 1,
      message: text === "" ? "The file is empty." : "The file holds only white space.",
      hint: "Write the JSON object this file needs (see schemas/ or `build-index-site init`).",
    };
  }
  const deep = tooDeepAt(text);
  if (deep >= 0) {
    return {
      severity: "error",
      code: "JSON_TOO_DEEP",
      file,
      ...at(deep),
      message: `Nested more than ${PHP_MAX_NESTING} levels deep here: PHP's json_decode refuses such a file (its depth limit of ${PHP_MAX_DEPTH} admits ${PHP_MAX_NESTING} nested arrays or objects).`,
      hint: "Flatten the structure; content files need only a few levels.",
    };
  }
  return null;
}

/**
 * The parsed tree as a value (objects as Maps, in their order), with what PHP would refuse or read otherwise pushed
 * onto `diagnostics`: duplicate keys, lone surrogates, numbers PHP reads otherwise (numberProblem).
 */
function valueOf(
  root: Node,
  text: string,
  file: string,
  at: (offset: number) => Position,
  diagnostics: Diagnostic[],
): Json {
  // Pointers are made only for a diagnostic (icons.json may have tens of thousands of keys): `pointer` makes the parent's.
  const convert = (node: Node, pointer: () => string): Json => {
    switch (node.type) {
      case "object":
        return objectOf(node, pointer);
      case "array":
        return (node.children ?? []).map((child, i) => convert(child, () => `${pointer()}/${i}`));
      case "string":
        if (LONE_SURROGATE.test(node.value as string)) loneSurrogate(pointer(), node.offset, "string");
        return node.value as Json;
      case "number": {
        const literal = text.slice(node.offset, node.offset + node.length);
        const problem = numberProblem(literal, node.value as number);
        if (problem !== null) {
          diagnostics.push({
            severity: "error",
            code: "JSON_NUMBER_RANGE",
            file,
            pointer: pointer(),
            ...at(node.offset),
            message: problem,
            hint: "Write it as a string, or use a number between -9007199254740991 and 9007199254740991.",
          });
        }
        // PHP reads an integer -0 as 0 (a float -0.0 stays -0, and is printed so).
        return (/^-0+$/.test(literal) ? 0 : node.value) as Json;
      }
      default:
        return node.value as Json;
    }
  };
  const objectOf = (node: Node, pointer: () => string): JsonObject => {
    const object: JsonObject = new Map();
    const firstSeen = new Map<string, number>();
    for (const property of node.children ?? []) {
      const [keyNode, valueNode] = property.children ?? [];
      if (keyNode === undefined || valueNode === undefined) continue;
      const key = keyNode.value as string;
      const childPointer = (): string => `${pointer()}/${pointerToken(key)}`;
      if (LONE_SURROGATE.test(key)) loneSurrogate(childPointer(), keyNode.offset, "key");
      const earlier = firstSeen.get(key);
      if (earlier !== undefined) {
        const first = at(earlier);
        diagnostics.push({
          severity: "error",
          code: "JSON_DUPLICATE_KEY",
          file,
          pointer: childPointer(),
          ...at(keyNode.offset),
          message: `Duplicate key "${key}": it is also defined at line ${first.line}:${first.column}, and only the last value would be used.`,
          hint: "Remove one of the two entries.",
        });
      } else {
        firstSeen.set(key, keyNode.offset);
      }
      object.set(key, convert(valueNode, childPointer));
    }
    return object;
  };
  const loneSurrogate = (pointer: string, offset: number, what: string): void => {
    diagnostics.push({
      severity: "error",
      code: "JSON_LONE_SURROGATE",
      file,
      pointer,
      ...at(offset),
      message: `This ${what} holds half of a UTF-16 surrogate pair (a \\uD800-\\uDFFF escape without its partner): PHP's json_decode refuses the file.`,
      hint: 'Write the character itself, or both halves of the pair (e.g. "\\ud83d\\ude00").',
    });
  };
  return convert(root, () => "");
}

/**
 * The same parse without its tree (the tree is many times the value): positions are found by parsing the text again when one is
 * first asked for, which only a diagnostic does. What `dev` keeps between builds (load-content.ts: ParsedFiles).
 */
export function withoutTree(parsed: ParsedJson, text: string): ParsedJson {
  let positionOf: ParsedJson["positionOf"] | undefined;
  return { ...parsed, positionOf: (pointer) => (positionOf ??= parseWithTree(parsed.file, text).positionOf)(pointer) };
}

/**
 * The node at a JSON Pointer, or its nearest existing parent. Of repeated keys the last counts, as in the value (and
 * in PHP's json_decode).
 */
function nodeAt(root: Node, pointer: string): Node {
  let node = root;
  if (pointer === "") return node;
  for (const raw of pointer.slice(1).split("/")) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    let next: Node | undefined;
    if (node.type === "object") {
      for (const property of node.children ?? []) {
        const [keyNode, valueNode] = property.children ?? [];
        if (keyNode?.value === token && valueNode !== undefined) next = valueNode;
      }
    } else if (node.type === "array" && /^(0|[1-9]\d*)$/.test(token)) {
      next = node.children?.[Number(token)];
    }
    if (next === undefined) return node;
    node = next;
  }
  return node;
}

/** Where and what a syntax error is, pointing at its cause (the stray comma, the single quote) when it is known. */
function syntaxError(text: string, e: ParseError, at: (offset: number) => Position): Position & { message: string } {
  const code = printParseErrorCode(e.error);
  const ch = text[e.offset];
  if ((code === "PropertyNameExpected" || code === "ValueExpected") && (ch === "}" || ch === "]")) {
    let i = e.offset - 1;
    while (i >= 0 && /\s/.test(text[i]!)) i--;
    if (text[i] === ",")
      return {
        ...at(i),
        message: `Invalid JSON: a comma after the last ${ch === "}" ? "property" : "item"} (JSON allows no trailing comma).`,
      };
  }
  if (ch === "'")
    return { ...at(e.offset), message: "Invalid JSON: single quotes; keys and strings need double quotes." };
  if (code === "InvalidSymbol" && ch !== undefined && /[A-Za-z_$]/.test(ch) && code === "InvalidSymbol") {
    return { ...at(e.offset), message: "Invalid JSON: unexpected word; keys and strings need double quotes." };
  }
  return { ...at(e.offset), message: `Invalid JSON: ${describeParseError(code)}.` };
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
