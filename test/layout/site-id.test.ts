// test/layout/site-id.test.ts
// site.id names the identity (inode and birth time) of the --out a build swapped in, and of each folder beside it. Its
// size must not depend on them: a build reports the bytes it wrote, and an update in place must report what a full
// build of the same site reports (the incremental property test compares them, and inodes of six and seven digits
// once made them differ by a byte).

import { mkdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { folderId, parseFolderIds, parseSiteId, printSiteId } from "../../src/layout/stamp.js";
import { removeDir, tmpDir } from "../helpers/fixtures.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

const id = (ino: bigint, birth: bigint): string => folderId({ ino, birthtimeNs: birth });
const BIG = 2n ** 64n - 1n;

describe("site.id", () => {
  it("is the same size for any identity, and reads back", () => {
    const ids = [id(0n, 0n), id(1n, 999_999n), id(2n ** 32n, 1_795_865_297_408_904_524n), id(BIG, BIG)];
    expect(new Set(ids.map((i) => printSiteId(i).length)).size).toBe(1);
    for (const i of ids) expect(parseSiteId(printSiteId(i))).toBe(i);
  });

  it("names each folder beside --out by its identity too, in the same size for any identities", () => {
    const beside = (n: bigint) => [
      { dir: ".netlify/v1", id: id(n, n) },
      { dir: ".vercel/output", id: id(n + 1n, n) },
    ];
    const sizes = new Set([1n, 999_999n, 2n ** 40n].map((n) => printSiteId(id(n, n), beside(n)).length));
    expect([...sizes]).toEqual([printSiteId(id(0n, 0n), beside(0n)).length]);
    const ids = parseFolderIds(printSiteId(id(7n, 8n), beside(1_000_000n)));
    expect(ids?.out).toBe(id(7n, 8n));
    expect([...(ids?.beside ?? [])]).toEqual([
      [".netlify/v1", id(1_000_000n, 1_000_000n)],
      [".vercel/output", id(1_000_001n, 1_000_000n)],
    ]);
    expect(parseFolderIds(`${printSiteId(id(7n, 8n))}not a line\n`)).toBeNull();
  });

  it("does not read the inode alone that records of layout format 3 printed (such a build is written in full)", () => {
    expect(parseSiteId("ino 2162740\n")).toBeNull();
  });

  it("tells a folder made again in the place of a removed one from it, even when it gets the same inode", async () => {
    const dir = path.join(await tmpDir("site-id-"), "folder");
    temps.push(path.dirname(dir));
    mkdirSync(dir);
    const before = statSync(dir, { bigint: true });
    // Remove and make again until the file system hands out the same inode (ext4 and tmpfs usually do at once).
    let again = before;
    for (let i = 0; i < 50; i++) {
      rmSync(dir, { recursive: true });
      mkdirSync(dir);
      again = statSync(dir, { bigint: true });
      if (again.ino === before.ino) break;
    }
    if (before.birthtimeNs === 0n) return; // no birth time kept here: the inode alone names a folder
    expect(folderId(again)).not.toBe(folderId(before));
  });
});
