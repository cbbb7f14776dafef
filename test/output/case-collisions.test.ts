// test/output/case-collisions.test.ts
// caseCollisions holds only the paths that lower case changes: checked against the plain grouping of every path by
// its lower case, on random lists with case variants (ASCII and not) across folders.

import { describe, expect, it } from "vitest";
import * as A from "../../src/php/answers.js";
import { caseCollisions } from "../../src/output/plan/case-collisions.js";
import type { OutputFile } from "../../src/output/plan/files.js";
import { AnswerFiles } from "../../src/routes/answer-files.js";
import { makeSite } from "../helpers/site.js";

/** Every path grouped by its lower case; the groups of more than one, in the order of their first path. */
function reference(paths: string[]): string[][] {
  const groups = new Map<string, string[]>();
  for (const p of paths) groups.set(p.toLowerCase(), [...(groups.get(p.toLowerCase()) ?? []), p]);
  return [...groups.values()].filter((g) => g.length > 1);
}

function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
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
      for (let i = 0; i < n; i++)
        paths.add(folders[Math.floor(next() * folders.length)]! + names[Math.floor(next() * names.length)]!);
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

  it("finds the same among answers in sets, of every shape of name, beside other files", () => {
    // Members as build-routes.ts makes them (safe ASCII values): one case each, or mixed; sets may share a folder.
    const words = ["php", "PHP", "Php", "pHp", "7z", "7Z", "a", "A", "tar-gz", "TAR-GZ", "Tar-gz", "x_1", "X_1"];
    const dirs = ["/api/findIcon/file", "/api/findIcon/file-upper", "/api/findIcon/File", "/api/icon"];
    const others = ["api/icon/php.json", "api/icon/PHP.json", "api/findIcon/file/~632b.json", "icons/php.png"];
    const sample = A.findIcon(makeSite(), undefined, "php");
    let collided = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const next = random(seed);
      const answers = new AnswerFiles();
      const taken = new Set<string>();
      for (let s = 1 + Math.floor(next() * 3); s > 0; s--) {
        const dir = dirs[Math.floor(next() * dirs.length)]!;
        const members = [...new Set(words.filter(() => next() < 0.3))]
          .filter((m) => !taken.has(`${dir}/${m}`))
          .sort((a, b) => (Buffer.from(a) < Buffer.from(b) ? -1 : 1));
        for (const m of members) taken.add(`${dir}/${m}`);
        if (members.length > 0) answers.addSet(dir, members, () => sample, sample);
      }
      const plain: OutputFile[] = others.filter(() => next() < 0.3).map((p) => ({ path: p, data: "" }));
      const files: OutputFile[] = [...plain, ...answers.seal().outputs()];
      const paths = files.map((f) => f.path);
      if (new Set(paths).size !== paths.length) continue; // a path written twice is refused elsewhere
      const expected = reference(paths);
      if (expected.length > 0) collided++;
      expect(caseCollisions(files), paths.join(" ")).toEqual(expected);
    }
    expect(collided).toBeGreaterThan(100);
  });
});
