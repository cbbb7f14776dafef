// test/content/exclude.test.ts
// Issue 25 point 3: content discovery through fast-glob honours `exclude` (editor and OS files by default, the
// user's patterns when given), and what fast-glob does with a file name that is not UTF-8 (the reader reports it
// with its bytes: test/content/published-files.test.ts).

import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import fg from "fast-glob";
import { afterAll, describe, expect, it } from "vitest";
import { ignorePattern, readContent } from "../../src/content/read-content.js";
import { compile } from "../../src/pipeline/compile.js";
import { removeDir, tmpDir } from "../helpers/fixtures.js";
import { baseContentFolders, PNG } from "../helpers/base-content.js";

const { base } = baseContentFolders();
const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

const published = async (dir: string, exclude?: string[]): Promise<string[]> =>
  (await readContent(dir, exclude === undefined ? {} : { exclude })).published.map((f) => f.path);

async function withLitter(): Promise<string> {
  const dir = await base();
  await mkdir(path.join(dir, "style", "drafts"), { recursive: true });
  await mkdir(path.join(dir, "icons", "old"), { recursive: true });
  for (const name of [
    "style/Thumbs.db",
    "style/.DS_Store",
    "style/site.css~",
    "style/.site.css.swp",
    "style/x.swp",
    "style/.#site.css",
    "style/site.css",
    "style/drafts/next.css",
    "icons/old/Thumbs.db",
    "icons/old/a.png",
  ]) {
    await writeFile(path.join(dir, name), name.endsWith(".png") ? PNG : "a{}\n");
  }
  return dir;
}

describe("exclude", () => {
  it("by default skips editor and OS files in every published folder, and nothing else", async () => {
    const files = await published(await withLitter());
    expect(files.filter((f) => f.startsWith("style/"))).toEqual(["style/drafts/next.css", "style/site.css"]);
    expect(files).toContain("icons/old/a.png");
    expect(files).not.toContain("icons/old/Thumbs.db");
  });

  it("takes the user's patterns instead: a name anywhere, a folder (trailing slash), a path from the content folder", async () => {
    const dir = await withLitter();
    expect((await published(dir, ["drafts/"])).filter((f) => f.startsWith("style/"))).toEqual([
      "style/Thumbs.db",
      "style/site.css",
      "style/site.css~",
      "style/x.swp",
    ]); // dot files stay out as before
    expect(await published(dir, ["/icons/old/a.png"])).not.toContain("icons/old/a.png");
    expect(await published(dir, ["a.png"])).not.toContain("icons/old/a.png");
    expect(await published(dir, [])).toContain("style/Thumbs.db");
  });

  it("reaches the content reader through the build's options (compile, as build and check run it)", async () => {
    const dir = await withLitter();
    const files = (await compile({ content: dir, exclude: ["*.css"] })).published.map((f) => f.path);
    expect(files.filter((f) => f.endsWith(".css"))).toEqual([]);
    expect(files).toContain("style/Thumbs.db");
  });

  it("patterns: a bare name matches in any folder, a leading slash anchors, a trailing slash means a folder", () => {
    expect(ignorePattern("Thumbs.db")).toBe("**/Thumbs.db");
    expect(ignorePattern("drafts/")).toBe("**/drafts/**");
    expect(ignorePattern("/style/x.css")).toBe("style/x.css");
    expect(ignorePattern("style/*.map")).toBe("style/*.map");
  });
});

describe("fast-glob and names that are not UTF-8", () => {
  it("returns such a name decoded with U+FFFD, once even beside its UTF-8 twin (so the reader reads the bytes itself)", async () => {
    const dir = await tmpDir();
    temps.push(dir);
    await writeFile(Buffer.concat([Buffer.from(`${dir}/caf`), Buffer.from([0xe9]), Buffer.from(".css")]), "a");
    expect(fg.sync("**", { cwd: dir })).toEqual(["caf\ufffd.css"]);
    await writeFile(path.join(dir, "caf\ufffd.css"), "b");
    expect(fg.sync("**", { cwd: dir })).toEqual(["caf\ufffd.css"]);
    expect(fg.sync("**", { cwd: dir, unique: false })).toEqual(["caf\ufffd.css", "caf\ufffd.css"]);
  });

  it("never matches a name with a line break (the reader lists those itself)", async () => {
    const dir = await tmpDir();
    temps.push(dir);
    await writeFile(path.join(dir, "a\nb.css"), "a");
    expect(fg.sync("**", { cwd: dir })).toEqual([]);
  });
});

describe("the programmatic API", () => {
  it("check({ exclude }) skips those files", async () => {
    const { check } = await import("../../src/index.js");
    const dir = await withLitter();
    const all = await check({ content: dir, exclude: [] });
    const fewer = await check({ content: dir, exclude: ["*.css"] });
    expect(all.ok && fewer.ok).toBe(true);
    // style/site.css and style/drafts/next.css are published only without the pattern: two files of dist/, which is
    // what check counts, as build does (the hosts' copies of the site are not counted).
    expect(all.counts.files - fewer.counts.files).toBe(2);
  });
});
