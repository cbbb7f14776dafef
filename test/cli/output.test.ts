// test/cli/output.test.ts
// Issue 10 point 4: colours honour NO_COLOR, FORCE_COLOR and non-TTY output; sizes are human-readable; many warnings
// are summarised by code (every line with --verbose); did-you-mean finds near names only.

import { describe, expect, it } from "vitest";
import { colorEnabled, diagnosticLines, humanBytes, humanMs, type Io } from "../../src/cli/output.js";
import { closest, editDistance } from "../../src/cli/suggest.js";
import type { Diagnostic } from "../../src/errors.js";

const tty = { isTTY: true, hasColors: () => true };
const pipe = { isTTY: false };

describe("colours", () => {
  it("are on for a colour terminal, off for pipes and files", () => {
    expect(colorEnabled(tty, {})).toBe(true);
    expect(colorEnabled(pipe, {})).toBe(false);
    expect(colorEnabled({ isTTY: true, hasColors: () => false }, {})).toBe(false);
  });
  it("NO_COLOR (non-empty) turns them off on a terminal; an empty NO_COLOR does not", () => {
    expect(colorEnabled(tty, { NO_COLOR: "1" })).toBe(false);
    expect(colorEnabled(tty, { NO_COLOR: "" })).toBe(true);
  });
  it("FORCE_COLOR turns them on for a pipe (and wins over NO_COLOR); FORCE_COLOR=0 turns them off", () => {
    expect(colorEnabled(pipe, { FORCE_COLOR: "1" })).toBe(true);
    expect(colorEnabled(pipe, { FORCE_COLOR: "1", NO_COLOR: "1" })).toBe(true);
    expect(colorEnabled(tty, { FORCE_COLOR: "0" })).toBe(false);
    expect(colorEnabled(pipe, { FORCE_COLOR: "" })).toBe(false);
  });
});

describe("sizes and times", () => {
  it.each([
    [0, "0 B"],
    [999, "999 B"],
    [1000, "1.0 kB"],
    [125_400, "125 kB"],
    [1_234_567, "1.2 MB"],
    [999_999, "1.0 MB"],
    [2_340_000_000, "2.3 GB"],
  ])("%i bytes is %s", (bytes, text) => expect(humanBytes(bytes)).toBe(text));
  it("milliseconds below a second, seconds above", () => {
    expect(humanMs(412.4)).toBe("412 ms");
    expect(humanMs(12_345)).toBe("12.3 s");
  });
});

const warning = (code: string, i: number): Diagnostic => ({
  severity: "warning",
  code,
  file: "content/icons.json",
  pointer: `/k${i}`,
  message: `warning ${i}`,
});
const io: Io = { out: () => {}, err: () => {} };

describe("warnings", () => {
  const many = [
    ...Array.from({ length: 101 }, (_, i) => warning("ICON_MISSING", i)),
    ...Array.from({ length: 2 }, (_, i) => warning("KEY_NOT_LOWERCASE", i)),
  ];

  it("101 warnings of one code are summarised: the first 3 of each code, a count of the rest, one total line", () => {
    const lines = diagnosticLines(io, many, false);
    expect(lines.filter((l) => l.includes("[ICON_MISSING]") && l.includes("warning:"))).toHaveLength(3);
    expect(lines).toContain("  … and 98 more warnings [ICON_MISSING] (--verbose lists every one)");
    expect(lines.filter((l) => l.includes("[KEY_NOT_LOWERCASE]"))).toHaveLength(2);
    expect(lines.at(-1)).toBe("103 warnings: ICON_MISSING 101, KEY_NOT_LOWERCASE 2.");
  });

  it("--verbose prints every warning", () => {
    expect(diagnosticLines(io, many, true)).toHaveLength(103);
  });

  it("errors are never summarised, and 10 warnings or fewer are printed in full", () => {
    const errors: Diagnostic[] = Array.from({ length: 20 }, (_, i) => ({ ...warning("SCHEMA", i), severity: "error" }));
    expect(diagnosticLines(io, errors, false)).toHaveLength(20);
    expect(diagnosticLines(io, many.slice(0, 10), false)).toHaveLength(10);
  });
});

describe("did you mean", () => {
  it("finds near names (typos, swapped letters) and nothing for far ones", () => {
    const commands = ["build", "check", "preview", "dev", "init"];
    expect(closest("chek", commands)).toBe("check");
    expect(closest("biuld", commands)).toBe("build");
    expect(closest("preveiw", commands)).toBe("preview");
    expect(closest("deploy", commands)).toBeUndefined();
    expect(closest("ngnix", ["netlify", "apache", "nginx", "vercel", "cloudflare"])).toBe("nginx");
    expect(editDistance("ab", "ba")).toBe(1);
  });
});
