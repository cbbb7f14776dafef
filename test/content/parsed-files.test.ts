// test/content/parsed-files.test.ts
// What `dev` keeps of the content's parses between builds (src/content/load-content.ts: ParsedFiles): a file whose
// text is unchanged is neither parsed nor checked again, and every diagnostic, with its line and column, is the one
// a build without the memo reports.

import { readFile, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, test } from "vitest";
import * as A from "../../src/php/answers.js";
import { buildModel, ModelParts, ParsedFiles, type ModelResult } from "../../src/content/load-content.js";
import type { SiteModel } from "../../src/model/types.js";
import type { RawFile } from "../../src/content/read-content.js";
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
    expect(
      buildModel(raw, { clock, parsed, baseUrl: "https://x.example" }).model,
      "--base-url replaces it",
    ).not.toBeNull();
    expect(buildModel(raw, { clock, parsed }).model, "refused again without --base-url").toBeNull();
  });
});

describe("cross-checks of a kept parse", () => {
  test("extensionMap.json's findings are kept while it and config.json are, and found again when config.json changes", async () => {
    const dir = await content();
    const parsed = new ParsedFiles();
    const unknown = (r: ModelResult): string[] =>
      r.diagnostics.filter((d) => d.code === "MAPPING_KEY_UNKNOWN").map((d) => `${d.pointer} ${d.line}:${d.column}`);
    await edit(dir, "extensionMap.json", '"php": "index_php"', '"php": "index_phpx"');
    expect(unknown((await both(dir, parsed)).kept)).toEqual(["/indexing/php 3:16"]);
    await edit(dir, "icons.json", '"php": "php.png"', '"php": "text.png"');
    const again = await both(dir, parsed);
    expect(again.kept.parsed.extensionMap?.value, "kept").toBeDefined();
    expect(unknown(again.kept), "extensionMap.json and config.json unchanged").toEqual(["/indexing/php 3:16"]);
    await edit(dir, "config.json", '"index_php": false', '"index_phpx": false');
    expect(unknown((await both(dir, parsed)).kept), "config.json now knows the key").toEqual([]);
  });
});

describe("ModelParts: dev's model parts kept by what they are made of", () => {
  const whole = (site: SiteModel): A.Answer[] => [
    A.info(site),
    A.status(site),
    A.config(site),
    A.icons(site),
    A.iconMappings(site),
    A.configReference(site),
    A.extensionMappings(site, undefined),
    A.extensionMappings(site, "indexing"),
    A.extensionMappings(site, "viewing"),
  ];
  /** The next model with the parts kept, and every whole answer's text held to a model made without them. */
  async function next(dir: string, parsed: ParsedFiles, parts: ModelParts): Promise<SiteModel> {
    const kept = buildModel(await readContent(dir), { clock, parsed, parts }).model!;
    const fresh = buildModel(await readContent(dir), { clock }).model!;
    expect(whole(kept).map(A.answerText)).toEqual(whole(fresh).map(A.answerText));
    return kept;
  }

  test("an unchanged part is the last model's, with the whole answers made of it alone; a changed one is made again", async () => {
    const dir = await content();
    const parsed = new ParsedFiles();
    const parts = new ModelParts();
    const first = await next(dir, parsed, parts);

    await edit(dir, "icons.json", '"php": "php.png"', '"php": "text.png"');
    const second = await next(dir, parsed, parts);
    expect(second.iconMap, "icons.json, edited").not.toBe(first.iconMap);
    expect(A.iconMappings(second)).not.toBe(A.iconMappings(first));
    expect(second.config).toBe(first.config);
    expect(second.extensionMap).toBe(first.extensionMap);
    expect(second.iconDirFiles).toBe(first.iconDirFiles);
    expect(A.icons(second), "made of icons/ and the base URL, both unchanged").toBe(A.icons(first));
    expect(A.config(second)).toBe(A.config(first));
    expect(A.extensionMappings(second, "viewing")).toBe(A.extensionMappings(first, "viewing"));
    expect(A.status(second), "made of the whole model").not.toBe(A.status(first));

    // An icon's bytes (its size), and config.json's time without a change of its bytes.
    const icon = path.join(dir, "icons", "php.png");
    await writeFile(icon, Buffer.concat([await readFile(icon), Buffer.from([0])]));
    await utimes(path.join(dir, "config.json"), new Date("2020-01-01T00:00:00Z"), new Date("2020-01-01T00:00:00Z"));
    const third = await next(dir, parsed, parts);
    expect(third.iconDirFiles).not.toBe(second.iconDirFiles);
    expect(A.icons(third)).not.toBe(A.icons(second));
    expect(third.config, "config.json's time changed").not.toBe(second.config);
    expect(third.config.json, "its parse is kept (the same bytes)").toBe(second.config.json);
    expect(third.iconMap).toBe(second.iconMap);

    // Another base URL: the icons answer (each icon's url) is made again for the same icons/.
    const other = buildModel(await readContent(dir), { clock, parsed, parts, baseUrl: "https://other.example" }).model!;
    expect(other.iconDirFiles).toBe(third.iconDirFiles);
    expect(A.answerText(A.icons(other))).toContain("https://other.example/icons/");
    expect(A.answerText(A.icons(third))).not.toContain("https://other.example/icons/");
  });

  test("icons/'s files: the same map for the same names, sizes and times; a new one for a name changed in place", () => {
    const parts = new ModelParts();
    const file = (name: string, size = 10): RawFile => ({
      path: `icons/${name}`,
      absPath: `/c/icons/${name}`,
      size,
      mtimeMs: 1000,
    });
    const time = (f: RawFile): number => f.mtimeMs / 1000;
    const first = parts.iconDirFilesOf([file("a.png"), file("b.png")], time);
    expect(parts.iconDirFilesOf([file("a.png"), file("b.png")], time)).toBe(first);
    const renamed = parts.iconDirFilesOf([file("a.png"), file("c.png")], time); // as long a name, in its place
    expect([...renamed.keys()]).toEqual(["a.png", "c.png"]);
    expect(parts.iconDirFilesOf([file("a.png"), file("c.png", 11)], time).get("c.png")!.size).toBe(11);
  });
});
