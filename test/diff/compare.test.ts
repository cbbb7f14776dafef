// test/diff/compare.test.ts
// The pure core of `diff` on small sites written by hand: each kind of change, and how the Markdown and text show it.

import { describe, expect, test } from "vitest";
import { diffJson, diffSites, hasAny } from "../../src/diff/compare-sites.js";
import { FOLD_AFTER, mdCode, renderJson, renderMarkdown, renderText } from "../../src/diff/render.js";
import type { IconFile, SiteDescription } from "../../src/diff/site.js";

const icon = (size: number, sha1: string, px = 16): IconFile => ({ size, sha1, width: px, height: px });

function site(overrides: Partial<SiteDescription> = {}): SiteDescription {
  return {
    source: "old",
    kind: "content",
    format: null,
    files: new Map([
      ["text.png", icon(10, "t")],
      ["folder.png", icon(11, "f")],
      ["php.png", icon(12, "p")],
      ["js.png", icon(13, "j")],
    ]),
    // "Makefile" is never found: findIcon looks the extension up lower-cased, and the keys as written.
    iconMap: new Map([
      ["php", "php.png"],
      ["js", "js.png"],
      ["dockerfile", "php.png"],
      ["Makefile", "php.png"],
    ]),
    indexing: new Map([
      ["php", "index_php"],
      ["js", "index_js"],
    ]),
    viewing: new Map([["php", "view_php"]]),
    config: { version: "1.1", main: { a: 1, "x/y": true } },
    latestVersion: "1.1",
    versions: ["1.0", "1.1"],
    ...overrides,
  };
}

