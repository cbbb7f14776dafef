// test/edge/data-reads.test.ts
// What a first request reads on a fresh isolate: core.json, then at most one shard for a per-key lookup (findIcon's
// icon file comes with its extension's row, and its fallbacks with core.json), and nothing for versionCheck.
// The real fixture has several shards, so two lookups in two shards would show as a third read.

import { describe, expect, test } from "vitest";
import { createHash } from "node:crypto";
import { EdgeDataMemo, edgeDataFiles, SHARD_BYTES } from "../../src/edge/data-files.js";
import { createApiHandler } from "../../src/edge/handler.js";
import { extensionMapOf, iconMapOf, type SiteModel } from "../../src/model/types.js";
import type { JsonObject } from "../../src/model/json.js";
import { compileContent, haveRealFixtures, realFixture } from "../helpers/fixtures.js";
import { memoryReader } from "./data-reader.js";
import { expectedAnswer } from "./expected.js";

describe.skipIf(!haveRealFixtures && !process.env.CI)("a fresh handler's data reads (indexer-1.2.0-r2)", () => {
  test("findIcon, getExtensionSetting and icon read core.json and one shard; the answers are the oracle's", async () => {
    const site: SiteModel = (await compileContent(realFixture("indexer-1.2.0-r2"))).model;
    const extensions = [...site.iconMap.entries.keys()].filter((_, i) => i % 7 === 0).slice(0, 40);
    const queries = [
      ...extensions.map((e) => `action=findIcon&extension=${encodeURIComponent(e)}`),
      ...extensions.map((e) => `action=getExtensionSetting&extension=${encodeURIComponent(e)}&type=viewing`),
      "action=findIcon&extension=no-such-extension",
      "action=findIcon&type=folder",
      "action=icon&name=php.png",
    ];
    let shardsSeen = new Set<string>();
    for (const query of queries) {
      const read = memoryReader(site);
      const answer = createApiHandler();
      const res = await answer(new Request(`https://site.example/api.php?${query}`), read);
      expect(await res.text(), query).toBe(expectedAnswer(site, { method: "GET", query }).body);
      expect(read.reads[0], query).toBe("/_edge-data/core.json");
      expect(read.reads.length, `${query}: ${read.reads.join(", ")}`).toBeLessThanOrEqual(2);
      shardsSeen = new Set([...shardsSeen, ...read.reads.slice(1)]);
    }
    expect(shardsSeen.size, "the fixture's lookups span several shards").toBeGreaterThan(1);
    const read = memoryReader(site);
    await createApiHandler()(new Request("https://site.example/api.php?action=versionCheck&current_version=1.0"), read);
    expect(read.reads).toEqual(["/_edge-data/core.json"]);
  });
});

describe.skipIf(!haveRealFixtures && !process.env.CI)("the shards' files (indexer-1.2.0-r2)", () => {
  test("each is JSON.stringify's print of its rows, e, x, v, f in that order, and they hold every row once", async () => {
    const site: SiteModel = (await compileContent(realFixture("indexer-1.2.0-r2"))).model;
    const shards = edgeDataFiles(site).filter((f) => f.path.startsWith("_edge-data/shards/"));
    expect(shards.length).toBeGreaterThan(1);
    const rows = { e: 0, x: 0, v: 0, f: 0 };
    for (const { path, data } of shards) {
      const parsed = JSON.parse(data) as Record<keyof typeof rows, unknown[]>;
      expect(Object.keys(parsed), path).toEqual(["e", "x", "v", "f"]);
      expect(data, path).toBe(JSON.stringify(parsed));
      for (const kind of ["e", "x", "v", "f"] as const) rows[kind] += parsed[kind].length;
    }
    expect(rows).toEqual({
      e: site.iconMap.entries.size,
      x: site.extensionMap.indexing.size,
      v: site.extensionMap.viewing.size,
      f: site.iconDirFiles.size,
    });
  });
});

describe.skipIf(!haveRealFixtures && !process.env.CI)("the shards of a site far larger (indexer-1.2.0-r2)", () => {
  test("keep their size as the count grows (no cap), and a first findIcon still reads core.json and one shard", async () => {
    const fixture: SiteModel = (await compileContent(realFixture("indexer-1.2.0-r2"))).model;
    // About 12 MB of rows: 256 shards (the old cap) would hold some 47 KB each.
    const many = Array.from({ length: 300_000 }, (_, i): [string, string] => [`ext${i}`, "php.png"]);
    const site: SiteModel = {
      ...fixture,
      iconMap: iconMapOf(new Map([...fixture.iconMap.json, ...many]) as JsonObject, 3),
    };
    const shards = edgeDataFiles(site).filter((f) => f.path.startsWith("_edge-data/shards/"));
    expect(shards.length).toBeGreaterThan(256);
    const largest = Math.max(...shards.map((f) => Buffer.byteLength(f.data)));
    expect(largest, "the largest shard's bytes").toBeLessThanOrEqual(1.5 * SHARD_BYTES);
    for (const query of ["action=findIcon&extension=ext123457", "action=getExtensionSetting&extension=php"]) {
      const read = memoryReader(site);
      const res = await createApiHandler()(new Request(`https://site.example/api.php?${query}`), read);
      expect(await res.text(), query).toBe(expectedAnswer(site, { method: "GET", query }).body);
      expect(read.reads.length, read.reads.join(", ")).toBe(2);
    }
  }, 60_000);
});

