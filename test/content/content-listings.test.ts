// test/content/content-listings.test.ts
// What `dev` keeps of the published folders' walks (src/content/read-content.ts: ContentListings): a folder's files
// are found again only after the watcher reports a change under it, during the walk too; a walk that met a symbolic
// link is never kept, and nothing is kept once the watcher has failed.

import { symlink, writeFile } from "node:fs/promises";
import { realpathSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { ContentListings, readContent } from "../../src/content/read-content.js";
import { squarePng } from "../../src/init/png.js";
import { demoCopies } from "../helpers/fixtures.js";

const content = demoCopies();

const iconNames = async (dir: string, listings: ContentListings): Promise<string[]> =>
  (await readContent(dir, { listings })).iconDirFiles.map((f) => f.path);

const addIcon = (dir: string, name: string): Promise<void> =>
  writeFile(path.join(dir, "icons", name), squarePng(9, [1, 2, 3, 255]));

describe("ContentListings", () => {
  test("a folder's walk is kept until a change under it is reported; a change elsewhere keeps it", async () => {
    const dir = await content();
    const listings = new ContentListings();
    const first = await iconNames(dir, listings);
    await addIcon(dir, "zz-unreported.png");
    listings.changed("icons.json");
    listings.changed("style/x.css");
    expect(await iconNames(dir, listings), "kept: no change reported under icons/").toEqual(first);
    listings.changed("icons/zz-unreported.png");
    expect(await iconNames(dir, listings)).toEqual([...first, "icons/zz-unreported.png"]);
    await addIcon(dir, "zz-second.png");
    listings.changed(); // a change without a path (polling): every folder is walked again
    expect(await iconNames(dir, listings)).toContain("icons/zz-second.png");
  });

  test("a change reported while a walk runs leaves that walk unkept", async () => {
    const dir = await content();
    const real = realpathSync(dir);
    const listings = new ContentListings();
    const mark = listings.mark("icons");
    listings.changed("icons/a.png");
    listings.set(real, "icons", mark, true, []);
    expect(listings.get(real, "icons")).toBeUndefined();
    listings.set(real, "icons", listings.mark("icons"), true, []);
    expect(listings.get(real, "icons")?.exists, "a walk begun after the change is kept").toBe(true);
    expect(
      listings.get(path.join(real, "other"), "icons"),
      "another content folder's walk is not this one's",
    ).toBeUndefined();
  });

  test("a walk that met a symbolic link is not kept", async () => {
    const dir = await content();
    await symlink(path.join(dir, "icons", "php.png"), path.join(dir, "icons", "php-link.png"));
    const listings = new ContentListings();
    await iconNames(dir, listings);
    await addIcon(dir, "zz-after-link.png");
    expect(await iconNames(dir, listings)).toContain("icons/zz-after-link.png");
  });

  test("once the watcher failed, nothing is kept", async () => {
    const dir = await content();
    const listings = new ContentListings();
    listings.fail();
    await iconNames(dir, listings);
    await addIcon(dir, "zz-after-failure.png");
    expect(await iconNames(dir, listings)).toContain("icons/zz-after-failure.png");
  });
});
