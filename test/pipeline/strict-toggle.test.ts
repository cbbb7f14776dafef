// test/pipeline/strict-toggle.test.ts
// --strict changes no byte of a build: switching it writes nothing when the content has no warning, and still
// refuses a content with warnings when the last build of the same inputs is up to date.

import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildIfChanged } from "../../src/pipeline/pipeline.js";
import type { BuildOptions } from "../../src/pipeline/options.js";
import { demoCopies, tempDirs } from "../helpers/fixtures.js";

const demoCopy = demoCopies();
const tempDir = tempDirs();

async function setup(): Promise<BuildOptions> {
  // No SOURCE_DATE_EPOCH: a build that ran again would write the answers' new timestamps.
  return { content: await demoCopy(), out: path.join(await tempDir(), "dist") };
}

/**
 * Every file the build wrote under the project folder (--out, its records and the host folders beside it): inode and
 * mtime. Not the content cache (`dist.content`): it keeps a content file's facts only once the file is older than a
 * moment, so any later build may write it, strict or not (on a loaded machine, the copy made just before).
 */
async function files(root: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name === "dist.content") continue;
    const file = path.join(entry.parentPath, entry.name);
    const s = await stat(file);
    found.set(path.relative(root, file), `${s.ino} ${s.mtimeMs}`);
  }
  return found;
}

const built = (r: Awaited<ReturnType<typeof buildIfChanged>>): boolean => "model" in r;

describe("--strict on and off", () => {
  it("rewrites no file when the content has no warning", async () => {
    const options = await setup();
    const root = path.dirname(options.out);
    expect(built(await buildIfChanged(options))).toBe(true);
    const before = await files(root);
    expect(before.size).toBeGreaterThan(100);
    expect(built(await buildIfChanged({ ...options, strict: true }))).toBe(false);
    expect(await files(root)).toEqual(before);
    expect(built(await buildIfChanged(options))).toBe(false);
    expect(await files(root)).toEqual(before);
  });

  it("refuses content with a warning even when its last build is up to date", async () => {
    const options = await setup();
    const icons = path.join(options.content, "icons.json");
    const map = JSON.parse(await readFile(icons, "utf8")) as Record<string, string>;
    await writeFile(icons, JSON.stringify({ ...map, zzz: "no-such-icon.png" }, null, 4));
    const first = await buildIfChanged(options);
    expect("diagnostics" in first && first.diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ["ICON_MISSING", "warning"],
    ]);
    expect(built(await buildIfChanged(options))).toBe(false);
    const strict = buildIfChanged({ ...options, strict: true });
    await expect(strict).rejects.toMatchObject({ diagnostics: [{ code: "ICON_MISSING", severity: "error" }] });
  });
});
