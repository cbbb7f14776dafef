// src/content/fast-json.ts
// The value of a content JSON text that is plain, strict JSON with nothing to report, parsed without a syntax tree;
// null for anything else (then parse-json.ts parses it with positions and reports what it finds). A tree per file
// costs several times the value, and only a diagnostic needs its positions.

import type { Json, JsonObject } from "../model/json.js";

/** Thrown inside the parser when the text is not one it takes: caught at the top, which returns null. */
const NOT_PLAIN = new Error("not plain JSON");

/** "\" escapes that stand for one character. */
const ESCAPED: Record<number, string> = {
  34: '"',
  92: "\\",
  47: "/",
  98: "\b",
  102: "\f",
  110: "\n",
  114: "\r",
  116: "\t",
};

/** A number as JSON writes it; the value is Number()'s (what the parser of parse-json.ts gives). */
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * The value of `text` when it is strict JSON (RFC 8259 white space only, no BOM) with no duplicate key, no lone
 * surrogate, and only numbers JavaScript holds exactly as PHP reads them (safe integers, finite floats, no -0
 * integer); null otherwise.
 */
export function plainJsonValue(text: string, maxNesting: number): Json | null {
  const p = new Parser(text, maxNesting);
  try {
    p.space();
    const value = p.value(0);
    p.space();
    return p.at === text.length ? value : null;
  } catch (error) {
    if (error === NOT_PLAIN || error instanceof RangeError) return null; // RangeError: a stack too deep for us
    throw error;
  }
}

class Parser {
  at = 0;
  constructor(
    private readonly text: string,
    private readonly maxNesting: number,
  ) {}

  space(): void {
    const t = this.text;
    let c = t.charCodeAt(this.at);
    while (c === 32 || c === 10 || c === 13 || c === 9) c = t.charCodeAt(++this.at);
  }

  value(depth: number): Json {
    const c = this.text.charCodeAt(this.at);
    if (c === 34) return this.string();
    if (c === 123) return this.object(depth + 1);
    if (c === 91) return this.array(depth + 1);
    if (c === 116) return this.word("true", true);
    if (c === 102) return this.word("false", false);
    if (c === 110) return this.word("null", null);
    return this.number();
  }

  private word<T extends Json>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.at)) throw NOT_PLAIN;
    this.at += word.length;
    return value;
  }

  private object(depth: number): JsonObject {
    if (depth > this.maxNesting) throw NOT_PLAIN;
    const object: JsonObject = new Map();
    this.at++;
    this.space();
    if (this.text.charCodeAt(this.at) === 125) {
      this.at++;
      return object;
    }
    for (;;) {
      if (this.text.charCodeAt(this.at) !== 34) throw NOT_PLAIN;
      const key = this.string();
      if (object.has(key)) throw NOT_PLAIN; // a duplicate key: reported with its position
      this.space();
      if (this.text.charCodeAt(this.at++) !== 58) throw NOT_PLAIN;
      this.space();
      object.set(key, this.value(depth));
      this.space();
      const c = this.text.charCodeAt(this.at++);
      if (c === 125) return object;
      if (c !== 44) throw NOT_PLAIN;
      this.space();
    }
  }

  private array(depth: number): Json[] {
    if (depth > this.maxNesting) throw NOT_PLAIN;
    const array: Json[] = [];
    this.at++;
    this.space();
    if (this.text.charCodeAt(this.at) === 93) {
      this.at++;
      return array;
    }
    for (;;) {
      array.push(this.value(depth));
      this.space();
      const c = this.text.charCodeAt(this.at++);
      if (c === 93) return array;
      if (c !== 44) throw NOT_PLAIN;
      this.space();
    }
  }

  private string(): string {
    const t = this.text;
    let at = ++this.at;
    let out = "";
    let from = at;
    for (;;) {
      const c = t.charCodeAt(at);
      if (c === 34) break;
      if (c < 32 || Number.isNaN(c)) throw NOT_PLAIN; // a control character, or the text's end
      if (c >= 0xd800 && c <= 0xdfff) {
        // Only whole pairs: a lone half is reported with its position.
        const next = t.charCodeAt(at + 1);
        if (c > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) throw NOT_PLAIN;
        at += 2;
        continue;
      }
      if (c !== 92) {
        at++;
        continue;
      }
      out += t.slice(from, at);
      const e = t.charCodeAt(at + 1);
      if (e === 117) {
        const hex = t.slice(at + 2, at + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw NOT_PLAIN;
        const unit = parseInt(hex, 16);
        // An escaped surrogate: taken only as the first half of an escaped pair, both at once.
        if (unit >= 0xd800 && unit <= 0xdfff) {
          const low = /^\\u([dD][c-fC-F][0-9a-fA-F]{2})/.exec(t.slice(at + 6, at + 12));
          if (unit > 0xdbff || low === null) throw NOT_PLAIN;
          out += String.fromCharCode(unit, parseInt(low[1]!, 16));
          at += 12;
        } else {
          out += String.fromCharCode(unit);
          at += 6;
        }
      } else {
        const char = ESCAPED[e];
        if (char === undefined) throw NOT_PLAIN;
        out += char;
        at += 2;
      }
      from = at;
    }
    out += t.slice(from, at);
    this.at = at + 1;
    return out;
  }

  private number(): number {
    NUMBER.lastIndex = this.at;
    const m = NUMBER.exec(this.text);
    if (m === null) throw NOT_PLAIN;
    const literal = m[0];
    const value = Number(literal);
    // Whole numbers beyond 2^53, floats beyond the largest, and the integer -0 are reported or read otherwise.
    if (!Number.isFinite(value) || literal === "-0") throw NOT_PLAIN;
    if (Number.isInteger(value) && !Number.isSafeInteger(value) && /^-?\d+$/.test(literal)) throw NOT_PLAIN;
    this.at += literal.length;
    return value;
  }
}
