// test/pipeline/real-fixtures.test.ts
// The two real content sets (read in place from ../shared/fixtures), with answers checked by hand against
// behaviour.md: counts, a findIcon whose mapped file is missing, version checks, folder icons.

import { describe, expect, it } from "vitest";
import { answer, answerText } from "../../src/php/answers.js";
import { compileContent, haveRealFixtures, realFixture } from "../helpers/fixtures.js";

async function site(name: "indexer-1.1.15" | "indexer-1.2.0-r2") {
  const { model, routes, site: files } = await compileContent(realFixture(name));
  const ask = (search: string) => {
    const a = answer(model, new Map(new URLSearchParams(search)));
    return { status: a.status, body: JSON.parse(answerText(a)) as Record<string, any> };
  };
  return { model, routes, files, ask };
}

describe.skipIf(!haveRealFixtures)("real fixture indexer-1.2.0-r2", () => {
  it("counts icons, mappings and extension mappings as behaviour.md says", async () => {
    const { ask } = await site("indexer-1.2.0-r2");
    const status = ask("action=status").body;
    // 486 PNG files directly in icons/ (icons/app/ is a folder, not an icon); 542 icons.json keys; 534 + 534 map keys.
    expect([status.icon_count, status.mapping_count, status.extension_mapping_count]).toEqual([486, 542, 1068]);
    const icons = ask("action=icons").body;
    expect(icons.count).toBe(486);
    expect(icons.icons.slice(0, 3).map((i: { filename: string }) => i.filename)).toEqual([
      "3gp-mobile-video.png",
      "7z.png",
      "a-archive.png",
    ]);
    const ada = icons.icons.map((i: { filename: string }) => i.filename).filter((f: string) => f.startsWith("ada"));
    expect(ada).toEqual(["ada-body.png", "ada-spec.png", "ada.png"]);
  });

  it("answers a findIcon whose mapped file is missing with text.png", async () => {
    const { ask } = await site("indexer-1.2.0-r2");
    // icons.json maps "pas" to pascal.png, which is not in icons/.
    expect(ask("action=findIcon&type=file&extension=pas").body.icon).toMatchObject({
      filename: "text.png",
      url: "https://api.indexer.ccls.icu/icons/text.png",
      path: "icons/text.png",
    });
    expect(ask("action=findIcon&type=folder").body.icon.filename).toBe("folder-proto.png");
    expect(ask("action=findIcon&extension=file").body.icon.filename).toBe("non-descript-default-file.png");
    expect(ask("action=findIcon&extension=php").body.icon).toMatchObject({ filename: "php.png", size: 5272 });
  });

  it("compares versions with PHP semantics", async () => {
    const { ask } = await site("indexer-1.2.0-r2");
    expect(ask("action=versionCheck&current_version=1.2.0-r1").body).toMatchObject({
      update_needed: true,
      message: "Update available: 1.2.0-r1 -> 1.2.0-r2",
    });
    expect(ask("action=versionCheck&current_version=1.2.0-r2").body).toMatchObject({
      update_needed: false,
      message: "You have the latest version: 1.2.0-r2",
    });
    expect(ask("action=versionCheck&current_version=1.1.19-r1").body.update_needed).toBe(true);
  });

  it("looks settings up through both maps", async () => {
    const { ask } = await site("indexer-1.2.0-r2");
    expect(ask("action=getExtensionSetting&extension=PS1").body).toEqual({
      success: true,
      extension: "ps1",
      type: "indexing",
      setting: "index_powershell",
      found: true,
    });
    expect(ask("action=getExtensionSetting&extension=csv&type=viewing").body.setting).toBe("view_txt");
    expect(ask("action=getExtensionSetting&extension=csv").body).toMatchObject({ setting: null, found: false });
  });

  it("precomputes every answer file and rule (figures for the closing note)", async () => {
    const { routes, files } = await site("indexer-1.2.0-r2");
    // 542 known extensions; 13 versions; 486 icons.
    expect(routes.files.has("/api/findIcon/file/php.json")).toBe(true);
    expect(routes.files.has("/api/findIcon/file-upper/PHP.json")).toBe(true);
    expect(routes.files.has("/api/getExtensionSetting/viewing/csv.json")).toBe(true);
    expect(routes.files.has("/api/versionCheck/1.1.19-r1.json")).toBe(true);
    console.info(
      `indexer-1.2.0-r2: ${routes.files.size} answers, ${routes.table.rules.length} rules, ${files.length} files`,
    );
  });
});

describe.skipIf(!haveRealFixtures)("real fixture indexer-1.1.15", () => {
  it("falls back to text.png for each of the 101 entries whose file is missing", async () => {
    const { model, ask } = await site("indexer-1.1.15");
    const missing = [...model.iconMap.entries].filter(([, file]) => !model.iconDirFiles.has(file));
    expect(missing.length).toBe(101);
    expect(missing).toContainEqual(["aircrack", "aircrack-wireless-icon.png"]);
    for (const [ext] of missing) expect(ask(`action=findIcon&extension=${ext}`).body.icon.filename).toBe("text.png");
  });

  it("counts as behaviour.md says", async () => {
    const { ask } = await site("indexer-1.1.15");
    const status = ask("action=status").body;
    expect([status.icon_count, status.mapping_count, status.extension_mapping_count, status.version]).toEqual([
      386,
      542,
      1068,
      "1.1.15",
    ]);
    expect(ask("action=findIcon&type=folder&extension=php").body).toMatchObject({
      type: "folder",
      extension: "php",
      icon: { filename: "folder.png" },
    });
    expect(ask("action=versionCheck&current_version=1.1.15").body.update_needed).toBe(false);
  });
});
