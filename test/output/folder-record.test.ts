// test/output/folder-record.test.ts
// The in-place update reads only the folders that changed since the last build (src/output/manifests/dir-stamps.ts): a
// folder's record is its inode and change time, which any added, removed or renamed entry changes. These tests
// change folders behind the build's back, as a user or another tool would, and check that the update still ends
// exactly where a build from scratch does.

import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { layoutOf } from "../../src/layout/paths.js";
import { foldersOf, recordFolders, trustedFolders } from "../../src/output/manifests/dir-stamps.js";
import { copyContent, DEMO_CONTENT, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

/** Every file under dir (relative path → bytes). */
async function files(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (e.isDirectory()) continue;
    const file = path.join(e.parentPath, e.name);
    out.set(path.relative(dir, file).split(path.sep).join("/"), (await readFile(file)).toString("base64"));
  }
  return out;
}

/** Empty folders under dir (a build leaves none). */
async function emptyFolders(dir: string): Promise<string[]> {
  const empty: string[] = [];
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isDirectory()) continue;
    const folder = path.join(e.parentPath, e.name);
    if ((await readdir(folder)).length === 0) empty.push(path.relative(dir, folder));
  }
  return empty;
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 30)); // past the clock's tick

describe("the folders' record", () => {
  let content: string;
  let out: string;
  const buildIt = (where = out) => build({ content, out: where, sourceDateEpoch: TEST_EPOCH });

  beforeAll(async () => {
    content = await copyContent(DEMO_CONTENT);
    const root = await tmpDir("bis-folders-");
    temps.push(content, root);
    out = path.join(root, "dist");
    await buildIt();
  });

  it("foldersOf lists each file's folder and its parents, and the folder itself", () => {
    expect(
      [...foldersOf(["a.json", "api/x/1.json", "api/x/2.json", "api/y/3.json", "icons/a.png", "api/x/4.json"])].sort(),
    ).toEqual(["", "api", "api/x", "api/y", "icons"]);
  });

  it("trusts a folder only while its entries are unchanged", async () => {
    const dir = await tmpDir("bis-trust-");
    temps.push(dir);
    await mkdir(path.join(dir, "a/b"), { recursive: true });
    await mkdir(path.join(dir, "c"));
    await writeFile(path.join(dir, "a/b/x.json"), "1");
    await settle();
    const record = path.join(dir, "..", `${path.basename(dir)}.dirs`);
    temps.push(record);
    recordFolders(record, [{ dir, folders: ["", "a", "a/b", "c"] }]);
    let trusted = trustedFolders(record)(dir);
    expect(["", "a", "a/b", "c", "d"].map(trusted)).toEqual([true, true, true, true, false]);
    await writeFile(path.join(dir, "a/b/x.json"), "2"); // bytes changed in place: entries unchanged
    await writeFile(path.join(dir, "c/new.json"), "3"); // an entry added
    await rename(path.join(dir, "a/b/x.json"), path.join(dir, "a/b/y.json")); // an entry renamed
    trusted = trustedFolders(record)(dir);
    expect(["", "a", "a/b", "c"].map(trusted)).toEqual([true, true, false, false]);
    // (A record made in the same clock tick as a change trusts nothing it cannot tell apart: whether a write and the
    // record share a tick is up to the machine, so no test here can make it so.)
    // A record of another folder, or none at all, trusts nothing.
    expect(trustedFolders(record)(path.join(dir, "a"))("")).toBe(false);
    await rm(record);
    expect(trustedFolders(record)(dir)("")).toBe(false);
  });

  it("files added, removed and moved by hand between builds are found: the update ends where a fresh build does", async () => {
    // Two in-place builds in a row, so that the second starts from a record the first wrote.
    await writeFile(path.join(content, "icons/extra.png"), await readFile(path.join(content, "icons/php.png")));
    expect((await buildIt()).changes.mode).toBe("in place");
    expect(existsSync(layoutOf(out).folders)).toBe(true);
    await settle();
    await writeFile(path.join(out, "api/stray.json"), "{}"); // a file left by hand
    await mkdir(path.join(out, "junk/deeper"), { recursive: true }); // folders left by hand
    await writeFile(path.join(out, "junk/deeper/x.txt"), "x");
    await rm(path.join(out, "api/config.json")); // a file removed by hand
    await rename(path.join(out, "icons/extra.png"), path.join(out, "icons/moved.png")); // and one moved
    const records = layoutOf(out).records;
    const hostFile = (await readdir(path.join(records, "hosts/apache/api"))).find((n) => n.endsWith(".json"))!;
    await rm(path.join(records, "hosts/apache/api", hostFile)); // in the records too
    await writeFile(path.join(records, "hosts/cloudflare/public/icons/stray.png"), "x"); // beside the hosts' links

    await rm(path.join(content, "icons/extra.png"));
    const result = await buildIt();
    expect(result.changes.mode).toBe("in place");

    await expectSameAsFresh(content, out);
  });

  it("a folder the next build drops goes whole, with what was left in it by hand", async () => {
    // A file in icons/ that is no image: its answer (400) is in api/icon/invalid/, which exists only for such files.
    await writeFile(path.join(content, "icons/notes.txt"), "not an icon");
    expect((await buildIt()).changes.mode).toBe("in place");
    expect(existsSync(path.join(out, "api/icon/invalid/notes.txt.json"))).toBe(true);
    await settle();
    await writeFile(path.join(out, "api/icon/invalid/left.json"), "{}"); // api/icon/ itself is unchanged (trusted)
    await rm(path.join(content, "icons/notes.txt"));
    expect((await buildIt()).changes.mode).toBe("in place");
    expect(existsSync(path.join(out, "api/icon/invalid"))).toBe(false);
    await expectSameAsFresh(content, out);
  });
});

/** Every file of --out and of its records is what a fresh full build of the content writes, and no folder is empty. */
async function expectSameAsFresh(content: string, out: string): Promise<void> {
  const records = layoutOf(out).records;
  const fresh = path.join(await tmpDir("bis-fresh-"), "dist");
  temps.push(path.dirname(fresh));
  await build({ content, out: fresh, sourceDateEpoch: TEST_EPOCH, force: true });
  for (const [mine, theirs] of [
    [out, fresh],
    [records, layoutOf(fresh).records],
  ] as const) {
    const [got, want] = [await files(mine), await files(theirs)];
    got.delete("site.id"); // the inode of each --out
    want.delete("site.id");
    const manifest = (text: string | undefined): string =>
      Buffer.from(text ?? "", "base64")
        .toString()
        .split("\n")
        .filter((l) => !l.endsWith(" site.id"))
        .join("\n");
    expect(manifest(got.get(".build-manifest"))).toBe(manifest(want.get(".build-manifest")));
    got.delete(".build-manifest");
    want.delete(".build-manifest");
    expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
    for (const [file, bytes] of want) expect(got.get(file), file).toBe(bytes);
    expect(await emptyFolders(mine)).toEqual([]);
  }
}
