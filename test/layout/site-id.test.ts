// test/layout/site-id.test.ts
// site.id names the inode of the --out a build swapped in. Its size must not depend on the inode: a build reports the
// bytes it wrote, and an update in place must report what a full build of the same site reports (the incremental
// property test compares them, and inodes of six and seven digits once made them differ by a byte).

import { describe, expect, it } from "vitest";
import { parseFolderIds, parseSiteId, printSiteId } from "../../src/layout/stamp.js";

describe("site.id", () => {
  it("is the same size for any inode, and reads back", () => {
    const sizes = new Set([1, 999_999, 1_000_000, 2 ** 32, Number.MAX_SAFE_INTEGER].map((n) => printSiteId(n).length));
    expect([...sizes]).toEqual([printSiteId(0).length]);
    for (const n of [0, 7, 1_000_000, Number.MAX_SAFE_INTEGER]) expect(parseSiteId(printSiteId(n))).toBe(n);
  });

  it("names each folder beside --out by its inode too, in the same size for any inodes", () => {
    const beside = (ino: number) => [
      { dir: ".netlify/v1", ino },
      { dir: ".vercel/output", ino: ino + 1 },
    ];
    const sizes = new Set([1, 999_999, 2 ** 40].map((n) => printSiteId(n, beside(n)).length));
    expect([...sizes]).toEqual([printSiteId(0, beside(0)).length]);
    const ids = parseFolderIds(printSiteId(7, beside(1_000_000)));
    expect(ids?.out).toBe(7);
    expect([...(ids?.beside ?? [])]).toEqual([
      [".netlify/v1", 1_000_000],
      [".vercel/output", 1_000_001],
    ]);
    expect(parseSiteId(printSiteId(7, beside(9)))).toBe(7);
    expect(parseFolderIds("ino 7\nnot a line\n")).toBeNull();
  });

  it("reads the records of earlier builds, which printed the inode as it is", () => {
    expect(parseSiteId("ino 2162740\n")).toBe(2162740);
  });
});
