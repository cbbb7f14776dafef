// test/pipeline/rebuild.slow.test.ts
// Rebuilds reuse the previous output: files whose bytes do not change keep their inode (hard-linked from the
// previous dist/ into the fresh folder), files whose bytes change get new ones, and the swap is still a fresh folder.

import { existsSync } from "node:fs";
import { readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { likelyInPlace } from "../../src/layout/build-status.js";
import { toolFingerprint } from "../../src/pipeline/up-to-date.js";
import { DEFAULT_HOSTS } from "../../src/hosts/names.js";
import { UsageError } from "../../src/errors.js";
import { MANIFEST_FILE } from "../../src/output/manifests/print.js";
import { copyContent, DEMO_CONTENT, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { squarePng } from "../../src/init/png.js";
import { layoutOf } from "../../src/layout/paths.js";

interface Entry {
  ino: number;
  bytes: Buffer;
}

/** Every regular file under dir: inode and bytes. */
async function snapshot(dir: string): Promise<Map<string, Entry>> {
  const out = new Map<string, Entry>();
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const file = path.join(e.parentPath, e.name);
    out.set(path.relative(dir, file).split(path.sep).join("/"), {
      ino: (await stat(file)).ino,
      bytes: await readFile(file),
    });
  }
  return out;
}

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

let content: string;
let root: string;
let out: string;

const buildIt = (options: { out?: string; reuse?: boolean; force?: boolean } = {}) =>
  build({
    content,
    out: options.out ?? out,
    sourceDateEpoch: TEST_EPOCH,
    ...(options.reuse === false ? { write: { reuse: false } } : {}),
    ...(options.force === true ? { force: true } : {}),
  });

beforeAll(async () => {
  content = await copyContent(DEMO_CONTENT);
  root = await tmpDir("bis-rebuild-");
  temps.push(content, root);
  out = path.join(root, "dist");
});

describe("rebuilds reuse unchanged files", () => {
  it("a full rebuild (--force) keeps every unchanged file's inode and bytes, in a freshly swapped folder", async () => {
    await buildIt();
    const before = await snapshot(out);
    const dirBefore = (await stat(out)).ino;
    expect(before.size).toBeGreaterThan(50);
    expect(before.has(MANIFEST_FILE)).toBe(false); // --out holds the public site only: its manifest is in the records
    expect(existsSync(path.join(layoutOf(out).records, MANIFEST_FILE))).toBe(true);

    const result = await buildIt({ force: true });
    expect(result.changes.mode).toBe("full");
    const after = await snapshot(out);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [file, entry] of before) {
      expect(after.get(file)!.bytes.equals(entry.bytes), file).toBe(true);
      expect(after.get(file)!.ino, file).toBe(entry.ino);
    }
    expect(result.counts.files).toBe(before.size);
    // Still an atomic swap: the output folder is a new folder, and nothing is left beside it.
    expect((await stat(out)).ino).not.toBe(dirBefore);
    // Readable like any folder made with the process's umask (mkdtemp alone would leave it 0700 to a web server).
    expect((await stat(out)).mode & 0o777).toBe(0o777 & ~process.umask());
    // The build's records and the edge hosts' folders beside it.
    expect((await readdir(root)).sort()).toEqual([".build-index-site", ".netlify", ".vercel", ".wrangler", "dist"]);
  });

  it("a generated file edited by hand in the output is left to an update (the manifest is trusted) and written again by --force", async () => {
    await buildIt();
    // A copy of the content, an answer, and a file of the records: none depends on the icon added below.
    const targets = [
      path.join(out, "icons.json"),
      path.join(out, "api/config.json"),
      path.join(layoutOf(out).records, "handler.js"),
    ];
    const built = await Promise.all(targets.map((f) => readFile(f)));
    // Same size, other bytes, as a tool that rewrites a file in place would leave them.
    const edited = built.map((b) => Buffer.from(b.toString("latin1").replace(/[a-z]/, "#"), "latin1"));
    for (const [i, f] of targets.entries()) await writeFile(f, edited[i]!);
    await writeFile(path.join(content, "icons/zz-edit.png"), squarePng(3, [1, 2, 3, 255], [4, 5, 6, 255]));
    try {
      expect((await buildIt()).changes.mode).toBe("in place");
      // A copy's time gives the edit away; a generated file's bytes are not looked for (docs/layout.md).
      expect((await readFile(targets[0]!)).equals(built[0]!)).toBe(true);
      for (const [i, f] of targets.entries()) if (i > 0) expect((await readFile(f)).equals(edited[i]!), f).toBe(true);
      expect((await buildIt({ force: true })).changes.mode).toBe("full");
      for (const [i, f] of targets.entries()) expect((await readFile(f)).equals(built[i]!), f).toBe(true);
    } finally {
      // The next tests start from a build of the content as it was, whole.
      await rm(path.join(content, "icons/zz-edit.png"));
      await buildIt({ reuse: false });
    }
  });

  it.each([
    ["in place", 24],
    ["full", 28],
  ] as const)("a one-icon change gives new inodes only to the files whose bytes change (%s)", async (mode, size) => {
    const before = await snapshot(out);
    const recordsBefore = await snapshot(layoutOf(out).records);
    const dirBefore = (await stat(out)).ino;
    // A different picture with a different size: the icon file and every answer that embeds its size change.
    await writeFile(path.join(content, "icons/php.png"), squarePng(size, [10, 200, 30, 255]));
    expect((await buildIt({ force: mode === "full" })).changes.mode).toBe(mode);
    // In place, --out stays the same folder (its records name it by its inode); in full, a new one is swapped in.
    if (mode === "in place") expect((await stat(out)).ino).toBe(dirBefore);
    else expect((await stat(out)).ino).not.toBe(dirBefore);
    const after = await snapshot(out);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());

    const changed: string[] = [];
    for (const [file, entry] of before) {
      const now = after.get(file)!;
      if (now.bytes.equals(entry.bytes)) expect(now.ino, `${file} is unchanged and must be reused`).toBe(entry.ino);
      else {
        expect(now.ino, `${file} changed and must be a new file`).not.toBe(entry.ino);
        changed.push(file);
      }
    }
    expect(changed).toContain("icons/php.png");
    expect(changed).toContain("api/icons.json");
    expect(changed).toContain("api/icon/php.png.json");
    expect(changed).toContain("api/findIcon/file/php.json");
    // Only the icon, answers about it and the handler's data files that hold it (core.json: the icons answer's ETag;
    // the icons answer; the shard of php.png): no other content file.
    // The catalogue shows each icon's size: its pages and data change too.
    for (const file of changed)
      expect(file, file).toMatch(
        /^(icons\/php\.png|api\/icons\.json|api\/icon\/.*|api\/findIcon\/.*|_edge-data\/(core\.json|whole\/icons\.json|shards\/\d+\.json)|index\.html|catalogue\/.*)$/,
      );
    expect(changed.filter((f) => f.startsWith("_edge-data/shards/"))).toHaveLength(1);
    // In the records: the stamp, the manifests (Vercel's static/ holds the icon and the handler's data), what the answers and the catalogue's pages are computed from (the
    // icon's size and time) and the hosts' links to the changed files (Apache's and nginx's trees: the site without
    // the handler's data; Cloudflare's and Netlify's: without the answers); not the route table, not the handler (the
    // same for every site).
    const recordsAfter = await snapshot(layoutOf(out).records);
    const changedRecords = [...recordsAfter]
      .filter(([file, entry]) => !recordsBefore.get(file)?.bytes.equals(entry.bytes))
      .map(([file]) => file);
    expect(changedRecords).toEqual(
      expect.arrayContaining(["build.json", "site.manifest", MANIFEST_FILE, ...(mode === "full" ? ["site.id"] : [])]),
    );
    if (mode === "in place") expect(changedRecords).not.toContain("site.id");
    for (const file of changedRecords) {
      expect(file, file).toMatch(
        /^(build\.json|site\.manifest|site\.id|\.build-manifest|beside\/\.vercel\/output\.manifest|answer-inputs\.json|catalogue-inputs\.json|hosts\/(apache|nginx\/root)\/(icons\/php\.png|api\/icons\.json|api\/icon\/.*|api\/findIcon\/.*|index\.html|catalogue\/.*)|hosts\/(cloudflare\/public|netlify)\/(icons\/php\.png|_edge-data\/.*|index\.html|catalogue\/.*))$/,
      );
    }
    expect(changed.length).toBeLessThan(after.size / 4);

    // The reused build is byte-identical to a build from scratch.
    const fresh = path.join(root, "fresh", "dist"); // a base folder of its own: .netlify/ and .vercel/ belong to one --out
    await buildIt({ out: fresh, reuse: false });
    const scratch = await snapshot(fresh);
    await removeDir(fresh);
    expect([...scratch.keys()].sort()).toEqual([...after.keys()].sort());
    for (const [file, entry] of scratch) expect(after.get(file)!.bytes.equals(entry.bytes), file).toBe(true);
  });

  it("an icon touched (the same bytes, an older time) is copied again in place, and every host's copy of it is that copy", async () => {
    const icon = path.join(content, "icons/php.png");
    const time = Number(TEST_EPOCH) - 86_400; // older than SOURCE_DATE_EPOCH: the copy keeps it
    await utimes(icon, time, time);
    const before = (await stat(path.join(out, "icons/php.png"))).ino;
    const result = await buildIt();
    expect(result.changes.mode).toBe("in place");
    const copy = await stat(path.join(out, "icons/php.png"));
    expect(copy.ino).not.toBe(before);
    expect(Math.round(copy.mtimeMs)).toBe(time * 1000);
    // The hosts' copies are hard links of --out's files: the same file, its new time included.
    const records = layoutOf(out).records;
    for (const host of [
      path.join(records, "hosts/apache"),
      path.join(records, "hosts/cloudflare/public"),
      path.join(root, ".vercel/output/static"),
    ]) {
      const linked = await stat(path.join(host, "icons/php.png"));
      expect(linked.ino, host).toBe(copy.ino);
    }
    // And every other file of .vercel/output/static is still --out's.
    for (const [file, entry] of await snapshot(path.join(root, ".vercel/output/static"))) {
      expect(entry.ino, file).toBe((await stat(path.join(out, file))).ino);
    }
  });

  it("an icon given other bytes of the same size and time (its print unchanged) is copied again in place", async () => {
    // Under SOURCE_DATE_EPOCH a newer time is clamped: the answers' print of the icon (size, time) is the same, and
    // only the bytes' sha1 tells the copy is stale (times normalised by a tool, as Nix does, look like this).
    await buildIt();
    const icon = path.join(content, "icons/json.png");
    const was = await readFile(icon);
    const { mtime } = await stat(icon);
    const other = Buffer.from(was);
    other[other.length - 13] = other[other.length - 13]! ^ 0xff; // a byte of the last chunk's CRC: same size, other bytes
    await writeFile(icon, other);
    await utimes(icon, mtime, mtime);
    const result = await buildIt();
    expect(result.changes.mode).toBe("in place");
    expect((await readFile(path.join(out, "icons/json.png"))).equals(other), "the copy holds the new bytes").toBe(true);
    await writeFile(icon, was);
    await utimes(icon, mtime, mtime);
    await buildIt();
    expect((await readFile(path.join(out, "icons/json.png"))).equals(was), "and back").toBe(true);
  });

  it("without its manifest (the marker) the previous output is not recognised: refused, and with replaceOut nothing is reused", async () => {
    const before = await snapshot(out);
    await rm(path.join(layoutOf(out).records, MANIFEST_FILE));
    await expect(buildIt()).rejects.toBeInstanceOf(UsageError);
    const untouched = await snapshot(out);
    for (const [file, entry] of untouched) expect(entry.ino, file).toBe(before.get(file)!.ino);
    await build({ content, out, sourceDateEpoch: TEST_EPOCH, replaceOut: true });
    const after = await snapshot(out);
    expect(after.get("api/config.json")!.ino).not.toBe(before.get("api/config.json")!.ino);
    expect(after.get("icons/php.png")!.ino).not.toBe(before.get("icons/php.png")!.ino);
    for (const [file, entry] of before) expect(after.get(file)!.bytes.equals(entry.bytes), file).toBe(true);
  });

  it("says how it writes (in place or in full) before it writes a file: the CLI holds V8's heap for a build in full", async () => {
    const run = async (options: { force?: boolean; hosts?: Array<"netlify" | "apache"> } = {}): Promise<string[]> => {
      const seen: string[] = [];
      const result = await build({
        content,
        out,
        sourceDateEpoch: TEST_EPOCH,
        ...options,
        onMode: (mode) => seen.push(mode),
        write: { onFile: () => void seen.push("file") },
      });
      expect(seen.filter((s) => s !== "file").at(-1)).toBe(result.changes.mode);
      return seen.filter((s, i) => s !== "file" || seen[i - 1] !== "file"); // runs of files as one
    };
    await run();
    const icons = JSON.parse(await readFile(path.join(content, "icons.json"), "utf8")) as Record<string, string>;
    icons.php = icons.php === "text.png" ? "php.png" : "text.png";
    await writeFile(path.join(content, "icons.json"), JSON.stringify(icons, null, 4));
    expect(await run()).toEqual(["in place", "in place", "file"]); // likely once --out is claimed, then decided
    expect(await run({ hosts: ["netlify", "apache"] })).toEqual(["full", "file"]); // other hosts: written whole
    expect(await run({ force: true })).toEqual(["full", "file"]);
  });

  it("is expected to be in place only over this tool's build of the same hosts (the CLI lets V8's heap grow for it)", async () => {
    await buildIt();
    const likely = (hosts: readonly string[], dir = out): boolean =>
      likelyInPlace(layoutOf(dir), toolFingerprint(), hosts);
    expect(likely(DEFAULT_HOSTS)).toBe(true);
    expect(likely(["netlify", "apache"])).toBe(false); // other hosts: written in full
    expect(likely(DEFAULT_HOSTS, path.join(root, "none"))).toBe(false);
    const stampFile = layoutOf(out).stamp;
    const text = await readFile(stampFile, "utf8");
    const stamp = JSON.parse(text) as Record<string, unknown>;
    expect(stamp.tool).toEqual(expect.any(String));
    try {
      await writeFile(stampFile, JSON.stringify({ ...stamp, tool: "another tool" }));
      expect(likely(DEFAULT_HOSTS)).toBe(false); // another tool's answers: written in full
      await writeFile(stampFile, JSON.stringify({ ...stamp, tool: undefined }));
      expect(likely(DEFAULT_HOSTS)).toBe(false); // a build from before the stamp named its tool
    } finally {
      await writeFile(stampFile, text);
    }
  });

  it("with reuse off, every file is written anew", async () => {
    const before = await snapshot(out);
    await buildIt({ reuse: false });
    const after = await snapshot(out);
    for (const [file, entry] of before) expect(after.get(file)!.ino, file).not.toBe(entry.ino);
  });
});
