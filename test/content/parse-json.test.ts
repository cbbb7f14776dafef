// test/content/parse-json.test.ts
// parseJson on its own: the limits PHP's json_decode enforces (depth 512, exact integers) at their boundaries, and
// syntax errors that name their cause once, with a hint.

import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { parseJson, PHP_MAX_DEPTH } from "../../src/content/parse-json.js";
import { skipReason } from "../helpers/needs.js";

const nested = (levels: number): string => `${"[".repeat(levels)}1${"]".repeat(levels)}`;
const codes = (text: string): string[] => parseJson("f.json", text).diagnostics.map((d) => d.code);

describe("nesting depth (PHP's json_decode default depth is 512: 511 nested levels)", () => {
  it("accepts exactly 511 levels", () => {
    expect(PHP_MAX_DEPTH).toBe(512);
    expect(codes(nested(511))).toEqual([]);
  });
  it("refuses 512 levels at the 512th bracket", () => {
    const [d] = parseJson("f.json", nested(512)).diagnostics;
    expect(d).toMatchObject({ code: "JSON_TOO_DEEP", line: 1, column: 512 });
  });
  it.skipIf(skipReason("php") !== undefined)("refuses exactly what PHP's json_decode cannot decode", () => {
    for (const text of [nested(510), nested(511), nested(512), `{"a":${nested(510)}}`, `{"a":${nested(511)}}`]) {
      const php = execFileSync(
        "php",
        ["-r", "echo json_decode(stream_get_contents(STDIN), true) === null ? 'no' : 'yes';"],
        {
          input: text,
          encoding: "utf8",
        },
      );
      expect({ text: text.slice(0, 8), decodes: codes(text).length === 0 }).toEqual({
        text: text.slice(0, 8),
        decodes: php === "yes",
      });
    }
  });
  it("refuses 100,000 levels without a RangeError (brackets inside strings do not count)", () => {
    expect(codes(nested(100_000))).toEqual(["JSON_TOO_DEEP"]);
    expect(codes(`{"a": "${"[".repeat(2000)}"}`)).toEqual([]);
  });
});

describe("integers beyond 2^53 (PHP keeps them as int64, JavaScript rounds them)", () => {
  it("accepts the largest safe integer and non-integers", () => {
    expect(codes(`[9007199254740991, -9007199254740991, 1e300, 0.1]`)).toEqual([]);
  });
  it("refuses 2^53 + 1 with its pointer", () => {
    const [d] = parseJson("f.json", `{"a": [9007199254740993]}`).diagnostics;
    expect(d).toMatchObject({ code: "JSON_NUMBER_RANGE", pointer: "/a/0", line: 1, column: 8 });
    expect(d!.message).toContain("9007199254740992");
  });
});

describe("syntax errors point at their cause, once, with a hint", () => {
  it("a trailing comma in an object points at the comma", () => {
    const list = parseJson("f.json", `{"a": 1,\n}`).diagnostics;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ code: "JSON_SYNTAX", line: 1, column: 8 });
    expect(list[0]!.message).toMatch(/comma after the last property/);
    expect(list[0]!.hint).toBeDefined();
  });
  it("single quotes give one error that says so", () => {
    const list = parseJson("f.json", `{'a': 'b', 'c': 'd'}`).diagnostics;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ line: 1, column: 2 });
    expect(list[0]!.message).toMatch(/single quotes/);
  });
  it("an empty file says it is empty", () => {
    const list = parseJson("f.json", "").diagnostics;
    expect(list).toHaveLength(1);
    expect(list[0]!.message).toBe("The file is empty.");
    expect(list[0]!.hint).toBeDefined();
  });
});

describe("strings PHP refuses", () => {
  it("a lone surrogate in a value and in a key; a full pair is fine", () => {
    expect(codes(`{"a": "\\ud800", "\\udfff": 1}`)).toEqual(["JSON_LONE_SURROGATE", "JSON_LONE_SURROGATE"]);
    expect(codes(`{"a": "\\ud83d\\ude00"}`)).toEqual([]);
  });
});
