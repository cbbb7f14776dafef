// test/content/parsed-files.test.ts
// What `dev` keeps of the content's parses between builds (src/content/load-content.ts: ParsedFiles): a file whose
// text is unchanged is neither parsed nor checked again, and every diagnostic, with its line and column, is the one
// a build without the memo reports.

import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { buildModel, ParsedFiles, type ModelResult } from "../../src/content/load-content.js";
import { readContent } from "../../src/content/read-content.js";
import { buildClock } from "../../src/model/time.js";
import { demoCopies, TEST_EPOCH } from "../helpers/fixtures.js";

const clock = buildClock(TEST_EPOCH, 0);
const content = demoCopies();

/** Replaces `from` by `to` in a content file (once; the text must hold it). */
async function edit(dir: string, file: string, from: string, to: string): Promise<void> {
  const text = await readFile(path.join(dir, file), "utf8");
  expect(text, `${file} holds ${from}`).toContain(from);
  await writeFile(path.join(dir, file), text.replace(from, to));
}

/** The model with the memo, and the same content's without it: their diagnostics must be equal. */
async function both(dir: string, parsed: ParsedFiles): Promise<{ kept: ModelResult; fresh: ModelResult }> {
  const raw = await readContent(dir);
  const kept = buildModel(raw, { clock, parsed });
  const fresh = buildModel(await readContent(dir), { clock });
  expect(kept.diagnostics).toEqual(fresh.diagnostics);
  return { kept, fresh };
}

describe("ParsedFiles: dev's parses kept by text", () => {
  test("an unchanged file's parse is kept, an edited one's is made again, and the models are a fresh build's", async () => {
    const dir = await content();
    const parsed = new ParsedFiles();
    const first = (await both(dir, parsed)).kept;
    await edit(dir, "icons.json", '"php": "php.png"', '"php": "text.png"');
    const { kept, fresh } = await both(dir, parsed);
    expect(kept.parsed.config?.value, "config.json, unchanged, is not parsed again").toBe(first.parsed.config?.value);
    expect(kept.parsed.extensionMap?.value).toBe(first.parsed.extensionMap?.value);
    expect(kept.parsed.icons?.value, "icons.json, edited, is parsed again").not.toBe(first.parsed.icons?.value);
    expect(kept.model!.iconMap.entries.get("php")).toBe("text.png");
    expect(JSON.stringify([...kept.model!.iconMap.entries])).toBe(JSON.stringify([...fresh.model!.iconMap.entries]));
  });

  test("a warning in a kept file has the line and column of a fresh parse (its positions are found again)", async () => {
    const dir = await content();
    const parsed = new ParsedFiles();
    await edit(dir, "icons.json", '"php": "php.png"', '"php": "no-such-icon.png"');
    await both(dir, parsed);
    await edit(dir, "config.json", '"version"', '"version" ');
    const { kept } = await both(dir, parsed);
    const warning = kept.diagnostics.find((d) => d.code === "ICON_MISSING");
    expect(warning?.line, "the warning has a line").toBeGreaterThan(1);
    expect(warning?.column).toBeGreaterThan(1);
  });

  test("a schema error in a kept file is reported again, at its place, until it is mended", async () => {
    const dir = await content();
    const parsed = new ParsedFiles();
    await edit(dir, "config.json", '"version": "', '"version": 7, "was": "');
    const first = await both(dir, parsed);
    expect(first.kept.model).toBeNull();
    const error = first.kept.diagnostics.find((d) => d.file.endsWith("config.json") && d.severity === "error");
    expect(error?.pointer).toBe("/version");
    await edit(dir, "icons.json", '"php": "php.png"', '"php": "text.png"');
    const again = await both(dir, parsed);
    expect(again.kept.model).toBeNull();
    expect(again.kept.diagnostics.find((d) => d.file.endsWith("config.json") && d.severity === "error")).toEqual(error);
    await edit(dir, "config.json", '"version": 7, "was": "', '"version": "');
    expect((await both(dir, parsed)).kept.model).not.toBeNull();
  });

  test("--base-url given or not: the manifest's schema check is made for each", async () => {
    const dir = await content();
    const parsed = new ParsedFiles();
    await edit(dir, "manifest.json", '"base_url": "https://icons.example.org"', '"base_url": 1');
    const raw = await readContent(dir);
    expect(buildModel(raw, { clock, parsed }).model, "base_url 1 is refused").toBeNull();
    expect(buildModel(raw, { clock, parsed, baseUrl: "https://x.example" }).model, "--base-url replaces it").not.toBeNull();
    expect(buildModel(raw, { clock, parsed }).model, "refused again without --base-url").toBeNull();
  });
});
