// test/layout/site-id.test.ts
// site.id names the inode of the --out a build swapped in. Its size must not depend on the inode: a build reports the
// bytes it wrote, and an update in place must report what a full build of the same site reports (the incremental
// property test compares them, and inodes of six and seven digits once made them differ by a byte).

import { describe, expect, it } from "vitest";
import { parseSiteId, printSiteId } from "../../src/layout/stamp.js";

describe("site.id", () => {
  it("is the same size for any inode, and reads back", () => {
    const sizes = new Set([1, 999_999, 1_000_000, 2 ** 32, Number.MAX_SAFE_INTEGER].map((n) => printSiteId(n).length));
    expect([...sizes]).toEqual([printSiteId(0).length]);
    for (const n of [0, 7, 1_000_000, Number.MAX_SAFE_INTEGER]) expect(parseSiteId(printSiteId(n))).toBe(n);
  });

  it("reads the records of earlier builds, which printed the inode as it is", () => {
    expect(parseSiteId("ino 2162740\n")).toBe(2162740);
  });
});
