// test/edge/shards-memo.test.ts
// What `dev` keeps of the handler's shards between builds (src/edge/data-files.ts: ShardsMemo): after any edit, the
// data files made through the memo are those made without it, byte for byte, and a file that carries a sha1 carries
// its own. On the real fixture (16 shards) an edit of a few rows keeps the other shards' files as they were.

import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { edgeDataFiles, ShardsMemo } from "../../src/edge/data-files.js";
import type { SiteModel } from "../../src/model/types.js";
import { prng } from "../../scripts/prng.mjs";
import { compileContent, haveRealFixtures, realFixture } from "../helpers/fixtures.js";
import { eachRound } from "../helpers/site-edits.js";

const sha1 = (data: string): string => createHash("sha1").update(data).digest("base64url");

/** The files through `memo` are those without it: the same paths and texts, and each sha1 given is its text's. */
function expectSame(site: SiteModel, memo: ShardsMemo, where: string): ReturnType<typeof edgeDataFiles> {
  const kept = edgeDataFiles(site, {}, memo);
  const fresh = edgeDataFiles(site);
  expect(kept.map((f) => [f.path, f.data]), where).toEqual(fresh.map((f) => [f.path, f.data]));
  for (const f of kept) if (f.hash !== undefined) expect(f.hash.toString("base64url"), `${where}: ${f.path}`).toBe(sha1(f.data));
  return kept;
}

/** `site` with `count` random rows changed, added or removed: mappings, settings and icon files' sizes. */
function edited(site: SiteModel, next: () => number, count: number): SiteModel {
  const iconMap = new Map(site.iconMap.entries);
  const indexing = new Map(site.extensionMap.indexing);
  const files = new Map(site.iconDirFiles);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const icons = [...files.keys()];
  for (let i = 0; i < count; i++) {
    const r = next();
    if (r < 0.3) iconMap.set(pick([...iconMap.keys()]), pick(icons));
    else if (r < 0.45) iconMap.set(`new-${Math.floor(next() * 1e6)}`, pick(icons));
    else if (r < 0.55) iconMap.delete(pick([...iconMap.keys()]));
    else if (r < 0.75) indexing.set(pick([...indexing.keys()]), `setting-${Math.floor(next() * 10)}`);
    else files.set(pick(icons), { size: Math.floor(next() * 1e5), lastModified: files.get(icons[0]!)!.lastModified });
  }
  return {
    ...site, iconMap: { ...site.iconMap, entries: iconMap }, extensionMap: { ...site.extensionMap, indexing }, iconDirFiles: files,
  };
}

describe("the handler's shards through dev's memo", () => {
  it("are those made without it, after 300 random edits of the hand-made site", () => {
    const memo = new ShardsMemo();
    eachRound(17, 300, ({ before, edits, after }) => {
      const where = edits.map((e) => e.name).join("; ");
      expectSame(before, memo, where);
      expectSame(after, memo, where);
    });
  });

  it.skipIf(!haveRealFixtures && !process.env.CI)("are those made without it on the real fixture, and an edit of a few rows keeps most shards' files", async () => {
    let site: SiteModel = (await compileContent(realFixture("indexer-1.2.0-r2"))).model;
    const memo = new ShardsMemo();
    const next = prng(3);
    let last = expectSame(site, memo, "first");
    const shards = last.filter((f) => f.path.includes("/shards/")).length;
    expect(shards).toBeGreaterThan(4);
    let keptFiles = 0;
    for (let round = 0; round < 20; round++) {
      site = edited(site, next, 1 + Math.floor(next() * 3));
      const now = expectSame(site, memo, `round ${round}`);
      // A shard file of the last build, object and all, when its text is the same.
      for (const f of now) if (f.path.includes("/shards/") && last.includes(f)) keptFiles++;
      last = now;
    }
    expect(keptFiles).toBeGreaterThan(20 * (shards - 4));
  });
});
