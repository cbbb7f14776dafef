// test/output/stale-bytes.test.ts
// Issue 8 point 5, stale bytes: copied files were reused by size and modification time. When times are normalised
// (Nix stores use 1; some CI pipelines do the same), a same-size edit was never published, not even with --force.
// Now reuse is decided by the bytes (the writer hashes every copy; the up-to-date key hashes every published file).
// Also (issue 10): under SOURCE_DATE_EPOCH every file's modification time in dist/ is clamped to it, so that
// Last-Modified is reproducible, and rebuilds still reuse unchanged files.

import { readdir, readFile, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build, buildIfChanged } from "../../src/pipeline/pipeline.js";
import { writeOutput } from "../../src/output/write/full.js";
import { copyContent, DEMO_CONTENT, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { layoutOf } from "../../src/layout/paths.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

/** A copy of the demo content whose every file has modification time 1, as in a Nix store. */
async function nixContent(): Promise<string> {
  const content = await copyContent(DEMO_CONTENT);
  temps.push(content);
  for (const e of await readdir(content, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) await utimes(path.join(e.parentPath, e.name), 1, 1);
  }
  return content;
}

/** Rewrites a file with the same size but other bytes (its last byte, a PNG's IEND checksum, changed) and time 1. */
async function sameSizeEdit(file: string): Promise<Buffer> {
  const bytes = await readFile(file);
  bytes[bytes.length - 1] = (bytes[bytes.length - 1]! + 1) % 256;
  await writeFile(file, bytes);
  await utimes(file, 1, 1);
  return bytes;
}

describe("stale bytes: a same-size edit with normalised modification times is published", () => {
  it("by a rebuild (buildIfChanged, what the CLI runs) and by a forced build", async () => {
    const content = await nixContent();
    const root = await tmpDir("bis-stale-");
    temps.push(root);
    const options = { content, out: path.join(root, "dist"), sourceDateEpoch: TEST_EPOCH };
    const icon = "icons/json.png";
    expect("model" in (await buildIfChanged(options))).toBe(true);
    expect("model" in (await buildIfChanged(options))).toBe(false); // unchanged: up to date

    const edited = await sameSizeEdit(path.join(content, icon));
    expect("model" in (await buildIfChanged(options))).toBe(true);
    expect((await readFile(path.join(options.out, icon))).equals(edited)).toBe(true);

    const again = await sameSizeEdit(path.join(content, icon));
    await build(options); // --force
    expect((await readFile(path.join(options.out, icon))).equals(again)).toBe(true);
    expect((await stat(path.join(options.out, icon))).mtimeMs).toBe(1000);
  });

  it("by the writer itself: a copy with the same size and time as the previous output's is reused only if its bytes are the same", async () => {
    const root = await tmpDir("bis-stale-");
    temps.push(root);
    const source = path.join(root, "source.bin");
    const out = path.join(root, "dist");
    await writeFile(source, "AAAA");
    await utimes(source, 1, 1);
    const plan = [{ path: "copy.bin", source, size: 4, mtimeMs: 1000 }];
    expect((await writeOutput(out, plan)).reused).toBe(0);
    expect((await writeOutput(out, plan)).reused).toBe(1); // same bytes: hard-linked
    await writeFile(source, "BBBB");
    await utimes(source, 1, 1);
    expect((await writeOutput(out, plan)).reused).toBe(0);
    expect(await readFile(path.join(out, "copy.bin"), "utf8")).toBe("BBBB");
  });
});

/** A copy of the demo content and an empty folder for the build, both removed after the tests. */
async function contentAndRoot(): Promise<{ content: string; root: string }> {
  const content = await copyContent(DEMO_CONTENT);
  const root = await tmpDir("bis-mtimes-");
  temps.push(content, root);
  return { content, root };
}

describe("SOURCE_DATE_EPOCH clamps every file's modification time in dist/ (reproducible Last-Modified)", () => {
  const epochMs = Number(TEST_EPOCH) * 1000;

  it("generated files get the epoch, copies keep an older time and are clamped when newer; a rebuild reuses them", async () => {
    const { content, root } = await contentAndRoot();
    const old = new Date("2020-02-03T04:05:06.789Z");
    await utimes(path.join(content, "icons/json.png"), old, old);
    await utimes(path.join(content, "icons/folder.png"), new Date(), new Date());
    const out = path.join(root, "dist");
    await build({ content, out, sourceDateEpoch: TEST_EPOCH });

    // Every file of --out and of its records (paths relative to the folder that holds both).
    const base = path.dirname(out);
    const records = layoutOf(out).records;
    const times = new Map<string, { mtimeMs: number; ino: number }>();
    for (const dir of [out, records]) {
      for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
        if (!e.isFile()) continue;
        const s = await stat(path.join(e.parentPath, e.name));
        times.set(path.relative(base, path.join(e.parentPath, e.name)), { mtimeMs: s.mtimeMs, ino: s.ino });
      }
    }
    const rec = (file: string): string => path.relative(base, path.join(records, file));
    expect(times.size).toBeGreaterThan(50);
    for (const [file, { mtimeMs }] of times) expect(mtimeMs, file).toBeLessThanOrEqual(epochMs);
    for (const file of [
      rec("routes.json"),
      "dist/api/config.json",
      rec(".build-manifest"),
      rec("build.json"),
      rec("site.manifest"),
      "dist/icons/folder.png",
    ]) {
      expect(times.get(file)!.mtimeMs, file).toBe(epochMs);
    }
    expect(times.get("dist/icons/json.png")!.mtimeMs).toBe(old.getTime());

    // A forced rebuild reuses every file (same inode) with the same time.
    await build({ content, out, sourceDateEpoch: TEST_EPOCH });
    for (const [file, before] of times) {
      // site.id names the new --out folder (by its inode: a fresh folder each swap): it and the records' own
      // manifest are the only files written again.
      if (file === rec("site.id") || file === rec(".build-manifest")) continue;
      const s = await stat(path.join(base, file));
      expect({ mtimeMs: s.mtimeMs, ino: s.ino }, file).toEqual(before);
    }

    // Another epoch: files whose bytes do not change (the route table) still get the new time, not a linked old one.
    const later = Number(TEST_EPOCH) + 86400;
    await build({ content, out, sourceDateEpoch: String(later) });
    expect((await stat(layoutOf(out).routes)).mtimeMs).toBe(later * 1000);
    expect((await stat(path.join(out, "icons/folder.png"))).mtimeMs).toBe(later * 1000);
    expect((await stat(path.join(out, "icons/json.png"))).mtimeMs).toBe(old.getTime());
  });

  it("in place, a touched icon (same bytes) gets the clamped time or its own (the update infers unchanged times from the records)", async () => {
    const { content, root } = await contentAndRoot();
    const icon = path.join(content, "icons/json.png");
    const out = path.join(root, "dist");
    const options = { content, out, sourceDateEpoch: TEST_EPOCH };
    // In whole milliseconds, as the writer gives a copy its source's time.
    const copy = async (): Promise<number> => Math.round((await stat(path.join(out, "icons/json.png"))).mtimeMs);
    const source = async (): Promise<number> => Math.floor((await stat(icon)).mtimeMs);
    const old = new Date("2020-02-03T04:05:06.789Z");
    await utimes(icon, old, old);
    await build(options);
    expect(await copy()).toBe(await source());
    expect(await copy()).toBeLessThan(epochMs);

    // Newer than the epoch: clamped to it.
    await utimes(icon, new Date(), new Date());
    expect((await build(options)).changes.mode).toBe("in place");
    expect(await copy()).toBe(epochMs);
    // Newer still: the same clamped time, the same file.
    const { ino } = await stat(path.join(out, "icons/json.png"));
    await utimes(icon, new Date(Date.now() + 60_000), new Date(Date.now() + 60_000));
    await build(options);
    expect(await copy()).toBe(epochMs);
    expect((await stat(path.join(out, "icons/json.png"))).ino).toBe(ino);
    // Older again: its own time.
    const older = new Date("2021-05-06T07:08:09.123Z");
    await utimes(icon, older, older);
    expect((await build(options)).changes.mode).toBe("in place");
    expect(await copy()).toBe(await source());
    expect(await copy()).not.toBe(epochMs);
  });
});

