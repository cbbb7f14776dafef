// test/layout/format-change.test.ts
// A build of an older layout format is not read: the readers refuse it with the format it has, and the next build
// writes every folder in full. From format 3, Netlify's publish folder and nginx's root are trees of their own in the
// records (format 2: Netlify published --out, nginx's root was --out); from format 4, the folders beside --out hold
// no file of the build's own (format 3 kept a manifest and a stamp in each).

import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { layoutOf } from "../../src/layout/paths.js";
import { readBuild } from "../../src/layout/read-build.js";
import { LAYOUT_FORMAT } from "../../src/layout/stamp.js";
import { DEMO_CONTENT, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { untrueManifestLines } from "../helpers/manifests.js";

const sha1 = (text: string): string => createHash("sha1").update(text).digest("base64url");

/** Rewrites a file of the records, and its line in the records' manifest, as an older build would have left it. */
function rewriteRecord(records: string, file: string, text: string): void {
  writeFileSync(path.join(records, file), text);
  const manifest = path.join(records, ".build-manifest");
  const entry = `${sha1(text)} ${Buffer.byteLength(text)} ${file}`;
  const escaped = file.replace(/[.]/g, "\\.");
  writeFileSync(manifest, readFileSync(manifest, "utf8").replace(new RegExp(`^\\S+ \\d+ ${escaped}$`, "m"), entry));
}

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

describe("a build of layout format 2", () => {
  it("is refused by the readers and written in full by the next build, with Netlify's and nginx's trees", async () => {
    const root = await tmpDir("bis-format-");
    temps.push(root);
    const options = { content: DEMO_CONTENT, out: path.join(root, "dist"), sourceDateEpoch: TEST_EPOCH };
    await build(options);
    const layout = layoutOf(options.out);
    // What format 2 left: its stamp, and no tree for Netlify or nginx (they read --out itself).
    const stamp = JSON.parse(readFileSync(layout.stamp, "utf8")) as { format: number };
    // The records' manifest lists the stamp as that build wrote it.
    rewriteRecord(layout.records, "build.json", `${JSON.stringify({ ...stamp, format: 2 }, null, 2)}\n`);
    await rm(layout.host("netlify"), { recursive: true });
    await rm(path.join(layout.host("nginx"), "root"), { recursive: true });

    await expect(readBuild(options.out)).rejects.toThrow(`layout format 2; this one reads ${LAYOUT_FORMAT}`);
    const again = await build(options);
    expect(again.changes.mode).toBe("full");
    for (const file of ["config.json", "_edge-data/core.json"])
      expect(existsSync(path.join(layout.host("netlify"), file)), file).toBe(true);
    for (const file of ["config.json", "api/config.json"])
      expect(existsSync(path.join(layout.host("nginx"), "root", file)), file).toBe(true);
    expect(existsSync(path.join(layout.host("netlify"), "api/config.json"))).toBe(false);
    expect(existsSync(path.join(layout.host("nginx"), "root", "_edge-data/core.json"))).toBe(false);
    expect((await readBuild(options.out)).stamp.format).toBe(LAYOUT_FORMAT);
  });
});

describe("a build of layout format 3", () => {
  it("is refused by the readers; the next build takes its folders beside --out and drops the marks in them", async () => {
    const root = await tmpDir("bis-format-");
    temps.push(root);
    const options = { content: DEMO_CONTENT, out: path.join(root, "dist"), sourceDateEpoch: TEST_EPOCH };
    await build(options);
    const layout = layoutOf(options.out);
    // What format 3 left: its stamp, site.id naming --out alone, no manifest of the folders beside --out in the
    // records, and in each of those folders a manifest (its first line the tool's marker) and the stamp.
    const stamp = JSON.parse(readFileSync(layout.stamp, "utf8")) as { format: number; beside: string[] };
    const old = `${JSON.stringify({ ...stamp, format: 3 }, null, 2)}\n`;
    rewriteRecord(layout.records, "build.json", old);
    rewriteRecord(layout.records, "site.id", readFileSync(layout.siteId, "utf8").split("\n")[0] + "\n");
    await rm(path.join(layout.records, "beside"), { recursive: true });
    expect(stamp.beside.length).toBeGreaterThan(0);
    for (const dir of stamp.beside) {
      writeFileSync(path.join(layout.beside(dir), ".build-manifest"), "build-index-site manifest 1\n");
      writeFileSync(path.join(layout.beside(dir), ".build-inputs"), old);
    }

    await expect(readBuild(options.out)).rejects.toThrow(`layout format 3; this one reads ${LAYOUT_FORMAT}`);
    const again = await build(options);
    expect(again.changes.mode).toBe("full");
    for (const dir of stamp.beside) {
      const names = await readdir(layout.beside(dir));
      expect(
        names.filter((n) => n.startsWith(".build-")),
        dir,
      ).toEqual([]);
      expect(existsSync(layout.besideManifest(dir)), dir).toBe(true);
    }
    expect(untrueManifestLines(options.out)).toEqual([]);
    expect((await readBuild(options.out)).complete).toBe(true);
  });
});
