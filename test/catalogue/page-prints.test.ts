// test/catalogue/page-prints.test.ts
// Issue 28: an in-place update keeps a catalogue page whose print is the last build's without making it
// (src/catalogue/index.ts: pagePrints). That holds only if the print covers everything the page shows: after random
// edits of a view, every page whose print is unchanged renders the same text, and most pages keep their print.

import { describe, expect, it } from "vitest";
import { pagePrints } from "../../src/catalogue/index.js";
import { cataloguePlan, type CatalogueView } from "../../src/catalogue/page.js";
import { RowCache } from "../../src/catalogue/row-cache.js";
import type { IconEntry, MappingEntry } from "../../src/catalogue/rows.js";
import { prng } from "../../scripts/prng.mjs";

const TOOL = "tool-1";

function view(icons: number, mappings: number): CatalogueView {
  const iconList: IconEntry[] = Array.from({ length: icons }, (_, i) => ({
    name: `icon-${String(i).padStart(5, "0")}.png`,
    size: 100 + i,
    width: 16,
    height: 16,
    keys: i % 3 === 0 ? [] : [`e${i}`],
  }));
  const mappingList: MappingEntry[] = Array.from({ length: mappings }, (_, i) => ({
    key: `e${i}`,
    icon: `icon-${String(i % icons).padStart(5, "0")}.png`,
    exists: i % 7 !== 0,
    indexing: i % 2 === 0 ? "index_x" : null,
    viewing: null,
  }));
  return {
    service: "Indexer API",
    serviceVersion: "1.2.0",
    description: "Icons",
    configVersion: "1.2.0",
    versions: ["1.0", "1.2.0"],
    builtAt: "2024-01-01 00:00:00",
    baseUrl: "https://icons.example.org",
    icons: iconList,
    mappings: mappingList,
    problems: [{ where: "icons.json:3:5", message: "missing", hint: "add it" }],
    favicon: "icons/text.png",
  };
}

type Edit = (v: CatalogueView, next: () => number) => CatalogueView;
const pick = <T>(list: readonly T[], next: () => number): number => Math.floor(next() * list.length);
const EDITS: Array<[string, Edit]> = [
  [
    "an icon's keys",
    (v, next) => {
      const icons = [...v.icons];
      const i = pick(icons, next);
      icons[i] = { ...icons[i]!, keys: [...icons[i]!.keys, "new"] };
      return { ...v, icons };
    },
  ],
  [
    "an unmapped icon mapped (the count every page of icons shows)",
    (v, next) => {
      const icons = [...v.icons];
      const unmapped = icons.flatMap((icon, i) => (icon.keys.length === 0 ? [i] : []));
      const i = unmapped[pick(unmapped, next)]!;
      icons[i] = { ...icons[i]!, keys: ["new"] };
      return { ...v, icons };
    },
  ],
  [
    "an icon's size",
    (v, next) => {
      const icons = [...v.icons];
      const i = pick(icons, next);
      icons[i] = { ...icons[i]!, size: icons[i]!.size + 1, width: 32 };
      return { ...v, icons };
    },
  ],
  [
    "an icon's size alone",
    (v, next) => {
      const icons = [...v.icons];
      const i = pick(icons, next);
      icons[i] = { ...icons[i]!, size: icons[i]!.size + 2048 };
      return { ...v, icons };
    },
  ],
  [
    "an icon added at the end",
    (v) => ({ ...v, icons: [...v.icons, { name: "zz.png", size: 1, width: null, height: null, keys: [] }] }),
  ],
  ["an icon removed", (v, next) => ({ ...v, icons: v.icons.filter((_, i) => i !== pick(v.icons, next)) })],
  [
    "a mapping's icon",
    (v, next) => {
      const mappings = [...v.mappings];
      const i = pick(mappings, next);
      mappings[i] = { ...mappings[i]!, icon: "other.png", exists: false };
      return { ...v, mappings };
    },
  ],
  [
    "a mapping's icon gone from icons/ or back (the name unchanged)",
    (v, next) => {
      const mappings = [...v.mappings];
      const i = pick(mappings, next);
      mappings[i] = { ...mappings[i]!, exists: !mappings[i]!.exists };
      return { ...v, mappings };
    },
  ],
  [
    "twelve keys for one of the first icons, or one more after the twelve its row shows",
    (v, next) => {
      const icons = [...v.icons];
      const i = Math.floor(next() * 3);
      const keys = icons[i]!.keys;
      icons[i] = {
        ...icons[i]!,
        keys: keys.length < 12 ? Array.from({ length: 12 }, (_, k) => `k${k}`) : [...keys, `more${keys.length}`],
      };
      return { ...v, icons };
    },
  ],
  [
    "a mapping's setting",
    (v, next) => {
      const mappings = [...v.mappings];
      const i = pick(mappings, next);
      mappings[i] = { ...mappings[i]!, viewing: "view_x" };
      return { ...v, mappings };
    },
  ],
  ["a mapping removed", (v, next) => ({ ...v, mappings: v.mappings.filter((_, i) => i !== pick(v.mappings, next)) })],
  [
    "a mapping's key and icon with the row key's separators and HTML's specials",
    (v, next) => {
      const mappings = [...v.mappings];
      const i = pick(mappings, next);
      mappings[i] = { ...mappings[i]!, key: `a|${i}:b&<`, icon: `x|1:"y'.png`, indexing: "-", viewing: "1:-" };
      return { ...v, mappings };
    },
  ],
  [
    "an icon's name and keys with the row key's separators",
    (v, next) => {
      const icons = [...v.icons];
      const i = pick(icons, next);
      icons[i] = { ...icons[i]!, name: `n|${i}:<&>.png`, keys: ["k|1:a", "|", ":", ...icons[i]!.keys] };
      return { ...v, icons };
    },
  ],
  ["a problem", (v) => ({ ...v, problems: [...v.problems, { where: "icons.json:9:1", message: "also missing" }] })],
  ["the build time", (v) => ({ ...v, builtAt: "2024-01-02 00:00:00" })],
  ["the config version", (v) => ({ ...v, configVersion: "1.3.0" })],
  ["the favicon", (v) => ({ ...v, favicon: "favicon/16x16.png" })],
];

