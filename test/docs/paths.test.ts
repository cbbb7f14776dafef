// test/docs/paths.test.ts
// Every repository path the README and docs/ name (src/…, test/…, bench/…, scripts/…, docs/…, schemas/…, bin/…,
// content/…) exists, so that a move or a rename cannot leave a doc pointing at nothing. `a-{1,2}.ts` names both.

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
