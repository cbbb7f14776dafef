// test/output/folder-runs.test.ts
// FolderRuns: each path's folder, sliced only when it changes. The expected folders are written out by hand.

import { describe, expect, it } from "vitest";
import { FolderRuns } from "../../src/output/manifests/folder-runs.js";

describe("FolderRuns", () => {
  it("gives each path's folder and says where a new run starts, whatever the neighbours' names", () => {
    const paths = [
      "a.json",
      "b.json",
      "a/x.json",
      "a/y.json",
      "a/b/z.json",
      "a/bc/z.json",
      "ab/z.json",
      "a/z.json",
      "top.json",
      "b/x.json",
    ];
    const runs = new FolderRuns();
    const seen = paths.map((p) => [runs.next(p), runs.folder]);
    expect(seen).toEqual([
      [true, ""],
      [false, ""],
      [true, "a"],
      [false, "a"],
      [true, "a/b"],
      [true, "a/bc"],
      [true, "ab"],
      [true, "a"],
      [true, ""],
      [true, "b"],
    ]);
  });
});
