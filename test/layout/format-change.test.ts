// test/layout/format-change.test.ts
// Layout format 3 (Netlify's publish folder and nginx's root are trees of their own in the records): a build of
// format 2 (Netlify published --out, nginx's root was --out) is not read. The readers refuse it with the format it
// has, and the next build writes every folder in full, with every upload's tree.

import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { layoutOf } from "../../src/layout/paths.js";
import { readBuild } from "../../src/layout/read-build.js";
import { DEMO_CONTENT, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";

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
    const old = `${JSON.stringify({ ...stamp, format: 2 }, null, 2)}\n`;
    writeFileSync(layout.stamp, old);
    // The records' manifest lists the stamp as that build wrote it.
    const manifest = path.join(layout.records, ".build-manifest");
    const entry = `${createHash("sha1").update(old).digest("base64url")} ${Buffer.byteLength(old)} build.json`;
    writeFileSync(manifest, readFileSync(manifest, "utf8").replace(/^\S+ \d+ build\.json$/m, entry));
    await rm(layout.host("netlify"), { recursive: true });
    await rm(path.join(layout.host("nginx"), "root"), { recursive: true });

    await expect(readBuild(options.out)).rejects.toThrow(/layout format 2; this one reads 3/);
    const again = await build(options);
    expect(again.changes.mode).toBe("full");
    for (const file of ["config.json", "_edge-data/core.json"])
      expect(existsSync(path.join(layout.host("netlify"), file)), file).toBe(true);
    for (const file of ["config.json", "api/config.json"])
      expect(existsSync(path.join(layout.host("nginx"), "root", file)), file).toBe(true);
    expect(existsSync(path.join(layout.host("netlify"), "api/config.json"))).toBe(false);
    expect(existsSync(path.join(layout.host("nginx"), "root", "_edge-data/core.json"))).toBe(false);
    expect((await readBuild(options.out)).stamp.format).toBe(3);
  });
});
