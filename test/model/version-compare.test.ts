// test/model/version-compare.test.ts
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { canonicalizeVersion, versionCompare } from "../../src/model/version-compare.js";

describe("versionCompare (PHP version_compare semantics)", () => {
  it("orders the cases behaviour.md names", () => {
    expect(versionCompare("1.1.2", "1.1.10")).toBe(-1);
    expect(versionCompare("1.1.10", "1.1.2")).toBe(1);
    // `r` ranks below every special form, so 1.2.0 counts as newer than 1.2.0-r2.
    expect(versionCompare("1.2.0", "1.2.0-r2")).toBe(1);
    expect(versionCompare("1.2.0-r2", "1.2.0")).toBe(-1);
    expect(versionCompare("1.2.0-r1", "1.2.0-r2")).toBe(-1);
    expect(versionCompare("1.2.0-dev", "1.2.0-alpha")).toBe(-1);
    expect(versionCompare("1.2.0-RC1", "1.2.0")).toBe(-1);
    expect(versionCompare("1.2.0-pl1", "1.2.0")).toBe(1);
    expect(versionCompare("1.0", "1.0.0")).toBe(-1);
    expect(versionCompare("1.2.0", "1.2.0")).toBe(0);
  });

  it("canonicalizes like php_canonicalize_version", () => {
    expect(canonicalizeVersion("1.2.0-r2")).toBe("1.2.0.r.2");
    expect(canonicalizeVersion("1.0RC1")).toBe("1.0.RC.1");
    expect(canonicalizeVersion("1__2++3")).toBe("1.2.3");
    expect(canonicalizeVersion("-1")).toBe("-.1");
  });

  // Every pair of 73 versions (§2 shapes of reference-behaviour.md included), answered by PHP 8.2's own version_compare (test/golden/version-compare.php).
  const golden = JSON.parse(readFileSync(new URL("../golden/version-compare.php.json", import.meta.url), "utf8")) as {
    cases: Array<[string, string, number]>;
  };
  it(`agrees with PHP on ${golden.cases.length} pairs`, () => {
    expect(golden.cases.length).toBeGreaterThan(2000);
    const wrong = golden.cases.filter(([a, b, want]) => versionCompare(a, b) !== want);
    expect(wrong).toEqual([]);
  });
});
