// test/output/implied-links.test.ts
// The full writer's unlisted links (WriteOptions.implied: the hosts' trees in the records) are made one by one after
// the folder's files, as the writer asks for them: each is a hard link to its target, its folder made, left out of the
// folder's manifest, its bytes counted; a link that fails leaves the folder as it was, no temporary folder beside it.

import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { LinkFile } from "../../src/output/plan/files.js";
import { writeOutput } from "../../src/output/write/full.js";
import { removeDir, tmpDir } from "../helpers/fixtures.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

async function targets(): Promise<{ root: string; site: string }> {
  const root = await tmpDir("bis-implied-");
  temps.push(root);
  const site = path.join(root, "site");
  await mkdir(path.join(site, "api"), { recursive: true });
  await writeFile(path.join(site, "a.txt"), "aaa");
  await writeFile(path.join(site, "api/b.json"), "{}\n");
  return { root, site };
}

/** A link whose entry gives its target's size (3 bytes: both targets). */
const link = (p: string, linkTo: string): LinkFile => ({ path: p, linkTo, entry: "h 3", implied: true });

describe("the full writer's unlisted links", () => {
  it("are hard links made after the files, left out of the manifest, their bytes counted", async () => {
    const { root, site } = await targets();
    const out = path.join(root, "records");
    let asked = 0;
    const stats = await writeOutput(out, [{ path: "stamp.json", data: "{}\n" }], {
      onFile: (f) => {
        if (f.path === "stamp.json") expect(asked).toBe(0); // the links come after the files
      },
      implied: function* () {
        asked++;
        yield link("hosts/x/a.txt", path.join(site, "a.txt"));
        yield link("hosts/x/api/b.json", path.join(site, "api/b.json"));
      },
    });
    expect(asked).toBe(1);
    for (const [rel, target] of [
      ["hosts/x/a.txt", "a.txt"],
      ["hosts/x/api/b.json", "api/b.json"],
    ] as const) {
      expect((await stat(path.join(out, rel))).ino).toBe((await stat(path.join(site, target))).ino);
    }
    const manifest = await readFile(path.join(out, ".build-manifest"), "utf8");
    expect(manifest).toContain(" stamp.json");
    expect(manifest).not.toContain("hosts/");
    expect(stats.bytes).toBe(3 + 3 + 3);
  });

  it("one that fails leaves nothing: no folder, no temporary folder beside it", async () => {
    const { root, site } = await targets();
    const out = path.join(root, "records");
    await expect(
      writeOutput(out, [{ path: "stamp.json", data: "{}\n" }], {
        implied: () => [link("hosts/x/a.txt", path.join(site, "a.txt")), link("hosts/x/gone", path.join(site, "gone"))],
      }),
    ).rejects.toThrow();
    expect((await readdir(root)).sort()).toEqual(["site"]);
  });
});
