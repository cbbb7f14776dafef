// test/output/records-tampered.test.ts
// The in-place update removes what the last build's records list and no longer plans. A record naming a path outside
// its folder ("../x": a manifest or journal line edited, or written by something else) must remove nothing there:
// such a line is not this tool's. Before the check, one line "../victim.txt" in site.manifest made a rebuild remove
// the folder holding --out, content and all.

import { existsSync } from "node:fs";
import { appendFile, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { layoutOf } from "../../src/layout/paths.js";
import { copyContent, DEMO_CONTENT, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

/** Edits one mapping of the content: the next build is an in-place update. */
async function editMapping(content: string, icon: string): Promise<void> {
  const file = path.join(content, "icons.json");
  const map = JSON.parse(await readFile(file, "utf8")) as Record<string, string>;
  map.zzz = icon;
  await writeFile(file, `${JSON.stringify(map, null, 4)}\n`);
}

describe("records naming paths outside their folder", () => {
  it("a manifest line or a journal line pointing outside removes nothing there, and the update still completes", async () => {
    const content = await copyContent(DEMO_CONTENT);
    const root = await tmpDir("bis-tampered-");
    temps.push(content, root);
    const out = path.join(root, "site", "dist");
    await mkdir(path.dirname(out));
    const options = { content, out, sourceDateEpoch: TEST_EPOCH };
    await build(options);
    const layout = layoutOf(out);
    const victim = path.join(root, "site", "victim.txt");
    const outside = path.join(root, "outside.txt");
    await writeFile(victim, "keep\n");
    await writeFile(outside, "keep\n");
    const entry = "Z6rhUbzvYGgU3zv0QNyH1gsfLZI 5";
    // --out's manifest and the records' own: files and a folder above their folder.
    await appendFile(
      layout.siteManifest,
      `${entry} ../victim.txt\n${entry} ../../outside.txt\n${entry} api/../../victim.txt\n`,
    );
    await appendFile(path.join(layout.records, ".build-manifest"), `${entry} ../../site/victim.txt\n`);

    await editMapping(content, "php.png");
    expect((await build(options)).changes.mode).toBe("in place");
    expect(await readFile(victim, "utf8")).toBe("keep\n");
    expect(await readFile(outside, "utf8")).toBe("keep\n");
    expect(existsSync(path.join(out, "icons.json"))).toBe(true);

    // A journal left by an "interrupted" update, naming the same paths: finished, and nothing outside is touched.
    await writeFile(
      layout.journal,
      `build-index-site update 1\n${out}\t../victim.txt\n${out}\t../../outside.txt\n${layout.records}\t../../site/victim.txt\n`,
    );
    await editMapping(content, "text.png");
    await build(options);
    expect(existsSync(layout.journal)).toBe(false);
    expect(await readFile(victim, "utf8")).toBe("keep\n");
    expect(await readFile(outside, "utf8")).toBe("keep\n");
    expect(JSON.parse(await readFile(path.join(out, "icons.json"), "utf8"))).toMatchObject({ zzz: "text.png" });
  });
});
