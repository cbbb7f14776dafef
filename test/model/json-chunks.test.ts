// test/model/json-chunks.test.ts
// stringifyChunks prints a value in pieces (the records' route table is written piece by piece): joined, they are
// exactly stringify's text, which is JSON.stringify's (2 spaces, a final newline) for values without Maps and PHP's
// json_encode for content (test/model/php-arrays.test.ts judges that).

import { describe, expect, it } from "vitest";
import { parseJson } from "../../src/content/parse-json.js";
import { stringifyChunks } from "../../src/model/json-chunks.js";
import { stringify, type Body, type Json } from "../../src/model/json.js";

const CONTENT = [
  `{}`,
  `[]`,
  `{"0":"a","1":"b"}`,
  `{"1":"a","0":"b"}`,
  `{"a":{},"b":[{}],"c":{"0":{"0":{}}}}`,
  `{"exclusions":{},"seq":{"0":1,"1":[1,{"0":true}]},"n":[0.00001,1e17,-0.0,3]}`,
  `[{}, {"0": null}, [[["deep"]]]]`,
  `"text"`,
  `12`,
];

const joined = (value: Body): string => [...stringifyChunks(value)].join("");

describe("stringifyChunks", () => {
  it("joins to stringify's text for content (Maps, PHP lists and numbers)", () => {
    for (const text of CONTENT) {
      const value = parseJson("f.json", text).value as Json;
      expect(joined(value)).toBe(stringify(value));
    }
  });

  it("joins to JSON.stringify(value, null, 2) for plain values, undefined fields left out", () => {
    const values: Body[] = [
      { version: 1, entry: "/api.php", rules: [] },
      { a: undefined, b: { c: undefined } } as unknown as Body,
      { rules: [{ id: "x", match: { action: { eq: "y" } }, headers: {} }, { id: "é…" }], empty: {} },
    ];
    for (const value of values) expect(joined(value)).toBe(`${JSON.stringify(value, null, 2)}\n`);
  });

  it("prints a large value in several pieces", () => {
    const table = {
      version: 1,
      rules: Array.from({ length: 5000 }, (_, i) => ({ id: `rule-${i}`, target: `/api/${i}.json`, status: 200 })),
    };
    const pieces = [...stringifyChunks(table)];
    expect(pieces.length).toBeGreaterThan(4);
    expect(pieces.join("")).toBe(`${JSON.stringify(table, null, 2)}\n`);
  });
});
