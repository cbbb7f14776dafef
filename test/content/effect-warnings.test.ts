// test/content/effect-warnings.test.ts
// Issue #10.6: mistakes that used to pass silently are warnings that name their effect (and fail --strict), while the
// bundled content/ and `init`'s starter content still build under --strict with no warning at all.

import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import type { Diagnostic } from "../../src/errors.js";
import { starterContent } from "../../src/init/templates.js";
import { compileContent, DEMO_CONTENT, tmpDir } from "../helpers/fixtures.js";
import { baseContentFolders, edit } from "../helpers/base-content.js";

const { base, temps } = baseContentFolders();
const silent = { out: (): void => {}, err: (): void => {} };

/** The one warning with this code, after checking the content still builds (warnings only) and fails --strict. */
async function onlyWarning(dir: string, code: string): Promise<Diagnostic> {
  const { diagnostics } = await compileContent(dir);
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const found = diagnostics.filter((d) => d.code === code);
  expect(found, JSON.stringify(diagnostics, null, 1)).toHaveLength(1);
  expect(found[0]!.severity).toBe("warning");
  expect(found[0]!.hint).toBeTruthy();
  expect(await main(["node", "build-index-site", "check", "--content", dir], silent)).toBe(0);
  expect(await main(["node", "build-index-site", "check", "--content", dir, "--strict"], silent)).toBe(1);
  return found[0]!;
}

describe("warnings that name their effect", () => {
  it("extension-map-key-with-leading-dot-never-matches", async () => {
    const dir = await base();
    await edit(dir, "extensionMap.json", `"txt": "index_txt"`, `"txt": "index_txt",\n    ".md": "index_txt"`);
    const w = await onlyWarning(dir, "KEY_LEADING_DOT");
    expect(w).toMatchObject({ file: `${dir}/extensionMap.json`, pointer: "/indexing/.md", line: 5, column: 12 });
    expect(w.message).toMatch(/without one/);
    expect(w.message).toMatch(/never matches/);
    expect(w.hint).toContain(`"md"`);
  });

  it("icons-key-with-leading-dot-never-matches", async () => {
    const dir = await base();
    await edit(dir, "icons.json", `"txt": "text.png",`, `"txt": "text.png",\n  ".md": "text.png",`);
    const w = await onlyWarning(dir, "KEY_LEADING_DOT");
    expect(w).toMatchObject({ file: `${dir}/icons.json`, pointer: "/.md", line: 5, column: 10 });
    expect(w.message).toMatch(/findIcon never matches/);
  });

  it("manifest-versions-empty-tells-every-client-update-available", async () => {
    const dir = await base();
    await edit(dir, "manifest.json", `["1.0", "1.1", "1.2.0"]`, "[]");
    const w = await onlyWarning(dir, "VERSIONS_EMPTY");
    expect(w).toMatchObject({ file: `${dir}/manifest.json`, pointer: "/versions", line: 6, column: 15 });
    // The reference's versionCheck answer for an unlisted version (reference-behaviour: "Update available: <v> -> <latest>").
    expect(w.message).toContain(`"Update available:  -> 1.2.0"`);
  });

  it("manifest-versions-missing-config-version-tells-its-clients-update-available", async () => {
    const dir = await base();
    await edit(dir, "manifest.json", `["1.0", "1.1", "1.2.0"]`, `["1.0", "1.1"]`);
    const w = await onlyWarning(dir, "VERSION_LATEST_UNLISTED");
    expect(w).toMatchObject({ file: `${dir}/manifest.json`, pointer: "/versions" });
    expect(w.message).toContain(`"1.2.0"`);
    expect(w.message).toContain("Update available:  -> 1.2.0");
    expect(w.hint).toBe(`Add "1.2.0" to "versions".`);
  });

  it("config-setting-value-the-reference-does-not-list", async () => {
    const dir = await base();
    await edit(dir, "config.json", `"cache_type": "sqlite"`, `"cache_type": "redis"`);
    const w = await onlyWarning(dir, "CONFIG_SETTING_VALUE");
    expect(w).toMatchObject({ file: `${dir}/config.json`, pointer: "/main/cache_type" });
    expect(w.message).toBe(
      `main.cache_type is "redis", which the indexer's configuration reference does not list: it may not understand it.`,
    );
    expect(w.hint).toBe(`Use one of "sqlite", "json".`);
  });

  it("icons-schema-key-becomes-an-extension", async () => {
    const dir = await base();
    await edit(dir, "icons.json", `{\n`, `{\n  "$schema": "../schemas/icons.schema.json",\n`);
    const w = await onlyWarning(dir, "ICONS_SCHEMA_KEY");
    expect(w).toMatchObject({ file: `${dir}/icons.json`, pointer: "/$schema", line: 2, column: 14 });
    expect(w.message).toMatch(/extension/);
    expect(w.hint).toMatch(/editor's settings/);
  });
});

describe("content that must stay free of warnings", () => {
  it("bundled-content-builds-strict-with-no-warning", async () => {
    const { diagnostics } = await compileContent(DEMO_CONTENT);
    expect(diagnostics).toEqual([]);
    expect(await main(["node", "build-index-site", "check", "--content", DEMO_CONTENT, "--strict"], silent)).toBe(0);
  });

  it("init-starter-content-builds-strict-with-no-warning-once-its-base-url-is-set", async () => {
    const dir = await tmpDir("bis-init-");
    temps.push(dir);
    for (const [rel, data] of starterContent()) {
      await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
      await writeFile(path.join(dir, rel), data);
    }
    // Its placeholder base URL is the one warning (issue 55: --strict refuses it).
    const w = await onlyWarning(dir, "BASE_URL_PLACEHOLDER");
    expect(w).toMatchObject({ file: `${dir}/manifest.json`, pointer: "/base_url" });
    expect((await compileContent(dir)).diagnostics).toHaveLength(1);
    const site = ["--base-url", "https://icons.example.com"];
    expect(await main(["node", "build-index-site", "check", "--content", dir, "--strict", ...site], silent)).toBe(0);
    await edit(dir, "manifest.json", "https://your-site.example", "https://icons.example.com");
    expect((await compileContent(dir)).diagnostics).toEqual([]);
  });
});
