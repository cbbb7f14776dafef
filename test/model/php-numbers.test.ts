// test/model/php-numbers.test.ts
// The reference decodes content with json_decode(…, true) and prints it with json_encode: a number comes back in
// PHP's own text (`1e17` as `1.0e+17`, `0.00001` as `1.0e-5`, `-0.0` as `-0`), which a typed client reads as a float.
// The answers print content's numbers as PHP does (src/model/json.ts: phpNumber), judged by PHP itself where php is
// installed; the expectations written out below were printed by PHP 8.2.36.

import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { parseJson } from "../../src/content/parse-json.js";
import { stringify, type Json } from "../../src/model/json.js";
import { prng } from "../../scripts/prng.mjs";
import { skipReason } from "../helpers/needs.js";

/** Literal → what PHP 8.2's json_encode(json_decode(literal, true)) prints. */
const PRINTED: ReadonlyArray<[string, string]> = [
  ["1", "1"],
  ["-0", "0"],
  ["-0.0", "-0"],
  ["1.0", "1"],
  ["2.50", "2.5"],
  ["1e2", "100"],
  ["0.0001", "0.0001"],
  ["0.00001", "1.0e-5"],
  ["1.25e-5", "1.25e-5"],
  ["1E-7", "1.0e-7"],
  ["1e15", "1000000000000000"],
  ["1e16", "10000000000000000"],
  ["1e17", "1.0e+17"],
  ["-1e17", "-1.0e+17"],
  ["100000000000000000000.0", "1.0e+20"],
  ["1.5e300", "1.5e+300"],
  ["5e-324", "5.0e-324"],
  ["1.7976931348623157e308", "1.7976931348623157e+308"],
  ["9007199254740991", "9007199254740991"],
  ["12345678901234567890", "1.2345678901234567e+19"],
  ["0.1e1", "1"],
];

/** The content's numbers (a list of literals), each as the answers print it. */
const ours = (literals: readonly string[]): string[] => {
  const parsed = parseJson("f.json", `[${literals.join(",")}]`);
  expect(parsed.diagnostics).toEqual([]);
  return stringify(parsed.value as Json)
    .replace(/\s+/g, "")
    .slice(1, -1)
    .split(",");
};

/** Literals of many magnitudes and precisions, seeded: whole and not, tiny and huge, negative. */
function randomLiterals(count: number): string[] {
  const next = prng(52);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const digits = String(Math.floor(next() * 1e6)).replace(/^0+(?=\d)/, "");
    const exponent = Math.floor(next() * 640) - 330;
    const sign = next() < 0.3 ? "-" : "";
    out.push(
      next() < 0.5 ? `${sign}${digits}e${exponent}` : `${sign}${digits}.${Math.floor(next() * 100)}e${exponent}`,
    );
  }
  return out.filter((l) => Number.isFinite(Number(l)));
}

describe("content's numbers printed as PHP prints them", () => {
  it("as PHP 8.2 printed each of these", () => {
    expect(ours(PRINTED.map(([literal]) => literal))).toEqual(PRINTED.map(([, printed]) => printed));
  });

  it("a number beyond the largest float is refused: PHP reads INF, and json_encode cannot print it", () => {
    const [d] = parseJson("f.json", `{"a": [1e400]}`).diagnostics;
    expect(d).toMatchObject({ code: "JSON_NUMBER_RANGE", pointer: "/a/0" });
    expect(d!.message).toMatch(/INF/);
    expect(parseJson("f.json", `[-1${"0".repeat(400)}]`).diagnostics[0]?.code).toBe("JSON_NUMBER_RANGE");
  });

  it.skipIf(skipReason("php") !== undefined)("agrees with PHP 8.2's json_encode on random magnitudes", () => {
    const literals = [...PRINTED.map(([literal]) => literal), ...randomLiterals(400)];
    const php = execFileSync("php", ["-r", "echo json_encode(json_decode(stream_get_contents(STDIN), true));"], {
      input: `[${literals.join(",")}]`,
      encoding: "utf8",
    });
    expect(ours(literals)).toEqual(php.slice(1, -1).split(","));
  });
});
