// test/verify/compare.test.ts
// The comparison rules, on answers written by hand.

import { describe, expect, test } from "vitest";
import { compareAnswer, jsonDifference, sameContentType, type Expected } from "../../src/verify/compare-answers.js";
import { FloatLiteral, parseJsonLiterals } from "../../src/verify/json-literals.js";
import { sample, sampleOf } from "../../src/verify/requests.js";

const base = { baseUrl: "https://icons.example.org" };

describe("JSON bodies", () => {
  test("deep-equal, key order ignored; a changed or extra field is a difference with its place", () => {
    expect(jsonDifference({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 }, base)).toBeNull();
    expect(jsonDifference({ a: 1, b: { c: [1, 2] } }, { a: 1, b: { c: [1, 3] } }, base)).toBe(
      "$.b.c[1]: expected 2, received 3",
    );
    expect(jsonDifference({ a: 1 }, { a: 1, x: null }, base)).toBe("$.x: expected (absent), received null");
    expect(jsonDifference({ a: "1" }, { a: 1 }, base)).toBe('$.a: expected "1", received 1');
  });

  test("timestamp by form: any string", () => {
    expect(jsonDifference({ timestamp: "2024-01-01 00:00:00" }, { timestamp: "2031-05-06 07:08:09" }, base)).toBeNull();
    expect(jsonDifference({ timestamp: "2024-01-01 00:00:00" }, { timestamp: 5 }, base)).toMatch(/timestamp string/);
  });

  test("an icon's path by its ending icons/<filename>", () => {
    const want = { icon: { path: "icons/php.png" } };
    expect(jsonDifference(want, { icon: { path: "/var/www/site/icons/php.png" } }, base)).toBeNull();
    expect(jsonDifference(want, { icon: { path: "/var/www/site/icons/js.png" } }, base)).toMatch(
      /ending in "icons\/php.png"/,
    );
  });

  test("absolute URLs under the base URL by form: any origin, same path", () => {
    const want = { url: "https://icons.example.org/icons/php.png" };
    expect(jsonDifference(want, { url: "http://127.0.0.1:8080/icons/php.png" }, base)).toBeNull();
    expect(jsonDifference(want, { url: "https://icons.example.org/icons/js.png" }, base)).toMatch(
      /absolute URL ending in "\/icons\/php.png"/,
    );
    expect(jsonDifference(want, { url: "/icons/php.png" }, base)).toMatch(/absolute URL/);
    // Other strings are exact.
    expect(jsonDifference({ url: "https://elsewhere.org/x" }, { url: "https://other.org/x" }, base)).not.toBeNull();
  });

  test('a list is no object: PHP prints {} and {"0":…} as lists, and a client sees the type', () => {
    expect(jsonDifference({ a: [] }, { a: {} }, base)).toBe("$.a: expected an array, received {}");
    expect(jsonDifference({ a: {} }, { a: [] }, base)).toBe("$.a: expected an object, received []");
    expect(jsonDifference({ a: ["x"] }, { a: { 0: "x" } }, base)).toBe('$.a: expected an array, received {"0":"x"}');
    expect(jsonDifference(JSON.parse('{"0":"x"}'), ["x"], base)).toBe('$: expected an object, received ["x"]');
  });

  test("a whole number written as a float is not the integer: 1.0e+20 against 100000000000000000000", () => {
    const parse = (text: string): unknown => parseJsonLiterals(text);
    expect(parse("[1.0e+20, 1, 1.5, -0, 2e0]")).toEqual([
      new FloatLiteral(1e20, "1.0e+20"),
      1,
      1.5,
      -0,
      new FloatLiteral(2, "2e0"),
    ]);
    expect(jsonDifference(parse('{"n":1.0e+20}'), parse('{"n":100000000000000000000}'), base)).toBe(
      "$.n: expected 1.0e+20, received 100000000000000000000 (a float and an integer to a typed client)",
    );
    expect(jsonDifference(parse('{"n":1}'), parse('{"n":1.0}'), base)).toBe(
      "$.n: expected 1, received 1.0 (a float and an integer to a typed client)",
    );
    // The same float in another spelling, and numbers that are not whole, are the same.
    expect(jsonDifference(parse("[1.0e+20, 0.5]"), parse("[1e20, 5e-1]"), base)).toBeNull();
    expect(jsonDifference(parse("[2.0]"), parse("[3.0]"), base)).toBe("$[0]: expected 2.0, received 3.0");
    // -0 is not 0 (PHP prints a float -0.0 as -0).
    expect(jsonDifference(parse("[-0]"), parse("[0]"), base)).toBe("$[0]: expected -0, received 0");
  });

  test("the literal-keeping reader reads what JSON.parse reads, strings and keys included", () => {
    const text = '{"__proto__": [1.0, "a\\"1.0\\"", {"k": -2.0E3}], "s": "x", "t": true, "n": null, "e": {}}';
    const parsed = parseJsonLiterals(text) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(["__proto__", "s", "t", "n", "e"]);
    expect(JSON.stringify(parsed)).toBe(JSON.stringify(JSON.parse(text)));
    expect(() => parseJsonLiterals("[1.0,")).toThrow(SyntaxError);
  });
});

