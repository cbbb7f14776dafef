// test/pipeline/incremental-property.ts
// The property of incremental rebuilds (docs/layout.md, "Updating in place"): after any sequence of content edits,
// the output that the in-place update leaves is byte-identical to a fresh full build of the same content, in every
// folder the build writes (--out, the records, .netlify, .vercel, .wrangler), file list included. Random edits at
// real size (the indexer-1.2.0-r2 fixture, copied into a temporary folder so that it can be edited): add, change,
// rename and delete an icon; edit, add and remove a mapping; change config and manifest.
//
// npm test runs BIS_INCREMENTAL_SEQUENCES (default 20) sequences of 5 edits, split between two test files
// (incremental-property-{1,2}.test.ts) so that both of vitest's workers share them; set it higher (and
// BIS_INCREMENTAL_SEED to replay one) for a longer run. A failure prints the seed and the edits that led to it.

import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { cp, readdir, readFile, rename, rm, stat, unlink, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { BuildMemo } from "../../src/pipeline/memo.js";
import type { BuildResult } from "../../src/pipeline/options.js";
import { ContentError } from "../../src/errors.js";
import { squarePng } from "../../src/init/png.js";
import { prng } from "../../scripts/prng.mjs";
import { haveRealFixtures, realFixture, removeDir, tmpDir } from "../helpers/fixtures.js";
import { untrueManifestLines } from "../helpers/manifests.js";

const SEQUENCES = Number(process.env.BIS_INCREMENTAL_SEQUENCES ?? 20);
const EDITS = 5;
const FIRST_SEED = Number(process.env.BIS_INCREMENTAL_SEED ?? 1);
/** A fixed clock, without SOURCE_DATE_EPOCH: content times are not clamped, so edits change last_modified fields. */
const NOW = Date.parse("2026-01-01T00:00:00Z");

const temps: string[] = [];
// Each sequence removes its own folder when it passes; what a failed one leaves is removed here.
afterAll(async () => Promise.all(temps.map(removeDir)), 600_000);

/**
 * Every file of every folder the build writes beside `base`, with a hash of its bytes; site.id (an inode) aside.
 * Synchronous reads, and one hash per inode (the hosts' copies of the site are hard links): thousands of small files
 * per step.
 */
export async function snapshot(base: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const byInode = new Map<number, string>();
  for (const top of ["dist", ".build-index-site", ".netlify", ".vercel", ".wrangler"]) {
    if (!existsSync(path.join(base, top))) continue;
    for (const e of readdirSync(path.join(base, top), { recursive: true, withFileTypes: true })) {
      if (e.isDirectory()) continue;
      const abs = path.join(e.parentPath, e.name);
      const rel = path.relative(base, abs).split(path.sep).join("/");
      // These hold inodes (the folders' record and the content cache, change times too): no two builds write the
      // same. The content cache is no output: what it says of each file is tested in test/content/content-cache.slow.test.ts;
      // nor is the parses' record (test/content/parse-cache.test.ts), which lists the parses in the order they were made.
      if (
        rel === ".build-index-site/dist/site.id" ||
        rel === ".build-index-site/dist.dirs" ||
        rel === ".build-index-site/dist.content" ||
        rel === ".build-index-site/dist.parsed"
      )
        continue;
      const { ino } = statSync(abs);
      let hash = rel === ".build-index-site/dist/.build-manifest" ? undefined : byInode.get(ino);
      if (hash === undefined) {
        hash = createHash("sha1").update(bytesOf(abs, rel)).digest("hex");
        if (rel !== ".build-index-site/dist/.build-manifest") byInode.set(ino, hash);
      }
      out.set(rel, hash);
    }
  }
  return out;
}

/** A file's bytes; the records' own manifest without its line for site.id. */
function bytesOf(abs: string, rel: string): Buffer {
  const bytes = readFileSync(abs);
  if (rel !== ".build-index-site/dist/.build-manifest") return bytes;
  return Buffer.from(
    bytes
      .toString("utf8")
      .split("\n")
      .filter((line) => !line.endsWith(" site.id"))
      .join("\n"),
  );
}

type Json = Record<string, unknown>;
const readJson = async (file: string): Promise<Json> => JSON.parse(await readFile(file, "utf8")) as Json;
const writeJson = (file: string, value: unknown): Promise<void> =>
  writeFile(file, `${JSON.stringify(value, null, 4)}\n`);

/** One random edit of the content; returns what it did, for the failure message. */
/** The files an edit touches, as they were (bytes and time, or absent): `undo` puts them back. */
class Undo {
  private readonly kept = new Map<string, { bytes: Buffer; mtime: Date } | null>();

  keep(file: string): void {
    if (this.kept.has(file)) return;
    this.kept.set(file, existsSync(file) ? { bytes: readFileSync(file), mtime: statSync(file).mtime } : null);
  }

  /** The files kept: those the edit may have touched. */
  files(): string[] {
    return [...this.kept.keys()];
  }

  async undo(): Promise<void> {
    for (const [file, was] of this.kept) {
      if (was === null) await rm(file, { force: true });
      else {
        await writeFile(file, was.bytes);
        await utimes(file, was.mtime, was.mtime);
      }
    }
  }
}

async function randomEdit(content: string, random: () => number, n: number, undo: Undo): Promise<string> {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const icons = (await readdir(path.join(content, "icons"))).filter((f) => f.endsWith(".png")).sort();
  const iconsJson = path.join(content, "icons.json");
  const extJson = path.join(content, "extensionMap.json");
  for (const name of ["icons.json", "extensionMap.json", "config.json", "manifest.json"])
    undo.keep(path.join(content, name));
  const kind = pick([
    "add-icon",
    "change-icon",
    "rename-icon",
    "delete-icon",
    "edit-mapping",
    "add-mapping",
    "remove-mapping",
    "edit-extension",
    "change-config",
    "change-manifest",
  ] as const);
  switch (kind) {
    case "add-icon": {
      const name = `added-${n}.png`;
      undo.keep(path.join(content, "icons", name));
      await writeFile(
        path.join(content, "icons", name),
        squarePng(8 + Math.floor(random() * 24), [Math.floor(random() * 255), 90, 40, 255]),
      );
      return `${kind} ${name}`;
    }
    case "change-icon": {
      const name = pick(icons);
      undo.keep(path.join(content, "icons", name));
      await writeFile(
        path.join(content, "icons", name),
        squarePng(8 + Math.floor(random() * 24), [20, Math.floor(random() * 255), 200, 255]),
      );
      return `${kind} ${name}`;
    }
    case "rename-icon": {
      const name = pick(icons);
      undo.keep(path.join(content, "icons", name));
      undo.keep(path.join(content, "icons", `renamed-${n}.png`));
      await rename(path.join(content, "icons", name), path.join(content, "icons", `renamed-${n}.png`));
      return `${kind} ${name} → renamed-${n}.png`;
    }
    case "delete-icon": {
      const name = pick(icons);
      undo.keep(path.join(content, "icons", name));
      await unlink(path.join(content, "icons", name));
      return `${kind} ${name}`;
    }
    case "edit-mapping": {
      const map = await readJson(iconsJson);
      const key = pick(Object.keys(map).filter((k) => k !== "file" && k !== "folder"));
      map[key] = pick(icons);
      await writeJson(iconsJson, map);
      return `${kind} ${key} → ${String(map[key])}`;
    }
    case "add-mapping": {
      const map = await readJson(iconsJson);
      map[`ext${n}`] = pick(icons);
      await writeJson(iconsJson, map);
      const ext = await readJson(extJson);
      (ext.indexing as Json)[`ext${n}`] = pick(Object.values(ext.indexing as Json));
      await writeJson(extJson, ext);
      return `${kind} ext${n}`;
    }
    case "remove-mapping": {
      const map = await readJson(iconsJson);
      const key = pick(Object.keys(map).filter((k) => k !== "file" && k !== "folder"));
      delete map[key];
      await writeJson(iconsJson, map);
      return `${kind} ${key}`;
    }
    case "edit-extension": {
      const ext = await readJson(extJson);
      const type = pick(["indexing", "viewing"] as const);
      const table = ext[type] as Json;
      const key = pick(Object.keys(table));
      table[key] = pick(Object.values(table));
      await writeJson(extJson, ext);
      return `${kind} ${type}.${key}`;
    }
    case "change-config": {
      const file = path.join(content, "config.json");
      const config = await readJson(file);
      (config.main as Json).cache_type = `cache-${n}`;
      await writeJson(file, config);
      return kind;
    }
    case "change-manifest": {
      const file = path.join(content, "manifest.json");
      const manifest = await readJson(file);
      const versions = manifest.versions as string[];
      if (random() < 0.5 && versions.length > 3) versions.splice(Math.floor(random() * (versions.length - 1)), 1);
      else versions.splice(Math.floor(random() * versions.length), 0, `1.1.${100 + n}`);
      await writeJson(file, manifest);
      return `${kind} (${versions.length} versions)`;
    }
  }
}

const attempt = async (run: () => Promise<BuildResult>): Promise<BuildResult | ContentError> => {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ContentError) return error;
    throw error;
  }
};

