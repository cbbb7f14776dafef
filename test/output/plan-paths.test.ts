// test/output/plan-paths.test.ts
// servedByEdge tells answers from the site's other files without making their paths (a ×100 site has 590,000):
// checked against the paths themselves, for every file of the demo site.

import { describe, expect, it } from "vitest";
import { compile } from "../../src/pipeline/compile.js";
import { servedByEdge } from "../../src/output/plan/site.js";
import { sortedByPath } from "../../src/output/plan/files.js";
import { DEMO_CONTENT } from "../helpers/fixtures.js";

describe("servedByEdge", () => {
  it("agrees with each file's path: answers (all in api/) are not served by an edge host's upload, the rest are", async () => {
    const { site } = await compile({ content: DEMO_CONTENT, sourceDateEpoch: "1704067200" });
    expect(site.filter((f) => f.path.startsWith("api/")).length).toBeGreaterThan(100);
    expect(site.filter((f) => !f.path.startsWith("api/")).length).toBeGreaterThan(10);
    for (const f of site) expect(servedByEdge(f), f.path).toBe(!f.path.toLowerCase().startsWith("api/"));
  });
});

describe("sortedByPath", () => {
  it("sorts as a stable sort by path does, asking each file's path once", () => {
    let asked = 0;
    const file = (path: string, tag: number): { readonly path: string; tag: number } => ({
      get path() {
        asked++;
        return path;
      },
      tag,
    });
    const paths = ["b/x", "a", "icons/z.png", "a", "B", "icons/a.png", "a/b", "icons/z.png"];
    const files = paths.map(file);
    const sorted = sortedByPath(files);
    expect(asked).toBe(files.length);
    const expected = paths.map((p, tag) => ({ p, tag })).sort((x, y) => (x.p < y.p ? -1 : x.p > y.p ? 1 : 0));
    expect(sorted.map((f) => f.tag)).toEqual(expected.map((e) => e.tag));
    const again = sortedByPath(sorted);
    expect(again, "in order already: the same list").toBe(sorted);
  });
});
