// test/content/content-cache.slow.test.ts
// Issue 28: the content cache (src/content/content-cache.ts). A rebuild reads only the content files that changed;
// what the cache kept is trusted only for the same file unchanged (size, modification time, device, inode and change
// time), never for a file changed within RACY_MS of being read, and only by the tool that wrote it.

import { readFile, symlink, unlink, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { ContentCache, RACY_MS, type CachedFile } from "../../src/content/content-cache.js";
import { digest, factsOf, type FileFacts } from "../../src/content/file-facts.js";
import { readContent, type RawContent } from "../../src/content/read-content.js";
import { layoutOf } from "../../src/layout/paths.js";
import { removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { baseContentFolders, PNG, SVG } from "../helpers/base-content.js";

const { base, temps } = baseContentFolders();
const outs: string[] = [];
afterAll(async () => Promise.all(outs.map(removeDir)));

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const file = (over: Partial<CachedFile> = {}): CachedFile => ({
  absPath: "/content/icons/a.png",
  size: 70,
  mtimeMs: 1_600_000_000_000,
  stamp: { dev: 7, ino: 42, ctimeMs: 1_700_000_000_000 },
  ...over,
});
const facts: FileFacts = { hash: Buffer.alloc(20, 1), image: { type: "png", width: 1, height: 1 } };
/** A moment the file's change time is far enough behind for the cache to keep it. */
const later = (f: CachedFile): number => f.stamp!.ctimeMs + RACY_MS + 1;
const fileOf = (raw: RawContent, rel: string) => raw.published.find((f) => f.path === rel)!;

describe("content cache: what it trusts", () => {
  it("gives back the facts of the same version of a file, and nothing for any other", () => {
    const cache = new ContentCache();
    const f = file();
    cache.set(f, facts, later(f));
    expect(cache.get(f)).toBe(facts);
    expect(cache.get(file({ size: 71 }))).toBeUndefined();
    expect(cache.get(file({ mtimeMs: f.mtimeMs + 1 }))).toBeUndefined();
    expect(cache.get(file({ stamp: { ...f.stamp!, ctimeMs: f.stamp!.ctimeMs + 1 } }))).toBeUndefined(); // edited, times set back
    expect(cache.get(file({ stamp: { ...f.stamp!, ino: 43 } }))).toBeUndefined(); // another file renamed over it
    expect(cache.get(file({ stamp: { ...f.stamp!, dev: 8 } }))).toBeUndefined();
    expect(cache.get(file({ absPath: "/content/icons/b.png" }))).toBeUndefined();
    const { stamp: _stamp, ...unstamped } = f;
    expect(cache.get(unstamped)).toBeUndefined();
  });

  it("does not keep a file changed within RACY_MS of being read, nor one without a stamp", () => {
    const cache = new ContentCache();
    const f = file();
    cache.set(f, facts, f.stamp!.ctimeMs + RACY_MS);
    expect(cache.get(f)).toBeUndefined();
    const { stamp: _stamp, ...unstamped } = f;
    cache.set(unstamped, facts, Date.now());
    expect(cache.get(unstamped)).toBeUndefined();
  });

  it("keeps what it knows in a file for the same tool only, and starts empty from a damaged one", async () => {
    const dir = await tmpDir("bis-cache-");
    temps.push(dir);
    const saved = path.join(dir, "dist.content");
    const cache = new ContentCache();
    const f = file();
    const svg = file({ absPath: "/content/icons/v.svg", stamp: { dev: 7, ino: 44, ctimeMs: 1_700_000_000_000 } });
    const svgFacts: FileFacts = {
      hash: Buffer.alloc(20, 2),
      image: { type: "svg", width: null, height: null, active: ["a <script> element"] },
    };
    cache.set(f, facts, later(f));
    cache.set(svg, svgFacts, later(svg));
    cache.save(saved, "tool-a");
    const again = new ContentCache().load(saved, "tool-a");
    expect(again.get(f)).toEqual(facts);
    expect(again.get(svg)).toEqual(svgFacts);
    expect(new ContentCache().load(saved, "tool-b").get(f)).toBeUndefined();
    await writeFile(saved, (await readFile(saved, "utf8")).slice(0, 80));
    expect(new ContentCache().load(saved, "tool-a").get(f)).toBeUndefined();
    expect(new ContentCache().load(path.join(dir, "none"), "tool-a").get(f)).toBeUndefined();
  });
});

describe("content cache: its file", () => {
  it("trusts no part of a file with a line it did not write, and never writes through what lies at its temporary", async () => {
    const dir = await tmpDir("bis-cache-file-");
    temps.push(dir);
    const saved = path.join(dir, "dist.content");
    const f = file();
    const cache = new ContentCache();
    cache.set(f, facts, later(f));
    cache.save(saved, "tool-a");
    const text = await readFile(saved, "utf8");
    expect(new ContentCache().load(saved, "tool-a").get(f)).toEqual(facts);
    // An image's type edited to a number; a hash that is no sha1.
    for (const edited of [text.replace('"type":"png"', '"type":5'), text.replace(/"[A-Za-z0-9_-]{27}"/, '"x"')]) {
      expect(edited).not.toBe(text);
      await writeFile(saved, edited);
      expect(new ContentCache().load(saved, "tool-a").get(f)).toBeUndefined();
    }
    // A link where the temporary goes (left by anyone): replaced, its target untouched.
    const other = path.join(dir, "someone-else.txt");
    await writeFile(other, "theirs\n");
    await symlink(other, `${saved}.new`);
    const again = new ContentCache();
    again.set(f, facts, later(f));
    again.save(saved, "tool-a");
    expect(await readFile(other, "utf8")).toBe("theirs\n");
    expect(new ContentCache().load(saved, "tool-a").get(f)).toEqual(facts);
  });
});

describe("content cache: reading content", () => {
  it("reads a file again only when it changed, and its facts are those of its bytes", async () => {
    const dir = await base();
    await sleep(RACY_MS + 200); // the files' change times must lie RACY_MS behind the read
    const cache = new ContentCache();
    const first = await readContent(dir, { cache });
    const php = fileOf(first, "icons/php.png");
    expect(php.data).toEqual(PNG); // not known yet: read
    expect(php.facts).toEqual(factsOf(PNG, true, "icons/php.png"));
    expect(fileOf(first, "icons/vector.svg").facts).toEqual(factsOf(Buffer.from(SVG), true, "icons/vector.svg"));
    expect(fileOf(first, "style/site.css").facts!.hash).toEqual(
      digest(await readFile(path.join(dir, "style/site.css"))),
    );

    const second = await readContent(dir, { cache });
    for (const f of second.published.filter((p) => p.path.startsWith("icons/") || p.path.startsWith("style/"))) {
      expect(f.data, f.path).toBeUndefined(); // not read
      expect(f.facts, f.path).toBe(fileOf(first, f.path).facts);
    }
    // The texts the build parses are read whole every time.
    expect(fileOf(second, "icons.json").data).toBeDefined();

    // A same-size edit of one icon: that one is read again, the others are not.
    const edited = Buffer.from(PNG);
    edited[40] = edited[40]! ^ 0xff;
    await writeFile(path.join(dir, "icons/php.png"), edited);
    const third = await readContent(dir, { cache });
    expect(fileOf(third, "icons/php.png").data).toEqual(edited);
    expect(fileOf(third, "icons/php.png").facts!.hash).toEqual(digest(edited));
    expect(fileOf(third, "icons/text.png").data).toBeUndefined();

    // A removed file is forgotten, even when every other file is found as it was.
    await sleep(RACY_MS + 200);
    await readContent(dir, { cache }); // the edited icon, now far enough behind, is kept
    const known = cache.size;
    await unlink(path.join(dir, "icons/vector.svg"));
    await readContent(dir, { cache });
    expect(cache.size).toBe(known - 1);
    expect(cache.get(fileOf(first, "icons/vector.svg"))).toBeUndefined();
  }, 30_000);

  it("a rebuild sees an edit that keeps the size and the modification time, and writes what a fresh build writes", async () => {
    const dir = await base();
    const icon = path.join(dir, "icons/php.png");
    const time = new Date(1_600_000_000_000);
    await utimes(icon, time, time);
    await sleep(RACY_MS + 200);
    const out = path.join(await tmpDir("bis-cache-out-"), "dist");
    outs.push(path.dirname(out));
    const options = { content: dir, out, sourceDateEpoch: TEST_EPOCH };
    await build(options);
    await build({ ...options, force: true }); // in full, so the cache now knows every icon
    const kept = await readFile(layoutOf(out).contentCache, "utf8");
    expect(kept).toContain(icon);

    // Same size, same modification time, other bytes: only the change time tells.
    const edited = Buffer.from(PNG);
    edited[40] = edited[40]! ^ 0xff;
    await writeFile(icon, edited);
    await utimes(icon, time, time);
    await build(options);
    expect(await readFile(path.join(out, "icons/php.png"))).toEqual(edited);

    const fresh = path.join(await tmpDir("bis-cache-fresh-"), "dist");
    outs.push(path.dirname(fresh));
    await build({ ...options, out: fresh });
    expect(await readFile(layoutOf(out).siteManifest, "utf8")).toBe(
      await readFile(layoutOf(fresh).siteManifest, "utf8"),
    );
  }, 60_000);
});
