// test/pipeline/once.test.ts
// Issue 54: a build that no later build reads (--once) writes none of the records that serve only the next build's
// incremental work, removes those an earlier build left that could mislead, and the next build still works: its
// output is byte-identical to a fresh full build of the same content.

import { existsSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { copyContent, DEMO_CONTENT, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

/** The records that only a later build reads (docs/layout.md), relative to the folder that holds dist/. */
const NEXT_BUILD_ONLY = [
  ".build-index-site/dist.content",
  ".build-index-site/dist.parsed",
  ".build-index-site/dist.dirs",
  ".build-index-site/dist/answer-inputs.json",
];
const present = (base: string): string[] => NEXT_BUILD_ONLY.filter((f) => existsSync(path.join(base, f)));

async function snapshot(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out.set(path.relative(dir, file), await readFile(file));
  }
  return out;
}

describe("build --once", () => {
  it("writes none of the next build's records, and a build after it matches a fresh full build", async () => {
    const root = await tmpDir();
    temps.push(root);
    const content = await copyContent(DEMO_CONTENT);
    temps.push(content);
    const base = path.join(root, "site");
    const out = path.join(base, "dist");
    // Without --once every one of them is written (what the assertion below tells apart).
    await build({ content, out: path.join(root, "plain", "dist"), sourceDateEpoch: TEST_EPOCH });
    expect(present(path.join(root, "plain"))).toEqual(NEXT_BUILD_ONLY);

    await build({ content, out, sourceDateEpoch: TEST_EPOCH, once: true });
    expect(present(base)).toEqual([]);
    expect(existsSync(path.join(base, ".build-index-site/dist/site.manifest"))).toBe(true);

    // An edit, built over the --once output in the ordinary way, and the same content built fresh.
    const icons = path.join(content, "icons.json");
    await writeFile(icons, (await readFile(icons, "utf8")).replace('"php": "php.png"', '"php": "text.png"'));
    const again = await build({ content, out, sourceDateEpoch: TEST_EPOCH });
    expect(again.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(present(base)).toEqual(NEXT_BUILD_ONLY);
    const fresh = path.join(root, "fresh", "dist");
    await build({ content, out: fresh, sourceDateEpoch: TEST_EPOCH });
    const [a, b] = [await snapshot(out), await snapshot(fresh)];
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    for (const [file, bytes] of a) expect(b.get(file)!.equals(bytes), file).toBe(true);
  });

  it("over an earlier build, leaves no record of it that the next build would trust", async () => {
    const root = await tmpDir();
    temps.push(root);
    const content = await copyContent(DEMO_CONTENT);
    temps.push(content);
    const out = path.join(root, "dist");
    await build({ content, out, sourceDateEpoch: TEST_EPOCH });
    const icons = path.join(content, "icons.json");
    await writeFile(icons, (await readFile(icons, "utf8")).replace('"php": "php.png"', '"php": "text.png"'));
    await build({ content, out, sourceDateEpoch: TEST_EPOCH, once: true });
    // The folders' record and answer-inputs.json describe the earlier build's folders and answers: gone. The content
    // cache and the parses' record are keyed by each file's identity and bytes: still true, left as they were.
    expect(existsSync(path.join(root, ".build-index-site/dist.dirs"))).toBe(false);
    expect(existsSync(path.join(root, ".build-index-site/dist/answer-inputs.json"))).toBe(false);
    const answer = JSON.parse(await readFile(path.join(out, "api/findIcon/file/php.json"), "utf8")) as unknown;
    expect(JSON.stringify(answer)).toContain("text.png");
  });
});
