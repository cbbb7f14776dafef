// test/model/php-arrays.test.ts
// The reference decodes content with json_decode(…, true) and prints it with json_encode: every object becomes a PHP
// array, so `{}` and `{"0":…,"1":…}` come back as lists. The answers print content as PHP does (src/model/json.ts),
// judged by PHP itself where php is installed.

import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { parseJson } from "../../src/content/parse-json.js";
import { sameText, stringify, type Json } from "../../src/model/json.js";
import { skipReason } from "../helpers/needs.js";

const CASES = [
  `{}`,
  `{"0":"a","1":"b"}`,
  `{"1":"a","0":"b"}`,
  `{"0":"a","2":"b"}`,
  `{"00":"a"}`,
  `{"0":"a","x":"b"}`,
  `{"a":{},"b":[{}],"c":{"0":{"0":{}}}}`,
  `{"exclusions":{},"seq":{"0":1,"1":[1,{"0":true}]}}`,
  `[{}, {"0": null}]`,
];
const ours = (text: string): string => stringify(parseJson("f.json", text).value as Json);

describe("content objects printed as PHP re-encodes them", () => {
  it("{} and in-order 0…n-1 keys print as lists; anything else stays an object", () => {
    expect(JSON.parse(ours(`{"e":{},"s":{"0":"a","1":"b"},"o":{"1":"a","0":"b"}}`))).toEqual({
      e: [],
      s: ["a", "b"],
      o: { 1: "a", 0: "b" },
    });
    expect(ours(`{"o":{"1":"a","0":"b"}}`)).toBe(`{\n  "o": {\n    "1": "a",\n    "0": "b"\n  }\n}\n`);
  });

  it("sameText compares as printed: a list-like object equals the list", () => {
    const seq = parseJson("f.json", `{"0":"a","1":"b"}`).value as Json;
    expect(sameText(seq, ["a", "b"])).toBe(true);
    expect(sameText(parseJson("f.json", `{}`).value as Json, [])).toBe(true);
    expect(sameText(parseJson("f.json", `{"1":"a"}`).value as Json, ["a"])).toBe(false);
  });

  it.skipIf(skipReason("php") !== undefined)("agrees with PHP 8.2's json_decode(…, true) and json_encode", () => {
    for (const text of CASES) {
      const php = execFileSync("php", ["-r", "echo json_encode(json_decode(stream_get_contents(STDIN), true));"], {
        input: text,
        encoding: "utf8",
      });
      expect({ text, printed: JSON.parse(ours(text)) }).toEqual({ text, printed: JSON.parse(php) });
    }
  });
});
