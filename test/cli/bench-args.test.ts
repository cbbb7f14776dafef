// test/cli/bench-args.test.ts
// Issue 10 point 11: `npm run bench -- --help` prints the options instead of starting a 2 GB run; unknown flags and
// bad values exit 2 before anything is built.

import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "../helpers/fixtures.js";

const bench = (...args: string[]) =>
  spawnSync(process.execPath, [path.join(REPO, "bench/run.mjs"), ...args], { encoding: "utf8", timeout: 20_000 });

describe("bench/run.mjs arguments", () => {
  it("--help and -h print the options and exit 0 at once", () => {
    for (const flag of ["--help", "-h"]) {
      const r = bench(flag);
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/^Usage: npm run bench -- \[options\]/);
      expect(r.stdout).toMatch(/--scales <list>/);
      expect(r.stderr).toBe("");
    }
  });

  it.each([
    ["--bogus"],
    ["--scales", "1,x"],
    ["--runs", "0"],
    ["--duration", "-1"],
    ["--runs"],
    ["extra"],
    ["--quick=yes"],
    ["--results", "../x"],
  ])("%s exits 2 with one reason before running anything", (...args) => {
    const r = bench(...args);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^bench: /);
    expect(r.stdout).toBe("");
  });
});
