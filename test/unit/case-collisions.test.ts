// test/unit/case-collisions.test.ts
// caseCollisions holds only the paths that lower case changes: checked against the plain grouping of every path by
// its lower case, on random lists with case variants (ASCII and not) across folders.

import { describe, expect, it } from "vitest";
import { caseCollisions, type OutputFile } from "../../src/output/plan.js";

/** Every path grouped by its lower case; the groups of more than one, in the order of their first path. */
function reference(paths: string[]): string[][] {
  const groups = new Map<string, string[]>();
  for (const p of paths) groups.set(p.toLowerCase(), [...(groups.get(p.toLowerCase()) ?? []), p]);
  return [...groups.values()].filter((g) => g.length > 1);
}

function random(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

describe("caseCollisions", () => {
  it("finds the groups that every path grouped by its lower case finds, in the same order", () => {
    const names = ["php.png", "PHP.png", "Php.png", "ä.svg", "Ä.svg", "readme.md", "api/x.json", "İ.png", "i̇.png", "z"];
    const folders = ["", "icons/", "Icons/", "api/findIcon/", "api/findicon/"];
    let collided = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const next = random(seed);
      const paths = new Set<string>();
      const n = 1 + Math.floor(next() * 12);
      for (let i = 0; i < n; i++) paths.add(folders[Math.floor(next() * folders.length)]! + names[Math.floor(next() * names.length)]!);
      const files: OutputFile[] = [...paths].map((p) => ({ path: p, data: "" }));
      const expected = reference([...paths]);
      if (expected.length > 0) collided++;
      expect(caseCollisions(files), [...paths].join(" ")).toEqual(expected);
    }
    expect(collided).toBeGreaterThan(100);
  });

  it("finds none among paths that differ in more than case", () => {
    expect(caseCollisions(["a/b.png", "a/c.png", "A/d.png", "b.png"].map((p) => ({ path: p, data: "" })))).toEqual([]);
  });
});
