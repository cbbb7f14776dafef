// test/content/name-limits.test.ts
// Issue #8.7: keys, versions and icon file names too long to become an answer file name crashed the build as INTERNAL
// with a stack trace. A file name holds at most 255 bytes: "<name>.json" fits names of 250 characters
// (A-Z a-z 0-9 . _ -), and other names are stored as "~<hex of each UTF-8 byte>.json", which fits 124 bytes.
// check refuses longer names, stating the limit; names at the limit build, files and all.

import { readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import { ContentError, type Diagnostic } from "../../src/errors.js";
import { compileContent, tmpDir } from "../helpers/fixtures.js";
import { baseContentFolders, edit, PNG } from "../helpers/base-content.js";

const { base, temps } = baseContentFolders();

const withIconKey = async (key: string): Promise<string> => {
  const dir = await base();
  await edit(dir, "icons.json", `"txt": "text.png",`, `"txt": "text.png",\n  ${JSON.stringify(key)}: "text.png",`);
  return dir;
};

/** `check` fails with exit 1, prints no stack trace and no "Internal error", and the error names `code`. */
async function refused(dir: string, code: string): Promise<Diagnostic> {
  const err: string[] = [];
  const io = {
    out: (s: string): void => {
      err.push(s);
    },
    err: (s: string): void => {
      err.push(s);
    },
  };
  expect(await main(["node", "build-index-site", "check", "--content", dir], io)).toBe(1);
  const printed = err.join("\n");
  expect(printed).not.toMatch(/Internal error|\n\s+at /);
  expect(printed).toContain(code);
  const error = await compileContent(dir).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ContentError);
  const found = (error as ContentError).diagnostics.filter((d) => d.code === code);
  expect(found, JSON.stringify((error as ContentError).diagnostics, null, 1)).toHaveLength(1);
  return found[0]!;
}

describe("#8.7 names too long to become an answer file name", () => {
  it("icons-key-of-251-characters-is-refused-with-the-limit", async () => {
    const dir = await withIconKey("a".repeat(251));
    const d = await refused(dir, "NAME_TOO_LONG");
    expect(d).toMatchObject({ severity: "error", file: `${dir}/icons.json`, pointer: `/${"a".repeat(251)}`, line: 5 });
    expect(d.message).toContain("250");
  });

  it("extension-map-key-of-125-utf8-bytes-escaped-is-refused-with-the-limit", async () => {
    const key = "+".repeat(125);
    const dir = await base();
    await edit(dir, "extensionMap.json", `"txt": "index_txt"`, `"txt": "index_txt",\n    "${key}": "index_txt"`);
    const d = await refused(dir, "NAME_TOO_LONG");
    expect(d).toMatchObject({ file: `${dir}/extensionMap.json`, pointer: `/indexing/${key}` });
    expect(d.message).toContain("124");
  });

  it("multibyte-key-over-124-bytes-is-refused", async () => {
    const dir = await withIconKey("é".repeat(63)); // 126 bytes
    expect((await refused(dir, "NAME_TOO_LONG")).pointer).toBe(`/${"é".repeat(63)}`);
  });

  it("version-of-251-characters-is-refused", async () => {
    const v = `1.${"0".repeat(249)}`;
    const dir = await base();
    await edit(dir, "manifest.json", `"1.1", "1.2.0"]`, `"1.1", "1.2.0", "${v}"]`);
    const d = await refused(dir, "NAME_TOO_LONG");
    expect(d).toMatchObject({ file: `${dir}/manifest.json`, pointer: "/versions/3" });
  });

  it("icon-file-name-of-251-characters-is-refused", async () => {
    const dir = await base();
    const name = `${"i".repeat(247)}.png`;
    await writeFile(path.join(dir, "icons", name), PNG);
    const d = await refused(dir, "NAME_TOO_LONG");
    expect(d.file).toBe(`${dir}/icons/${name}`);
  });

  it("names-at-the-limit-build-and-are-written", async () => {
    const dir = await withIconKey("k".repeat(250));
    await edit(
      dir,
      "icons.json",
      `"php": "php.png",`,
      `"php": "php.png",\n  ${JSON.stringify("+".repeat(124))}: "php.png",`,
    );
    await edit(dir, "manifest.json", `"1.1", "1.2.0"]`, `"1.1", "1.2.0", "${"9".repeat(250)}"]`);
    await writeFile(path.join(dir, "icons", `${"i".repeat(246)}.png`), PNG);
    const { diagnostics } = await compileContent(dir);
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const out = path.join(await tmpDir("bis-names-out-"), "dist");
    temps.push(path.dirname(out));
    const quiet = { out: (): void => {}, err: (): void => {} };
    expect(await main(["node", "build-index-site", "build", "--content", dir, "--out", out, "--quiet"], quiet)).toBe(0);
    const all = await readdir(out, { recursive: true });
    expect(all.some((f) => path.basename(f) === `${"k".repeat(250)}.json`)).toBe(true);
    expect(all.some((f) => path.basename(f) === `~${"2b".repeat(124)}.json`)).toBe(true);
  });
});