describe("linked files (Vercel's static/): a hard link to a file the build wrote, or a copy where linking fails", () => {
  const file = async (): Promise<{ root: string; source: string; entry: string }> => {
    const root = await tmpDir("bis-link-");
    temps.push(root);
    const source = path.join(root, "source.txt");
    await writeFile(source, "plain file\n");
    await utimes(source, Number(TEST_EPOCH) - 100, Number(TEST_EPOCH) - 100);
    // sha1("plain file\n") in base64url, checked with `printf 'plain file\n' | sha1sum | xxd -r -p | base64`.
    return { root, source, entry: "UObDgvoBH0tCCey3x294oLyue8k 11" };
  };

  it("links: the same inode, the given entry in the manifest, nothing read", async () => {
    const { root, source, entry } = await file();
    const out = path.join(root, "out");
    await writeOutput(out, [{ path: "static/source.txt", linkTo: source, entry }]);
    expect((await stat(path.join(out, "static/source.txt"))).ino).toBe((await stat(source)).ino);
    expect(await readFile(path.join(out, ".build-manifest"), "utf8")).toContain(`${entry} static/source.txt\n`);
  });

  it("copies the bytes and keeps the file's time when the file system refuses the link", async () => {
    const { root, source, entry } = await file();
    const out = path.join(root, "out");
    const exdev = Object.assign(new Error("EXDEV: cross-device link not permitted"), { code: "EXDEV" });
    await writeOutput(out, [{ path: "static/source.txt", linkTo: source, entry }], {
      methods: {
        link: async () => {
          throw exdev;
        },
      },
    });
    const [copy, original] = await Promise.all([stat(path.join(out, "static/source.txt")), stat(source)]);
    expect(copy.ino).not.toBe(original.ino);
    expect(await readFile(path.join(out, "static/source.txt"), "utf8")).toBe("plain file\n");
    expect(Math.round(copy.mtimeMs)).toBe(Math.round(original.mtimeMs));
    expect(await readFile(path.join(out, ".build-manifest"), "utf8")).toContain(`${entry} static/source.txt\n`);
  });
});