/** Half `part` (1 or 2) of the sequences. */
export function propertySuite(part: 1 | 2): void {
  const half = Math.ceil(SEQUENCES / 2);
  const [from, count] = part === 1 ? [FIRST_SEED, half] : [FIRST_SEED + half, SEQUENCES - half];
  describe.skipIf(!haveRealFixtures || count === 0)(
    `incremental rebuilds equal full builds (real fixture, random edits; part ${part})`,
    () => {
      propertySequences(from, count);
    },
  );
}

function propertySequences(from: number, count: number): void {
  for (let seed = from; seed < from + count; seed++) {
    it(
      `sequence ${seed}: ${EDITS} edits, each rebuilt in place and compared with a fresh full build`,
      { timeout: 600_000 },
      async () => {
        const root = await tmpDir("bis-incr-");
        temps.push(root);
        const content = path.join(root, "content");
        await cp(realFixture("indexer-1.2.0-r2"), content, { recursive: true, preserveTimestamps: true });
        const out = path.join(root, "site", "dist");
        // Two rebuilds in three keep what `dev` keeps between builds (src/pipeline/memo.ts: the hosts' files, the parses, the
        // published folders' listings, --out's manifest as the last update left it), so that one such rebuild follows
        // another; the full builds keep nothing, and read nothing back (--force). The memo is told of every file an edit
        // touches, as dev's watcher tells it.
        const memo = new BuildMemo();
        const real = realpathSync(content);
        const seen = (undo: Undo): void => {
          for (const file of undo.files()) memo.changed(real, path.relative(content, file));
        };
        const options = { content, out, nowMs: NOW, sourceDateEpoch: "" };
        await build({ ...options, memo });
        const random = prng(seed);
        const done: string[] = [];
        let inPlace = 0;
        for (let n = 1; n <= EDITS; n++) {
          const undo = new Undo();
          done.push(await randomEdit(content, random, n, undo));
          seen(undo);
          const where = `seed ${seed} (BIS_INCREMENTAL_SEED=${seed} BIS_INCREMENTAL_SEQUENCES=1), after: ${done.join("; ")}`;
          // A full build (--force: every folder written whole and swapped in; unchanged files hard-linked from the last
          // full build in this folder, which is itself one), in a base folder of its own.
          const fresh = path.join(root, "fresh", "dist");
          const full = await attempt(() => build({ ...options, out: fresh, force: true }));
          if (full instanceof ContentError) {
            // Content the build refuses: the update refuses it too, and the output stays as it was.
            const before = await snapshot(path.dirname(out));
            expect(await attempt(() => build({ ...options, memo })), where).toBeInstanceOf(ContentError);
            expect(await snapshot(path.dirname(out)), where).toEqual(before);
            done.push("(refused, undone)");
            await undo.undo();
            seen(undo);
            continue;
          }
          // Every third rebuild keeps no memo: it reads the hosts' files back from the records, as the command does.
          const updated = await build({ ...options, ...(n % 3 !== 0 ? { memo } : {}) });
          // In place unless most of the site changes (then a full build is cheaper): either way, the same bytes.
          if (updated.changes.mode === "in place") inPlace++;
          const got = await snapshot(path.dirname(out));
          const want = await snapshot(path.dirname(fresh));
          expect([...got.keys()].sort(), where).toEqual([...want.keys()].sort());
          const differing = [...want].filter(([file, hash]) => got.get(file) !== hash).map(([file]) => file);
          expect(differing, where).toEqual([]);
          // And it reports what it wrote as the full build does: the same files and bytes.
          expect(updated.counts, where).toEqual((full as BuildResult).counts);
          // Both builds could record the same wrong hash: each manifest line is held to its file's bytes too.
          expect(untrueManifestLines(out), where).toEqual([]);
          expect((await stat(out)).isDirectory()).toBe(true);
        }
        expect(inPlace, `seed ${seed}: ${done.join("; ")}`).toBeGreaterThanOrEqual(2);
        await removeDir(root);
      },
    );
  }
}
