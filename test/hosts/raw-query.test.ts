// test/hosts/raw-query.test.ts
// The raw-query patterns nginx and Apache match a query with (src/hosts/shared/raw-query.ts), read here by
// JavaScript's RegExp (the patterns use no PCRE-only syntax but `(?i:…)`, which sets of safe values alone use): a value
// must match each raw spelling that PHP decodes to it, and no spelling that PHP decodes to another value. The real
// servers are judged by test/hosts/generated-differential.server.test.ts.

import { describe, expect, it } from "vitest";
import { parsePhpQuery } from "../../src/php/php-request.js";
import { lastParamPattern, rawLiteralPattern } from "../../src/hosts/shared/raw-query.js";

const matcher = (value: string, ignoreCase = false): RegExp =>
  new RegExp(lastParamPattern("extension", rawLiteralPattern(value, ignoreCase)));

/** Whether PHP reads `value` for extension from the raw query (what the pattern must agree with). */
const phpReads = (query: string, value: string): boolean => parsePhpQuery(query).get("extension") === value;

describe("raw-query patterns agree with PHP's decoding", () => {
  it('a "%" that starts no escape is itself, sent raw (browsers do) or as %25', () => {
    for (const value of ["100%", "%zz", "a%", "%", "%4"]) {
      const m = matcher(value);
      for (const sent of [value, value.replace(/%/g, "%25")]) {
        const query = `action=findIcon&extension=${sent}`;
        expect([sent, m.test(query)]).toEqual([sent, phpReads(query, value)]);
        expect(m.test(query), sent).toBe(true);
      }
    }
  });

  it('a "%" with two hex digits after it is an escape: not the value that holds "%"', () => {
    const m = matcher("%41x");
    expect(m.test("extension=%41x")).toBe(false); // PHP reads "Ax"
    expect(phpReads("extension=%41x", "Ax")).toBe(true);
    expect(m.test("extension=%2541x")).toBe(true);
  });

  it("a letter percent-encoded is no spelling of the value, ignoring case or not (the raw-query fallback)", () => {
    expect(matcher("ab", true).test("extension=AB")).toBe(true);
    expect(matcher("ab", true).test("extension=%61b")).toBe(false);
    expect(matcher("ab").test("extension=%61b")).toBe(false);
    // Non-ASCII characters are matched percent-encoded, as browsers send them.
    expect(matcher("éb", true).test("extension=%C3%A9B")).toBe(true);
  });
});
