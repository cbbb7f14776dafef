// test/content/fast-json.test.ts
// Issue 54: plain JSON is parsed without a syntax tree (src/content/fast-json.ts). Its value must be exactly the
// tree parser's (jsonc-parser, the parse that reports problems) for every text it takes, and every text with
// something to report must go to the tree parser, so that parseJson reports what it did before.

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { plainJsonValue } from "../../src/content/fast-json.js";
import { parseJson, parseWithTree, PHP_MAX_NESTING } from "../../src/content/parse-json.js";
import type { Json } from "../../src/model/json.js";
import { DEMO_CONTENT, haveRealFixtures, REAL_FIXTURES, realFixture } from "../helpers/fixtures.js";

/** The value with every object's members in order (Map equality would ignore it). */
const ordered = (v: Json): unknown =>
  v instanceof Map ? [...v].map(([k, x]) => [k, ordered(x)]) : Array.isArray(v) ? v.map(ordered) : v;

const treeValue = (text: string): unknown => ordered(parseWithTree("f.json", text).value);

/** A small seeded generator (mulberry32): the same texts every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  "a",
  "é",
  "\u00e9",
  "😀",
  "\\",
  '"',
  "/",
  "\n",
  "\t",
  "\u2028",
  "10",
  "0",
  "-",
  " ",
  "\u0001",
  "\u00ff",
];
const NUMBERS = ["0", "-1", "12", "3.25", "-0.5", "1e3", "1E-2", "2.5e+10", "-0.0", "-0e0", "9007199254740991"];

function randomText(r: () => number, depth = 0): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const ws = (): string => pick(["", " ", "\n  ", "\t", "\r\n"]);
  const str = (): string => {
    const s = Array.from({ length: Math.floor(r() * 4) }, () => pick(PIECES)).join("");
    // Some with \u escapes of their own (a surrogate pair escaped as two), some as JSON.stringify prints them.
    return r() < 0.3
      ? `"${[...s].map((c) => [...c].map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")).join("")}"`
      : JSON.stringify(s);
  };
  const kind = depth > 4 ? Math.floor(r() * 4) : Math.floor(r() * 6);
  if (kind === 0) return str();
  if (kind === 1) return pick(NUMBERS);
  if (kind === 2) return pick(["true", "false", "null"]);
  if (kind === 3) return str();
  const n = Math.floor(r() * 4);
  if (kind === 4)
    return `[${ws()}${Array.from({ length: n }, () => randomText(r, depth + 1)).join(`${ws()},${ws()}`)}${ws()}]`;
  const keys = [...new Set(Array.from({ length: n }, () => pick(["1", "0", "b", "a", "10", "", "__proto__", "k é"])))];
  return `{${ws()}${keys.map((k) => `${JSON.stringify(k)}${ws()}:${ws()}${randomText(r, depth + 1)}`).join(`${ws()},${ws()}`)}${ws()}}`;
}

describe("plain JSON without a tree", () => {
  it("gives the tree parser's value, members in order, for a thousand random plain texts", () => {
    const r = random(54);
    for (let i = 0; i < 1000; i++) {
      const text = randomText(r);
      const fast = plainJsonValue(text, PHP_MAX_NESTING);
      const tree = parseWithTree("f.json", text);
      // Texts with something to report (a control character in a string) are left to the tree parser.
      if (tree.diagnostics.length > 0 || tree.value === null) expect(fast, text).toBeNull();
      else if (fast !== null) expect(ordered(fast), text).toEqual(ordered(tree.value));
      else expect(text).toMatch(/\\u0001|\u0001/);
    }
  });

  it("gives the tree parser's value for the content files of the demo and the real fixtures", () => {
    const dirs = [DEMO_CONTENT, ...(haveRealFixtures ? REAL_FIXTURES.map(realFixture) : [])];
    for (const dir of dirs) {
      for (const name of readdirSync(dir).filter((n) => n.endsWith(".json"))) {
        const text = readFileSync(path.join(dir, name), "utf8");
        const fast = plainJsonValue(text, PHP_MAX_NESTING);
        expect(fast, name).not.toBeNull();
        expect(ordered(fast!), name).toEqual(treeValue(text));
      }
    }
  });

  it.each([
    ["a duplicate key", '{"a": 1, "a": 2}'],
    ["a lone surrogate, escaped", '["\\ud83d"]'],
    ["a lone low surrogate, escaped", '{"\\ude00": 1}'],
    ["an integer -0", "[-0]"],
    ["an integer beyond 2^53", "[9007199254740993]"],
    ["a float beyond the largest", "[1e400]"],
    ["a byte order mark", '\ufeff{"a": 1}'],
    ["no content", "  \n"],
    ["a comma after the last item", '{"a": 1,}'],
    ["a comment", '{"a": 1 /* c */}'],
    ["single quotes", "{'a': 1}"],
    ["a control character in a string", '["a\u0001"]'],
    ["a no-break space between values", '{"a":\u00a01}'],
    ["a leading zero", "[01]"],
    ["text after the value", '{"a": 1} x'],
    ["nesting deeper than PHP reads", `${"[".repeat(PHP_MAX_NESTING + 1)}${"]".repeat(PHP_MAX_NESTING + 1)}`],
  ])("leaves %s to the tree parser, whose report parseJson gives", (_, text) => {
    expect(plainJsonValue(text, PHP_MAX_NESTING)).toBeNull();
    const tree = parseWithTree("f.json", text);
    const parsed = parseJson("f.json", text);
    expect(parsed.diagnostics).toEqual(tree.diagnostics);
    expect(ordered(parsed.value)).toEqual(ordered(tree.value));
  });

  it("takes the deepest nesting PHP reads, and finds positions when a diagnostic asks", () => {
    const deep = `${"[".repeat(PHP_MAX_NESTING)}${"]".repeat(PHP_MAX_NESTING)}`;
    expect(ordered(plainJsonValue(deep, PHP_MAX_NESTING)!)).toEqual(treeValue(deep));
    const parsed = parseJson("f.json", '{\n  "a": {\n    "b": [1, 2]\n  }\n}');
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.positionOf("/a/b/1")).toEqual({ line: 3, column: 14 });
  });
});
