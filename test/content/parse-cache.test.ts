// test/content/parse-cache.test.ts
// The record of the content's parses (src/content/parse-cache.ts): the next command takes a JSON file's parse and
// schema problems from it when the file's bytes are those it was made from, and parses the file again otherwise; a
// record of another tool, or damaged in any byte, is not read.

import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { buildModel, ParsedFiles } from "../../src/content/load-content.js";
import { parsesRecord, readParses, writeParses as writeRecord } from "../../src/content/parse-cache.js";
import { readContent } from "../../src/content/read-content.js";
import { layoutOf } from "../../src/layout/paths.js";
import { buildClock } from "../../src/model/time.js";
import { copyContent, DEMO_CONTENT, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";

const clock = buildClock(TEST_EPOCH, 0);
const TOOL = "tool-a";
const temps: string[] = [];
afterAll(async () => {
  for (const dir of temps) await removeDir(dir);
});

async function folder(): Promise<{ content: string; record: string }> {
  const content = await copyContent(DEMO_CONTENT);
  const dir = await tmpDir();
  temps.push(content, dir);
  return { content, record: path.join(dir, "dist.parsed") };
}

const writeParses = (file: string, tool: string, parses: Parameters<typeof parsesRecord>[1]): void =>
  writeRecord(file, parsesRecord(tool, parses));

/** Parses the content with a record's parses, and without: their models and diagnostics must be the same. */
async function withRecord(content: string, record: string, tool = TOOL): Promise<ParsedFiles> {
  const parsed = new ParsedFiles(() => readParses(record, tool));
  const kept = buildModel(await readContent(content), { clock, parsed });
  const fresh = buildModel(await readContent(content), { clock });
  expect(kept.diagnostics).toEqual(fresh.diagnostics);
  expect(JSON.stringify(kept.model, (_, v: unknown) => (v instanceof Map ? [...v] : v))).toBe(
    JSON.stringify(fresh.model, (_, v: unknown) => (v instanceof Map ? [...v] : v)),
  );
  return parsed;
}

describe("the parses' record", () => {
  test("holds every JSON file's parse; read back, nothing is parsed again, and the model is a fresh parse's", async () => {
    const { content, record } = await folder();
    const first = await withRecord(content, record);
    expect(first.changed).toBe(true);
    writeParses(record, TOOL, first.entries());
    expect(
      readParses(record, TOOL)
        .map((k) => k.name)
        .sort(),
    ).toEqual(["config", "extensionMap", "icons", "manifest"]);
    const again = await withRecord(content, record);
    expect(again.changed, "every parse came from the record").toBe(false);
  });

  test("a file whose bytes changed is parsed again; the others come from the record", async () => {
    const { content, record } = await folder();
    writeParses(record, TOOL, (await withRecord(content, record)).entries());
    const icons = path.join(content, "icons.json");
    await writeFile(icons, (await readFile(icons, "utf8")).replace('"php": "php.png"', '"php": "text.png"'));
    const parsed = await withRecord(content, record);
    expect(parsed.changed).toBe(true);
    const model = buildModel(await readContent(content), {
      clock,
      parsed: new ParsedFiles(() => parsed.entries()),
    }).model;
    expect(model?.iconMap.entries.get("php")).toBe("text.png");
  });

  test("holds nothing of where the content is: read for a copy elsewhere, its diagnostics name the copy's files", async () => {
    const { content, record } = await folder();
    const config = path.join(content, "config.json");
    await writeFile(config, (await readFile(config, "utf8")).replace('"version": "', '"version": 7, "was": "'));
    writeParses(record, TOOL, (await withRecord(content, record)).entries());
    expect((await readFile(record)).includes(Buffer.from(content)), "no path in the record").toBe(false);
    const copy = await copyContent(content);
    temps.push(copy);
    const parsed = await withRecord(copy, record); // its diagnostics are a fresh parse's of the copy
    expect(parsed.changed, "every parse came from the record").toBe(false);
  });

  test("another tool's record, or one damaged in any byte, is not read", async () => {
    const { content, record } = await folder();
    writeParses(record, TOOL, (await withRecord(content, record)).entries());
    expect(readParses(record, "tool-b")).toEqual([]);
    expect((await withRecord(content, record, "tool-b")).changed).toBe(true);
    const bytes = await readFile(record);
    for (const at of [0, 40, bytes.length >> 1, bytes.length - 1]) {
      const damaged = Buffer.from(bytes);
      damaged[at] = damaged[at]! ^ 0x20;
      await writeFile(record, damaged);
      expect(readParses(record, TOOL), `byte ${at}`).toEqual([]);
    }
    await writeFile(record, bytes.subarray(0, bytes.length - 3));
    expect(readParses(record, TOOL), "cut short").toEqual([]);
  });

  test("a build writes it beside its records, and writes it again over one that is not a record", async () => {
    const { content } = await folder();
    const out = path.join(await tmpDir(), "dist");
    temps.push(path.dirname(out));
    await build({ content, out, sourceDateEpoch: TEST_EPOCH });
    const { parsedCache } = layoutOf(out);
    expect(readParses(parsedCache, (await import("../../src/pipeline/up-to-date.js")).toolFingerprint()).length).toBe(
      4,
    );
    await writeFile(parsedCache, "not a record");
    await build({ content, out, sourceDateEpoch: TEST_EPOCH, force: true });
    expect((await readFile(parsedCache)).toString("utf8", 0, 25)).toBe("build-index-site parsed 1");
  });
});