describe("catalogue page prints", () => {
  it("a page whose print is unchanged after a random edit renders the same text; most pages keep theirs", () => {
    const next = prng(5);
    let kept = 0;
    let pages = 0;
    const base = view(2600, 2300); // 3 pages of icons, 3 of mappings
    const rendered = new Map(cataloguePlan(base).map((p) => [p.path, p.render()]));
    const before = pagePrints(base, cataloguePlan(base), TOOL);
    for (let round = 0; round < 150; round++) {
      const [name, edit] = EDITS[pick(EDITS, next)]!;
      const after = edit(base, next);
      const plans = cataloguePlan(after);
      const prints = pagePrints(after, plans, TOOL);
      for (const plan of plans) {
        pages++;
        if (before.get(plan.path) !== prints.get(plan.path)) continue;
        kept++;
        expect(plan.render(), `${plan.path} after ${name}`).toBe(rendered.get(plan.path));
      }
    }
    expect(kept).toBeGreaterThan(pages / 3);
  });

  it("a page made with the rows of earlier builds (dev's RowCache) is the text made without them, edit after edit", () => {
    for (const limit of [Infinity, 700]) {
      // 700: fewer rows than a page, so the cache starts again mid-page
      const next = prng(11);
      const cache = new RowCache();
      let current = view(2600, 2300);
      // Every edit twice, in turn.
      for (let round = 0; round < 2 * EDITS.length; round++) {
        const [name, edit] = EDITS[round % EDITS.length]!;
        current = edit(current, next);
        cache.limit = limit;
        const cached = cataloguePlan(current, cache);
        const plain = cataloguePlan(current);
        for (const [i, plan] of cached.entries())
          expect(plan.render(), `${plan.path} after ${name} (limit ${limit})`).toBe(plain[i]!.render());
      }
    }
  });

  it("changes every page's print with the tool", () => {
    const v = view(10, 10);
    const plans = cataloguePlan(v);
    const a = pagePrints(v, plans, TOOL);
    const b = pagePrints(v, plans, "tool-2");
    for (const plan of plans) expect(a.get(plan.path)).not.toBe(b.get(plan.path));
  });
});
