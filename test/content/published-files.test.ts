// test/content/published-files.test.ts
// Issue #8.9: what the published folders may not hold is refused, by name: file names that are not UTF-8 (silently
// dropped, or a crash next to their U+FFFD twin, before), PHP files the Apache drop-in would execute, and links back
// into the content folder (which published manifest.json).

import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import { ContentError, type Diagnostic } from "../../src/errors.js";
import { compileContent } from "../helpers/fixtures.js";
import { baseContentFolders, PNG } from "../helpers/base-content.js";

const { base } = baseContentFolders();

/** The build's errors with `code`, after checking that check exits 1 without an internal error. */
async function refused(dir: string, code: string): Promise<Diagnostic[]> {
  const printed: string[] = [];
  const io = {
    out: (s: string): void => {
      printed.push(s);
    },
    err: (s: string): void => {
      printed.push(s);
    },
  };
  expect(await main(["node", "build-index-site", "check", "--content", dir], io)).toBe(1);
  expect(printed.join("\n")).not.toMatch(/Internal error|\n\s+at /);
  const error = await compileContent(dir).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ContentError);
  return (error as ContentError).diagnostics.filter((d) => d.code === code && d.severity === "error");
}

const latin1Name = (dir: string, folder: string): Buffer =>
  Buffer.concat([Buffer.from(`${dir}/${folder}/caf`), Buffer.from([0xe9]), Buffer.from(".png")]);

describe("#8.9 refused, named", () => {
  it("icon-file-name-not-utf8-is-refused-not-dropped", async () => {
    const dir = await base();
    await writeFile(latin1Name(dir, "icons"), PNG);
    const [d, ...more] = await refused(dir, "FILE_NAME_NOT_UTF8");
    expect(more).toEqual([]);
    expect(d!.file.startsWith(`${dir}/icons/caf`)).toBe(true);
    expect(d!.message).toContain("e9");
  });

  it("style-file-name-not-utf8-next-to-its-replacement-character-twin-does-not-crash", async () => {
    const dir = await base();
    await writeFile(latin1Name(dir, "style"), "a{}\n");
    await writeFile(path.join(dir, "style", "caf\ufffd.png"), "b{}\n");
    expect(await refused(dir, "FILE_NAME_NOT_UTF8")).toHaveLength(1);
  });

  it.each(["x.php", "x.PHP", "x.phtml", "x.phar", "x.php3", "x.php5", "x.php8", "x.pht", "x.phps", "x.php.png"])(
    "server-script-%s-in-a-published-folder-is-refused",
    async (name) => {
      const dir = await base();
      await mkdir(path.join(dir, "style", "deep"), { recursive: true });
      await writeFile(path.join(dir, "style", "deep", name), "<?php echo 1;\n");
      const [d, ...more] = await refused(dir, "SERVER_SCRIPT");
      expect(more).toEqual([]);
      expect(d!.file).toBe(`${dir}/style/deep/${name}`);
      expect(d!.message).toMatch(/Apache/);
    },
  );

  it("server-script-in-favicon-is-refused", async () => {
    const dir = await base();
    await mkdir(path.join(dir, "favicon"));
    await writeFile(path.join(dir, "favicon", "index.phtml"), "<?php\n");
    expect((await refused(dir, "SERVER_SCRIPT"))[0]!.file).toBe(`${dir}/favicon/index.phtml`);
  });

  it("names-that-only-look-like-php-are-published", async () => {
    const dir = await base();
    await writeFile(path.join(dir, "style", "php.css"), "a{}\n");
    await writeFile(path.join(dir, "style", "graph.phpx"), "a{}\n");
    const { site: files } = await compileContent(dir);
    expect(files.map((f) => f.path)).toEqual(expect.arrayContaining(["style/php.css", "style/graph.phpx"]));
  });

  it("symlink-back-to-the-content-root-would-publish-manifest-json", async () => {
    const dir = await base();
    await symlink(dir, path.join(dir, "style", "root"));
    const [d, ...more] = await refused(dir, "SYMLINK_INTO_CONTENT");
    expect(more).toEqual([]);
    expect(d!.file).toBe(`${dir}/style/root`);
  });

  it("symlink-to-manifest-json-is-refused", async () => {
    const dir = await base();
    await symlink(path.join(dir, "manifest.json"), path.join(dir, "icons", "m.png"));
    expect((await refused(dir, "SYMLINK_INTO_CONTENT"))[0]!.file).toBe(`${dir}/icons/m.png`);
  });

  it("symlink-to-a-published-icon-still-builds", async () => {
    const dir = await base();
    await symlink(path.join(dir, "icons", "php.png"), path.join(dir, "icons", "phtml-icon.png"));
    const { diagnostics } = await compileContent(dir);
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });
});
