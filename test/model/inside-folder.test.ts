// test/model/inside-folder.test.ts
// insideFolder: which relative paths a record may name. The cases are written out by hand.

import { describe, expect, it } from "vitest";
import { insideFolder } from "../../src/model/relative-path.js";

describe("insideFolder", () => {
  it("takes names below the folder, dotted names included, and nothing that leaves it or is not a file's path", () => {
    for (const p of [
      "a.json",
      "api/findIcon/file/php.json",
      ".htaccess",
      "hosts/apache/.htaccess",
      "a/.well-known/x",
      "...",
      "a/..b/c",
      "x..y.png",
    ]) {
      expect(insideFolder(p), p).toBe(true);
    }
    for (const p of ["", ".", "..", "../x", "a/../../b", "a/..", "/etc/passwd", "a//b", "a/", "./a", "a/./b", "a/."]) {
      expect(insideFolder(p), p).toBe(false);
    }
  });
});
