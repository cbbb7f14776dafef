// test/output/file-path.test.ts
// filePath (src/output/plan/file-path.ts) joins by concatenation where it can: its text must be Node's path.join's for
// every folder and relative path, plain or not (".", "..", empty names, a trailing or leading "/"), and whichever
// folder was asked for last.

import path from "node:path";
import { describe, expect, test } from "vitest";
import { filePath } from "../../src/output/plan/file-path.js";
import { prng } from "../../scripts/prng.mjs";

const DIRS = [
  "/",
  "/work/site/dist",
  "/work/site/dist/",
  "/work//site/./dist",
  "/work/site/../dist",
  "dist",
  "./dist",
  "",
  ".",
  "..",
  "/é/日本",
  // More folders than filePath keeps at once (64).
  ...Array.from({ length: 80 }, (_, i) => `/tmp/site-${i}${i % 2 === 0 ? "//" : "/"}dist${i % 3 === 0 ? "/" : ""}`),
];
const NAMES = ["a", "b.json", ".", "..", "", ".hidden", "x y", "é", "...", "a.", "-"];

describe("filePath", () => {
  test("is path.join's text, for random folders and paths, folders alternating (more of them than it keeps)", () => {
    const random = prng(5);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    let plain = 0;
    for (let i = 0; i < 20_000; i++) {
      const dir = pick(DIRS);
      const names = Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(NAMES));
      const rel = `${random() < 0.05 ? "/" : ""}${names.join("/")}${random() < 0.05 ? "/" : ""}`;
      if (
        path.isAbsolute(dir) &&
        names.every((n) => n !== "" && n !== "." && n !== "..") &&
        !rel.startsWith("/") &&
        !rel.endsWith("/")
      )
        plain++;
      expect(filePath(dir, rel), `${JSON.stringify(dir)} + ${JSON.stringify(rel)}`).toBe(path.join(dir, rel));
    }
    // The concatenation was taken often, not only path.join's way.
    expect(plain).toBeGreaterThan(2_000);
  });

  test("plain paths under an absolute folder", () => {
    expect(filePath("/work/site/dist", "api/findIcon/file/php.json")).toBe(
      "/work/site/dist/api/findIcon/file/php.json",
    );
    expect(filePath("/", "icons/php.png")).toBe("/icons/php.png");
    expect(filePath("/work//x/./y/", "a/.b")).toBe("/work/x/y/a/.b");
    expect(filePath("/work/x", "a/../b")).toBe("/work/x/b");
  });
});