describe("diffSites", () => {
  test("two equal sites: no change, and the report says so", () => {
    const diff = diffSites(site(), site({ source: "new" }));
    expect(Object.values(diff.counts).every((n) => n === 0)).toBe(true);
    expect(renderMarkdown(diff)).toBe(
      "## What clients will see change: `old` → `new`\n\nNo change a client can see.\n",
    );
    expect(renderText(diff)).toBe("old → new\nNo change a client can see.\n");
  });

  test("icons: added, removed, changed (other bytes of the same size; other dimensions)", () => {
    const b = site({
      files: new Map([
        ["text.png", icon(10, "t2")],
        ["folder.png", icon(11, "f")],
        ["js.png", icon(20, "j2", 32)],
        ["new.svg", icon(5, "n")],
        ["notes.txt", icon(1, "x")],
      ]),
    });
    const diff = diffSites(site(), b);
    expect(diff.icons.added.map((i) => i.name)).toEqual(["new.svg"]); // notes.txt is no icon
    expect(diff.icons.removed.map((i) => i.name)).toEqual(["php.png"]);
    expect(diff.icons.changed.map((i) => i.name)).toEqual(["js.png", "text.png"]);
    const md = renderMarkdown(diff);
    expect(md).toContain("| `js.png` | 13 B → 20 B | 16×16 → 32×32 |");
    expect(md).toContain("| `text.png` | 10 B (same size, other bytes) | 16×16 |");
    // php.png is gone: php (and the file name dockerfile, only icons.json knows it) now get text.png; makefile got
    // text.png before too.
    expect(diff.mappings.indexing).toEqual([
      { name: "php", old: { icon: "php.png" }, new: { icon: "text.png", missing: "php.png" } },
    ]);
    expect(diff.mappings.viewing).toEqual(diff.mappings.indexing);
    expect(diff.mappings.other).toEqual([
      { name: "dockerfile", old: { icon: "php.png" }, new: { icon: "text.png", missing: "php.png" } },
    ]);
    expect(md).toContain("- `php`: `php.png` → `text.png` (`php.png` is missing)");
    expect(hasAny(diff, ["removed-icon"])).toBe(true);
    expect(hasAny(diff, ["changed-setting"])).toBe(false);
  });

  test("without text.png, an unmapped extension gets no icon (404); folders follow icons.json's folder key", () => {
    const b = site({
      files: new Map([
        ["folder.png", icon(11, "f")],
        ["php.png", icon(12, "p")],
        ["js.png", icon(13, "j")],
        ["dir.png", icon(3, "d")],
      ]),
      iconMap: new Map([
        ["php", "php.png"],
        ["js", "js.png"],
        ["dockerfile", "php.png"],
        ["Makefile", "php.png"],
        ["folder", "dir.png"],
      ]),
    });
    const diff = diffSites(site(), b);
    expect(diff.mappings.unmapped).toEqual({
      name: "(unmapped)",
      old: { icon: "text.png" },
      new: { icon: null, missing: "text.png" },
    });
    expect(diff.mappings.folder).toEqual({ name: "folder", old: { icon: "folder.png" }, new: { icon: "dir.png" } });
    expect(renderMarkdown(diff)).toContain(
      "- Any unmapped extension: `text.png` → no icon (404) (`text.png` is missing)",
    );
  });

  test("extension settings: added, removed, changed, looked up lower-cased", () => {
    const b = site({
      indexing: new Map([
        ["php", "index_php8"],
        ["ts", "index_ts"],
      ]),
      viewing: new Map([
        ["php", "view_php"],
        ["MD", "view_md"],
      ]), // MD is never found: getExtensionSetting lower-cases
    });
    const diff = diffSites(site(), b);
    expect(diff.settings.indexing).toEqual([
      { extension: "js", old: "index_js", new: null },
      { extension: "php", old: "index_php", new: "index_php8" },
      { extension: "ts", old: null, new: "index_ts" },
    ]);
    expect(diff.settings.viewing).toEqual([]);
    expect(renderText(diff)).toContain("  php: index_php → index_php8");
  });

  test("versions: removed, and each versionCheck change in words", () => {
    const b = site({
      latestVersion: "1.0",
      versions: ["1.0"],
      config: { version: "1.0", main: { a: 1, "x/y": true } },
    });
    const diff = diffSites(site({ latestVersion: "1.1" }), b);
    expect(diff.versions.removed).toEqual(["1.1"]);
    expect(diff.versions.checks).toEqual([
      { version: "1.0", old: { updateNeeded: true, latest: "1.1" }, new: { updateNeeded: false, latest: "1.0" } },
      { version: "1.1", old: { updateNeeded: false, latest: "1.1" }, new: { updateNeeded: false, latest: "1.0" } },
    ]);
    const md = renderMarkdown(diff);
    expect(md).toContain("- Clients on `1.0` will no longer be told to update (they were told to update to `1.1`).");
    expect(md).toContain(
      "- Clients on `1.1` are still up to date; the latest version they are told of changes from `1.1` to `1.0`.",
    );
  });

  test("a site's own versionCheck answers win over the computed ones (a static host's fallback)", () => {
    const url = site({
      kind: "url",
      versions: null,
      latestVersion: "1.2",
      versionAnswers: new Map([
        ["1.0", { updateNeeded: true, latest: "1.2" }],
        ["1.1", { updateNeeded: true, latest: "1.2" }],
        ["1.2", { updateNeeded: false, latest: "1.2" }],
      ]),
    });
    const diff = diffSites(site(), url);
    expect(diff.versions.listed).toBe(false);
    expect(diff.versions.checks.map((c) => c.version)).toEqual(["1.0", "1.1", "1.2"]);
    // Not compared, said plainly in every output (not counted as 0).
    const url2 = {
      ...url,
      source: "https://x.test/",
      versionsUnknown: "https://x.test/ does not list the client versions it serves: because.",
    };
    const plain = diffSites(site(), url2);
    expect(plain.versions.unknown).toEqual([{ source: "https://x.test/", reason: url2.versionsUnknown }]);
    const md = renderMarkdown(plain);
    expect(md).toContain("| Versions added | not compared |");
    expect(md).toContain("| Versions removed | not compared |");
    expect(md).toContain(`**Versions could not be compared.** ${url2.versionsUnknown}`);
    expect(renderText(plain)).toContain("Versions removed: not compared");
    expect(renderText(plain)).toContain(`    ${url2.versionsUnknown}`);
    expect(JSON.parse(renderJson(plain))).toMatchObject({
      notCompared: ["added-version", "removed-version"],
      versions: { listed: false },
    });
    // Even with no change at all, the report says that versions were not compared.
    const { versionAnswers: _answers, ...bare } = url2;
    const same = diffSites(bare, bare);
    expect(renderMarkdown(same)).toBe(
      `## What clients will see change: \`https://x.test/\` → \`https://x.test/\`\n\nNo change a client can see.\n\n**Versions could not be compared.** ${url2.versionsUnknown} Versions added and removed could not be compared; versionCheck answers are compared only for the versions the other side lists and both latest versions.\n`,
    );
  });

  test("config.json: a JSON diff by pointer (escaped), arrays whole", () => {
    expect(
      diffJson({ a: 1, "x/y": { "~": [1, 2] }, gone: null }, { a: 1, "x/y": { "~": [2, 1] }, added: "s" }),
    ).toEqual([
      { pointer: "/x~1y/~0", op: "changed", old: [1, 2], new: [2, 1] },
      { pointer: "/gone", op: "removed", old: null },
      { pointer: "/added", op: "added", new: "s" },
    ]);
  });
});

describe("Markdown", () => {
  test(`lists of up to ${FOLD_AFTER} show as they are; longer ones fold`, () => {
    const many = (n: number): Map<string, IconFile> =>
      new Map([...site().files, ...Array.from({ length: n }, (_, i) => [`n${i}.png`, icon(1, `${i}`)] as const)]);
    const short = renderMarkdown(diffSites(site(), site({ files: many(FOLD_AFTER) })));
    expect(short).toContain(`**${FOLD_AFTER} icons added**`);
    expect(short).not.toContain("<details>");
    const long = renderMarkdown(diffSites(site(), site({ files: many(FOLD_AFTER + 1) })));
    expect(long).toContain(`<details><summary>${FOLD_AFTER + 1} icons added</summary>`);
  });

  test("names with backticks and pipes stay inside their code span and table cell", () => {
    expect(mdCode("a|b")).toBe("`a\\|b`");
    expect(mdCode("a`b")).toBe("``a`b``");
    expect(mdCode("`x")).toBe("`` `x ``");
  });
});