/** A copy of a JSON object with the values at `positions` (in its order) set to `value`: the same keys, in order. */
const setAt = (json: JsonObject, positions: readonly number[], value: string): JsonObject =>
  new Map([...json].map(([k, v], i) => [k, positions.includes(i) ? value : v])) as JsonObject;

describe.skipIf(!haveRealFixtures && !process.env.CI)("the data files with what dev keeps (indexer-1.2.0-r2)", () => {
  test("after each edit of a part of the model they are the files made without it, each shard with its text's sha1", async () => {
    const first: SiteModel = (await compileContent(realFixture("indexer-1.2.0-r2"))).model;
    const entries = [...first.iconMap.json];
    const files = [...first.iconDirFiles];
    // Each model shares the parts it does not change with the one before (as dev's next model does, ModelParts).
    const edits: Array<[string, (m: SiteModel) => SiteModel]> = [
      [
        "a mapping changed",
        (m) => ({
          ...m,
          iconMap: iconMapOf(
            new Map([...entries.slice(0, 3), [entries[3]![0], "php.png"], ...entries.slice(4)]) as JsonObject,
            1,
          ),
        }),
      ],
      [
        "two more mappings changed, far apart (two shards)",
        (m) => ({ ...m, iconMap: iconMapOf(setAt(m.iconMap.json, [10, m.iconMap.json.size - 2], "text.png"), 4) }),
      ],
      [
        "an indexing setting changed",
        (m) => ({
          ...m,
          extensionMap: extensionMapOf(
            setAt(m.extensionMap.indexingJson, [2], "index_x"),
            m.extensionMap.viewingJson,
            5,
          ),
        }),
      ],
      [
        "a viewing setting changed",
        (m) => ({
          ...m,
          extensionMap: extensionMapOf(
            m.extensionMap.indexingJson,
            setAt(m.extensionMap.viewingJson, [1], "view_x"),
            6,
          ),
        }),
      ],
      ["nothing changed", (m) => m],
      [
        "an icon's size",
        (m) => ({
          ...m,
          iconDirFiles: new Map(files.map(([name, f], i) => [name, i === 5 ? { ...f, size: f.size + 1 } : f])),
        }),
      ],
      [
        "a viewing setting removed",
        (m) => ({
          ...m,
          extensionMap: extensionMapOf(
            m.extensionMap.indexingJson,
            new Map([...m.extensionMap.viewingJson].slice(1)) as JsonObject,
            2,
          ),
        }),
      ],
      [
        "mappings enough for twice the shards",
        (m) => ({
          ...m,
          iconMap: iconMapOf(
            new Map([
              ...entries,
              ...Array.from({ length: 6000 }, (_, i): [string, string] => [`ext${i}`, "php.png"]),
            ]) as JsonObject,
            3,
          ),
        }),
      ],
      [
        "a mapping changed, with twice the shards",
        (m) => ({ ...m, iconMap: iconMapOf(setAt(m.iconMap.json, [7], "text.png"), 7) }),
      ],
      ["back to the first", () => first],
    ];
    const memo = new EdgeDataMemo();
    const text = (list: ReturnType<typeof edgeDataFiles>): string[] => list.map((f) => `${f.path}\n${f.data}`);
    let model = first;
    let shardCounts = new Set<number>();
    expect(text(edgeDataFiles(model, { memo }))).toEqual(text(edgeDataFiles(model)));
    for (const [name, edit] of edits) {
      model = edit(model);
      const kept = edgeDataFiles(model, { memo });
      expect(text(kept), name).toEqual(text(edgeDataFiles(model)));
      const shards = kept.filter((f) => f.path.startsWith("_edge-data/shards/"));
      shardCounts = new Set([...shardCounts, shards.length]);
      for (const f of shards)
        expect(f.hash?.toString("hex"), `${name}: ${f.path}`).toBe(createHash("sha1").update(f.data).digest("hex"));
    }
    expect(shardCounts.size, "the shard count changed on the way").toBeGreaterThan(1);
  });
});

describe("the handler data's memo, asked out of turn", () => {
  test("rows printed twice over before a split are split from all their changes, not the last one alone", () => {
    const memo = new EdgeDataMemo();
    const keys = Array.from({ length: 64 }, (_, i) => `k${i}`);
    const parts = [{}, {}, {}].map((part) => [part]);
    const rows = (value: string) => (): unknown[][] => keys.map((k) => [k, value]);
    const at = (i: number, value: string) => (): Array<[number, unknown[]]> => [[i, [keys[i], value]]];
    const first = memo.rowsOf("e", parts[0]!, rows("a"));
    memo.piecesOf("e", first, 4);
    memo.rowsOf("e", parts[1]!, rows("a"), at(3, "b"));
    const third = memo.rowsOf("e", parts[2]!, rows("a"), at(40, "c"));
    const want = new EdgeDataMemo();
    const fresh = want.rowsOf("e", parts[2]!, () => keys.map((k, i) => [k, i === 3 ? "b" : i === 40 ? "c" : "a"]));
    expect(memo.piecesOf("e", third, 4)).toEqual(want.piecesOf("e", fresh, 4));
  });
});
