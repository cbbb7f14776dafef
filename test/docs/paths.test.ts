// test/docs/paths.test.ts
// Every repository path the README and docs/ name (src/…, test/…, bench/…, scripts/…, docs/…, schemas/…, bin/…,
// content/…) exists, so that a move or a rename cannot leave a doc pointing at nothing. `a-{1,2}.ts` names both.
// And every doc the code's comments cite (`docs/layout.md`, `reference-behaviour.md §9`) is in the repository.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "../helpers/fixtures.js";

const DOCS = [
  "README.md",
  ...readdirSync(path.join(REPO, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const PATH = /(?<![\w./-])((?:src|test|bench|scripts|docs|schemas|bin|content)\/[\w./{},-]*[\w}/])/g;

/** `a-{1,2}.ts` → a-1.ts, a-2.ts (one level of braces, as the docs write them). */
function expand(mention: string): string[] {
  const m = /^(.*)\{([^{}]*)\}(.*)$/.exec(mention);
  return m === null ? [mention] : m[2]!.split(",").flatMap((part) => expand(`${m[1]}${part}${m[3]}`));
}

describe("paths named by the docs", () => {
  for (const doc of DOCS) {
    it(`${doc}: every path it names exists`, () => {
      const text = readFileSync(path.join(REPO, doc), "utf8");
      const missing = new Set<string>();
      for (const [, mention] of text.matchAll(PATH)) {
        for (const p of expand(mention!.replace(/[.,]$/, ""))) if (!existsSync(path.join(REPO, p))) missing.add(p);
      }
      expect([...missing]).toEqual([]);
    });
  }
});

/** The code's own files, by extension, under the folders that hold code. */
function codeFiles(dir: string): string[] {
  return readdirSync(path.join(REPO, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(?:ts|mjs|js)$/.test(f) && !f.includes("node_modules"))
    .map((f) => `${dir}/${f}`);
}

describe("docs the code cites in its comments", () => {
  it("exist: a path as named, a bare name (`reference-behaviour.md §9`) in docs/ or at the root", () => {
    const missing = new Set<string>();
    for (const file of ["src", "test", "scripts", "bench"].flatMap(codeFiles)) {
      readFileSync(path.join(REPO, file), "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (!/^\s*(?:\/\/|\*|\/\*)/.test(line)) return;
          for (const [name] of line.matchAll(/(?<![\w./-])[\w./-]+\.md\b/g)) {
            const places = name.includes("/") ? [name] : [name, `docs/${name}`];
            if (!places.some((p) => existsSync(path.join(REPO, p)))) missing.add(`${file}:${i + 1}: ${name}`);
          }
        });
    }
    expect([...missing]).toEqual([]);
  });
});
