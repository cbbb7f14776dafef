// test/model/changed-values.test.ts
// changedEntries (src/model/changed-values.ts): the changed entries of two maps with the same keys in the same order,
// null when the keys differ; the answer kept for a map is given again only for the same map before it and the same
// comparison.

import { describe, expect, it } from "vitest";
import { changedEntries } from "../../src/model/changed-values.js";

const map = (entries: Array<[string, string]>): Map<string, string> => new Map(entries);

describe("changedEntries", () => {
  const a = map([
    ["php", "php.png"],
    ["js", "js.svg"],
    ["md", "text.png"],
  ]);
  const b = map([
    ["php", "php.png"],
    ["js", "text.png"],
    ["md", "md.png"],
  ]);

  it("gives the changed entries by key and position, and null when the keys differ", () => {
    expect(changedEntries(a, b)).toEqual({ keys: ["js", "md"], at: [1, 2] });
    expect(changedEntries(a, a)).toEqual({ keys: [], at: [] });
    expect(
      changedEntries(
        a,
        map([
          ["php", "php.png"],
          ["md", "text.png"],
          ["js", "js.svg"],
        ]),
      ),
    ).toBeNull();
    expect(
      changedEntries(
        a,
        map([
          ["php", "php.png"],
          ["js", "js.svg"],
        ]),
      ),
    ).toBeNull();
    expect(
      changedEntries(
        a,
        map([
          ["php", "x"],
          ["js", "js.svg"],
          ["mdx", "text.png"],
        ]),
      ),
    ).toBeNull();
  });

  it("answers again for the same two maps and comparison, and anew for another map before or another comparison", () => {
    const first = changedEntries(a, b);
    expect(changedEntries(a, b)).toBe(first);
    const c = map([
      ["php", "x.png"],
      ["js", "text.png"],
      ["md", "md.png"],
    ]);
    expect(changedEntries(c, b)).toEqual({ keys: ["php"], at: [0] });
    const alike = (): boolean => true;
    expect(changedEntries(c, b, alike)).toEqual({ keys: [], at: [] });
    expect(changedEntries(a, b)).toEqual(first);
  });
});
