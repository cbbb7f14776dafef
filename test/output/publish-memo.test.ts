// test/output/publish-memo.test.ts
// What `dev` keeps of its last update in place (src/output/publish.ts: PublishMemo): --out's manifest in lines, used
// by the next update while the records' site.manifest is the file that update wrote, and not once anything else has
// written or touched it; and its text, which an update patches (src/output/manifests/patch.ts) when every line is as
// printed. Either way the output is a fresh full build's, byte for byte (compared as the property test compares
// them: test/pipeline/incremental-property.ts).

import { appendFile, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { BuildMemo } from "../../src/pipeline/memo.js";
import { layoutOf } from "../../src/layout/paths.js";
import { copyContent, DEMO_CONTENT, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { untrueManifestLines } from "../helpers/manifests.js";
import { snapshot } from "../pipeline/incremental-property.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

/** Maps `key` in icons.json to `icon`. */
async function mapTo(content: string, key: string, icon: string): Promise<void> {
  const file = path.join(content, "icons.json");
  const map = JSON.parse(await readFile(file, "utf8")) as Record<string, string>;
  map[key] = icon;
  await writeFile(file, `${JSON.stringify(map, null, 4)}\n`);
}

/** What a fresh full build of `content` writes, in a base folder of its own. */
async function fresh(content: string): Promise<Map<string, string>> {
  const root = await tmpDir("bis-memo-fresh-");
  temps.push(root);
  await build({ content, out: path.join(root, "dist"), sourceDateEpoch: TEST_EPOCH, force: true });
  return snapshot(root);
}

describe("dev's memo of --out's manifest", () => {
  it("is used by the update after an update, and not after another build or a hand changed the record", async () => {
    const content = await copyContent(DEMO_CONTENT);
    const root = await tmpDir("bis-memo-");
    temps.push(content, root);
    const out = path.join(root, "dist");
    const { siteManifest } = layoutOf(out);
    const memo = new BuildMemo();
    const options = { content, out, sourceDateEpoch: TEST_EPOCH, memo };
    await build(options); // a full build: nothing kept
    expect(memo.publish?.siteLines(siteManifest) ?? null).toBeNull();

    await mapTo(content, "php", "text.png");
    expect((await build(options)).changes.mode).toBe("in place");
    expect(memo.publish?.siteLines(siteManifest), "kept by the update").not.toBeNull();
    // Another key: the answers the last update changed are kept now, with the entries the memo holds for them.
    await mapTo(content, "css", "folder.png");
    expect((await build(options)).changes.mode).toBe("in place"); // from the kept lines
    expect(await snapshot(root)).toEqual(await fresh(content));
    expect(untrueManifestLines(out)).toEqual([]);
    expect(memo.publish?.siteLines(siteManifest)).not.toBeNull();
    // The kept lines hold the bytes the update wrote, which the next one patches, and where each set's answers lie.
    expect(
      memo.publish
        ?.siteLines(siteManifest)
        ?.printed?.bytes()
        .equals(await readFile(siteManifest)),
    ).toBe(true);
    const kept = memo.publish!.siteLines(siteManifest)!;
    expect(kept.runs?.size).toBeGreaterThan(10);
    for (const [members, run] of kept.runs!) {
      expect(members.map((m) => `${run.prefix}${m}.json`)).toEqual(
        kept.paths.slice(run.start, run.start + members.length),
      );
    }

    // Another build (the command, no memo) writes the record anew: the memo's lines are not used.
    await mapTo(content, "php", "markdown.png");
    await build({ content, out, sourceDateEpoch: TEST_EPOCH });
    expect(memo.publish?.siteLines(siteManifest)).toBeNull();
    await mapTo(content, "php", "folder.png");
    await build(options);
    expect(await snapshot(root)).toEqual(await fresh(content));

    // A hand changes the record (a line for a file that is not there): the memo's lines are not used.
    expect(memo.publish?.siteLines(siteManifest)).not.toBeNull();
    await appendFile(siteManifest, "2jmj7l5rSw0yVb_vlWAYkK_YBwk 0 icons/zz-hand.png\n");
    expect(memo.publish?.siteLines(siteManifest)).toBeNull();
    await mapTo(content, "php", "text.png");
    await build(options);
    expect(await snapshot(root)).toEqual(await fresh(content));
  });
});

describe("a patch of the records' site.manifest", () => {
  // Lines a hand changed to say the same (a size with a leading zero, a sha1 whose last character's spare bits are
  // set) read as the entries they were; a patch would keep them, a full print does not.
  const edits: Array<[string, (line: string) => string]> = [
    ["a size with a leading zero", (line) => line.replace(/^(\S{27}) (\d+) /, "$1 0$2 ")],
    [
      "a sha1's spare bits set",
      (line) =>
        line.replace(/^(\S{26})(\S) /, (_m, head: string, last: string) => {
          const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
          return `${head}${alphabet[alphabet.indexOf(last) | 1]!} `;
        }),
    ],
  ];
  for (const [what, edit] of edits) {
    it(`is not made from a text with ${what}: the update prints it whole, as a full build does`, async () => {
      const content = await copyContent(DEMO_CONTENT);
      const root = await tmpDir("bis-patch-");
      temps.push(content, root);
      const out = path.join(root, "dist");
      const { siteManifest } = layoutOf(out);
      await build({ content, out, sourceDateEpoch: TEST_EPOCH });
      const lines = (await readFile(siteManifest, "utf8")).split("\n");
      const at = lines.findIndex((line) => line.endsWith(" icons/php.png"));
      const edited = edit(lines[at]!);
      expect(edited).not.toBe(lines[at]);
      lines[at] = edited;
      await writeFile(siteManifest, lines.join("\n"));
      await mapTo(content, "php", "text.png"); // a few answers change, icons/php.png does not
      expect((await build({ content, out, sourceDateEpoch: TEST_EPOCH })).changes.mode).toBe("in place");
      expect(await snapshot(root)).toEqual(await fresh(content));
      expect(untrueManifestLines(out)).toEqual([]);
    });
  }
});
