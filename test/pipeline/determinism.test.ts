// test/pipeline/determinism.test.ts
// Same content, same SOURCE_DATE_EPOCH → byte-identical dist/, whatever the files' modification times.

import { readdir, readFile, utimes } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { copyContent, DEMO_CONTENT, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";

async function snapshot(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out.set(path.relative(dir, file), await readFile(file));
  }
  return out;
}

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

describe("reproducible builds", () => {
  it("builds byte-identical sites from two copies of the content made at different times", async () => {
    const root = await tmpDir();
    temps.push(root);
    const copy = await copyContent(DEMO_CONTENT);
    temps.push(copy);
    // Modification times before the epoch are kept, later ones are clamped: make the copy differ in both ways.
    await utimes(path.join(copy, "icons/php.png"), new Date(), new Date());
    // Each build in a base folder of its own: dist/, its records and the folders beside it are compared, all but
    // site.id, which names the dist/ folder the records describe (by its inode), and the records' manifest (its hash).
    // The folders' record (dist.dirs) holds each folder's inode and change time, for the next in-place update; the
    // content cache (dist.content) the content files' paths, inodes and change times, for the next build's reads, and
    // the parses' record (dist.parsed) the content files' names as --content spells them.
    const ids = new Set([
      ".build-index-site/dist/site.id",
      ".build-index-site/dist/.build-manifest",
      ".build-index-site/dist.dirs",
      ".build-index-site/dist.content",
      ".build-index-site/dist.parsed",
    ]);
    const a = await build({ content: DEMO_CONTENT, out: path.join(root, "a", "dist"), sourceDateEpoch: TEST_EPOCH });
    const b = await build({ content: copy, out: path.join(root, "b", "dist"), sourceDateEpoch: TEST_EPOCH });
    // The bytes written count site.id's, whose inode may have another number of digits in the other build.
    const withoutSiteId = async (counts: typeof a.counts, base: string) => ({
      ...counts,
      bytes: counts.bytes - (await readFile(path.join(root, base, ".build-index-site/dist/site.id"))).length,
    });
    expect(await withoutSiteId(a.counts, "a")).toEqual(await withoutSiteId(b.counts, "b"));
    const [sa, sb] = [await snapshot(path.join(root, "a")), await snapshot(path.join(root, "b"))];
    expect([...sa.keys()].sort()).toEqual([...sb.keys()].sort());
    expect([...sa.keys()]).toEqual(
      expect.arrayContaining(["dist/api/status.json", ".build-index-site/dist/routes.json", ".netlify/v1/config.json"]),
    );
    for (const [file, bytes] of sa) if (!ids.has(file)) expect(sb.get(file)!.equals(bytes), file).toBe(true);
    const status = JSON.parse(sa.get("dist/api/status.json")!.toString()) as {
      timestamp: string;
      config_last_modified: number;
    };
    expect(status.timestamp).toBe("2024-01-01 00:00:00");
    expect(status.config_last_modified).toBe(Number(TEST_EPOCH));
  });

  it("keeps modification times older than SOURCE_DATE_EPOCH", async () => {
    const root = await tmpDir();
    const copy = await copyContent(DEMO_CONTENT);
    temps.push(root, copy);
    const old = new Date("2020-02-03T04:05:06Z");
    await utimes(path.join(copy, "config.json"), old, old);
    await build({ content: copy, out: path.join(root, "a"), sourceDateEpoch: TEST_EPOCH });
    const config = JSON.parse(await readFile(path.join(root, "a/api/config.json"), "utf8")) as {
      last_modified: number;
    };
    expect(config.last_modified).toBe(old.getTime() / 1000);
  });
});