describe("Content-Type", () => {
  test("media type and charset, case-insensitively; JSON without charset is UTF-8", () => {
    expect(sameContentType("application/json", "Application/JSON; charset=UTF-8")).toBe(true);
    expect(sameContentType("application/json", "text/html")).toBe(false);
    expect(sameContentType("text/css; charset=utf-8", "text/css")).toBe(true);
    expect(sameContentType("text/plain; charset=utf-8", "text/plain; charset=iso-8859-1")).toBe(false);
    expect(sameContentType("image/vnd.microsoft.icon", "image/x-icon")).toBe(true);
    expect(sameContentType("image/png", undefined)).toBe(false);
  });

  test("text/plain without a charset matches UTF-8 only for an ASCII body", () => {
    expect(sameContentType("text/plain; charset=utf-8", "text/plain", Buffer.from("plain ascii\n"))).toBe(true);
    expect(sameContentType("text/plain; charset=utf-8", "text/plain", Buffer.from("café\n"))).toBe(false);
  });
});

describe("whole answers", () => {
  const want: Expected = {
    status: 200,
    headers: {
      "content-type": "application/json",
      "cache-control": "public, max-age=3600",
      "access-control-allow-origin": "*",
    },
    body: { kind: "json", value: { success: true } },
  };
  const received = {
    status: 200,
    headers: {
      "content-type": "application/json",
      "cache-control": "public, max-age=3600",
      "access-control-allow-origin": "*",
    },
    body: Buffer.from('{"success":true}'),
  };

  test("a match has no difference; each field that differs is one line", () => {
    expect(compareAnswer(want, received, base)).toEqual([]);
    expect(
      compareAnswer(
        want,
        { ...received, status: 404, headers: { ...received.headers, "cache-control": undefined } },
        base,
      ),
    ).toEqual([
      "status: expected 200, received 404",
      'cache-control: expected "public, max-age=3600", received (absent)',
    ]);
  });

  test("HTML where JSON is due", () => {
    expect(compareAnswer(want, { ...received, body: Buffer.from("<!doctype html><p>app") }, base)).toEqual([
      'body: expected JSON, received "<!doctype html><p>app"',
    ]);
  });

  test("plain files by sha256 and size", () => {
    // sha256("abc"), from RFC 6234's test vectors.
    const file: Expected = {
      status: 200,
      headers: {},
      body: { kind: "bytes", size: 3, sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
    };
    expect(compareAnswer(file, { status: 200, headers: {}, body: Buffer.from("abc") }, base)).toEqual([]);
    expect(compareAnswer(file, { status: 200, headers: {}, body: Buffer.from("abd") }, base)).toHaveLength(1);
  });
});

test("--sample is deterministic, of the size asked, in order, and changes with the seed", () => {
  const list = Array.from({ length: 1000 }, (_, i) => i);
  const a = sample(list, 50, 7);
  expect(a).toEqual(sample(list, 50, 7));
  expect(a).toHaveLength(50);
  expect(new Set(a).size).toBe(50);
  expect([...a].sort((x, y) => x - y)).toEqual(a);
  expect(sample(list, 50, 8)).not.toEqual(a);
});

test("a sample of a generated sequence (verify's requests, never listed whole) picks the same items as of the list", () => {
  const list = Array.from({ length: 1000 }, (_, i) => `r${i}`);
  let generated = 0;
  const generate = function* (): Generator<string> {
    generated += 1;
    yield* list;
  };
  expect(sampleOf(generate, 50, 7)).toEqual(sample(list, 50, 7));
  expect(sampleOf(generate, 2000, 7)).toEqual(list);
  expect(generated).toBe(4); // counted, then picked: twice per sample
});

test("docs/verify.md renders the documented static fallbacks table as shipped", async () => {
  const { readFile } = await import("node:fs/promises");
  const { renderFallbackTable } = await import("../../src/verify/fallbacks.js");
  const page = await readFile(new URL("../../docs/verify.md", import.meta.url), "utf8");
  expect(page).toContain(renderFallbackTable());
});
