// test/php/answers.test.ts
// Each action's answers, written out by hand from behaviour.md, against a small hand-made site.

import { describe, expect, it } from "vitest";
import { answer, answerHeaders, answerText, type Answer } from "../../src/php/answers.js";
import { parseQuery } from "../../src/routes/route-table.js";
import { makeSite, T } from "../helpers/site.js";

const site = makeSite();
const ask = (query: string): Answer => answer(site, parseQuery(query));
/** The body as a client parses it. */
const body = (query: string): unknown => JSON.parse(answerText(ask(query)));
const TS = "2024-01-01 00:00:00";
const URL_ = "https://icons.example.org";

describe("dispatch", () => {
  it.each(["", "action=", "action=0", "action=Config", "action=bogus", "foo=bar"])("answers info for %j", (q) => {
    const a = ask(q);
    expect(a.kind).toBe("info");
    expect(a.status).toBe(200);
  });

  it("uses the last of repeated parameters", () => {
    expect(ask("action=bogus&action=config").kind).toBe("config");
    expect(ask("action=config&action=bogus").kind).toBe("info");
  });
});

describe("info", () => {
  it("lists the ten endpoints in order, with the service fields", () => {
    const b = body("") as Record<string, unknown>;
    expect(Object.keys(b)).toEqual([
      "success",
      "service",
      "version",
      "description",
      "endpoints",
      "icon_base_url",
      "timestamp",
    ]);
    expect(b).toMatchObject({
      success: true,
      service: "Indexer API",
      version: "1.2.0",
      description: "Test service",
      icon_base_url: `${URL_}/icons/`,
      timestamp: TS,
    });
    const endpoints = b.endpoints as Record<string, { url: string; description: string; method: string }>;
    expect(Object.keys(endpoints)).toEqual([
      "versionCheck",
      "config",
      "icons",
      "icon",
      "findIcon",
      "iconMappings",
      "extensionMappings",
      "getExtensionSetting",
      "configReference",
      "status",
    ]);
    expect(endpoints.findIcon).toEqual({
      url: "?action=findIcon&type={file|folder}&extension={ext}",
      description: "Find the appropriate icon for a file type or folder",
      method: "GET",
    });
    expect(endpoints.versionCheck!.url).toBe("?action=versionCheck&current_version={version}");
    expect(answerHeaders(ask(""))).toEqual({
      "Content-Type": "application/json",
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
      "Access-Control-Allow-Headers": "Content-Type, Authorization",
    });
  });
});

describe("config", () => {
  it("returns the file as parsed, key order kept, and caches 1 h", () => {
    const text = answerText(ask("action=config"));
    expect(JSON.parse(text)).toEqual({
      success: true,
      // PHP re-encodes the decoded file: an empty object comes back as a list (test/model/php-arrays.test.ts).
      config: { version: "1.2.0-r2", main: { b: true }, exclusions: [], viewable_files: [] },
      version: "1.2.0-r2",
      last_modified: T - 100,
    });
    expect(text.indexOf('"version": "1.2.0-r2"')).toBeLessThan(text.indexOf('"main"'));
    expect(answerHeaders(ask("action=config"))["Cache-Control"]).toBe("public, max-age=3600");
  });
});

describe("versionCheck", () => {
  it("says an update is available to older versions, with config_url last", () => {
    const text = answerText(ask("action=versionCheck&current_version=1.1.10"));
    expect(JSON.parse(text)).toEqual({
      success: true,
      current_version: "1.1.10",
      latest_version: "1.2.0-r2",
      update_needed: true,
      timestamp: TS,
      message: "Update available: 1.1.10 -> 1.2.0-r2",
      config_url: `${URL_}/api.php?action=config`,
    });
    expect(Object.keys(JSON.parse(text) as object).at(-1)).toBe("config_url");
  });
  it("treats 1.2.0 as newer than 1.2.0-r2 (PHP version_compare)", () => {
    expect(body("action=versionCheck&current_version=1.2.0")).toEqual({
      success: true,
      current_version: "1.2.0",
      latest_version: "1.2.0-r2",
      update_needed: false,
      timestamp: TS,
      message: "You have the latest version: 1.2.0",
    });
  });
  it.each(["action=versionCheck", "action=versionCheck&current_version=", "action=versionCheck&current_version=0"])(
    "400 for %j",
    (q) => {
      expect(ask(q).status).toBe(400);
      expect(body(q)).toEqual({ error: "Current version parameter is required", status: 400 });
      expect(answerHeaders(ask(q))["Cache-Control"]).toBeUndefined();
    },
  );
});

describe("extensionMappings", () => {
  it("gives both maps for absent, all and any other type", () => {
    const all = {
      success: true,
      mappings: {
        indexing: { php: "index_php", js: "index_js", 7: "index_split", jpeg: "index_jpg" },
        viewing: { php: "view_php", md: "view_md" },
      },
      indexing_count: 4,
      viewing_count: 2,
    };
    for (const q of [
      "action=extensionMappings",
      "action=extensionMappings&type=all",
      "action=extensionMappings&type=Indexing",
      "action=extensionMappings&type=",
    ]) {
      expect(body(q)).toEqual(all);
    }
  });
  it("keeps integer-like keys in file order", () => {
    const text = answerText(ask("action=extensionMappings&type=indexing"));
    expect(text.indexOf('"js"')).toBeLessThan(text.indexOf('"7"'));
  });
  it("gives one map with count and <type>_count", () => {
    expect(body("action=extensionMappings&type=viewing")).toEqual({
      success: true,
      mappings: { php: "view_php", md: "view_md" },
      count: 2,
      viewing_count: 2,
    });
    expect(Object.keys(body("action=extensionMappings&type=indexing") as object)).toEqual([
      "success",
      "mappings",
      "count",
      "indexing_count",
    ]);
  });
});

describe("getExtensionSetting", () => {
  it("looks the lower-cased extension up, echoes it lower-cased, type defaults to indexing", () => {
    expect(body("action=getExtensionSetting&extension=PHP")).toEqual({
      success: true,
      extension: "php",
      type: "indexing",
      setting: "index_php",
      found: true,
    });
    expect(body("action=getExtensionSetting&extension=md&type=viewing")).toEqual({
      success: true,
      extension: "md",
      type: "viewing",
      setting: "view_md",
      found: true,
    });
  });
  it("answers found:false for unknown extensions and other types (echoed as given)", () => {
    expect(body("action=getExtensionSetting&extension=md")).toEqual({
      success: true,
      extension: "md",
      type: "indexing",
      setting: null,
      found: false,
    });
    expect(body("action=getExtensionSetting&extension=php&type=")).toEqual({
      success: true,
      extension: "php",
      type: "",
      setting: null,
      found: false,
    });
    expect(body("action=getExtensionSetting&extension=php&type=Viewing")).toEqual({
      success: true,
      extension: "php",
      type: "Viewing",
      setting: null,
      found: false,
    });
  });
  it.each(["", "&extension=", "&extension=0", "&type=viewing"])("400 when the extension is empty (%j)", (q) => {
    expect(body(`action=getExtensionSetting${q}`)).toEqual({ error: "Extension parameter is required", status: 400 });
  });
});

describe("icons and icon", () => {
  it("lists icons in byte order, upper-case extensions included, without path", () => {
    const b = body("action=icons") as { icons: Array<{ filename: string }>; count: number };
    expect(b.icons.map((i) => i.filename)).toEqual([
      "Photo.JPG",
      "ada-body.png",
      "ada.png",
      "folder-blue.png",
      "generic.png",
      "js.svg",
      "php.png",
      "text.png",
    ]);
    expect(b.count).toBe(8);
    expect(b.icons[1]).toEqual({
      filename: "ada-body.png",
      url: `${URL_}/icons/ada-body.png`,
      size: 11,
      last_modified: T - 50,
    });
  });
  it("answers one icon by its base name, without Cache-Control", () => {
    expect(body("action=icon&name=../icons/php.png")).toEqual({
      success: true,
      icon: { filename: "php.png", url: `${URL_}/icons/php.png`, size: 15, last_modified: T - 5 },
    });
    expect(answerHeaders(ask("action=icon&name=php.png"))["Cache-Control"]).toBeUndefined();
    // PHP basename() drops trailing slashes.
    expect(body("action=icon&name=icons/php.png/")).toMatchObject({ icon: { filename: "php.png" } });
  });
  it.each([
    ["", 400, "Icon name not specified"],
    ["&name=", 400, "Icon name not specified"],
    ["&name=0", 400, "Icon name not specified"],
    ["&name=notes.txt", 400, "Invalid icon file type"],
    ["&name=php", 400, "Invalid icon file type"],
    ["&name=PHP.PNG", 404, "Icon not found"],
    ["&name=nope.svg", 404, "Icon not found"],
  ])("icon%s → %i %s", (q, status, error) => {
    expect(ask(`action=icon${q}`).status).toBe(status);
    expect(body(`action=icon${q}`)).toEqual({ error, status });
  });
});

describe("findIcon", () => {
  const record = (filename: string, size: number, lm: number) => ({
    filename,
    url: `${URL_}/icons/${filename}`,
    path: `icons/${filename}`,
    size,
    last_modified: lm,
  });
  it("maps the lower-cased extension and echoes the raw one", () => {
    expect(body("action=findIcon&type=file&extension=PHP")).toEqual({
      success: true,
      type: "file",
      extension: "PHP",
      icon: record("php.png", 15, T - 5),
    });
    expect(body("action=findIcon&extension=js")).toEqual({
      success: true,
      type: "file",
      extension: "js",
      icon: record("js.svg", 14, T - 10),
    });
  });
  it("falls back to text.png for unmapped extensions and missing files, never to the 'file' entry", () => {
    expect((body("action=findIcon&type=file&extension=zzz") as { icon: object }).icon).toEqual(
      record("text.png", 16, T - 1),
    );
    expect((body("action=findIcon&type=file&extension=pas") as { icon: object }).icon).toEqual(
      record("text.png", 16, T - 1),
    );
  });
  it("answers folders with icons.json's folder entry and echoes the extension", () => {
    expect(body("action=findIcon&type=folder")).toEqual({
      success: true,
      type: "folder",
      extension: "",
      icon: record("folder-blue.png", 12, T - 30),
    });
    expect(body("action=findIcon&type=folder&extension=0")).toMatchObject({ extension: "0" });
    const noFolder = makeSite({ iconMap: { ...site.iconMap, entries: new Map([["php", "php.png"]]) } });
    expect(
      (
        JSON.parse(answerText(answer(noFolder, parseQuery("action=findIcon&type=folder")))) as {
          icon: { filename: string };
        }
      ).icon.filename,
    ).toBe("text.png");
  });
  it("treats any type but exactly 'folder' as a file lookup, echoing it", () => {
    expect(body("action=findIcon&type=Folder&extension=php")).toMatchObject({
      type: "Folder",
      extension: "php",
      icon: { filename: "php.png" },
    });
  });
  it.each(["", "&extension=", "&extension=0", "&type=file"])("400 when a file lookup has no extension (%j)", (q) => {
    expect(body(`action=findIcon${q}`)).toEqual({
      error: "Extension parameter is required for file types",
      status: 400,
    });
  });
  it("404 when neither the icon nor text.png exists", () => {
    const files = new Map(site.iconDirFiles);
    files.delete("text.png");
    const bare = makeSite({ iconDirFiles: files });
    const a = answer(bare, parseQuery("action=findIcon&extension=zzz"));
    expect([a.status, JSON.parse(answerText(a))]).toEqual([404, { error: "Icon not found", status: 404 }]);
  });
  it("caches a day", () => {
    expect(answerHeaders(ask("action=findIcon&extension=php"))["Cache-Control"]).toBe("public, max-age=86400");
  });
});

describe("iconMappings, status, configReference", () => {
  it("iconMappings is icons.json with its key count", () => {
    expect(body("action=iconMappings")).toEqual({
      success: true,
      mappings: { file: "generic.png", folder: "folder-blue.png", php: "php.png", js: "js.svg", pas: "pascal.png" },
      count: 5,
    });
  });
  it("iconMappings of an icons.json `{}` is 404, as PHP's empty() decides (reference-behaviour.md §8)", () => {
    const empty = makeSite({ iconMap: { json: new Map(), entries: new Map(), lastModified: T - 300 } });
    const a = answer(empty, parseQuery("action=iconMappings"));
    expect([a.status, JSON.parse(answerText(a))]).toEqual([
      404,
      { error: "Icon mappings not found or invalid", status: 404 },
    ]);
    expect(answerHeaders(a)["Cache-Control"]).toBeUndefined();
  });
  it("status counts lower-case icon files, icons.json keys and both maps' keys", () => {
    const b = body("action=status");
    expect(b).toEqual({
      success: true,
      service: "Indexer API",
      version: "1.2.0",
      timestamp: TS,
      config_exists: true,
      icons_dir_exists: true,
      icon_mappings_exists: true,
      extension_mappings_exists: true,
      icon_count: 7,
      mapping_count: 5,
      extension_mapping_count: 6,
      config_last_modified: T - 100,
      mappings_last_modified: T - 300,
      extension_mappings_last_modified: T - 200,
    });
    expect(answerHeaders(ask("action=status"))["Cache-Control"]).toBeUndefined();
  });
  it("configReference serves the text, or 404 without it", () => {
    expect(body("action=configReference")).toEqual({
      success: true,
      content: "Reference\n",
      last_modified: T - 400,
      version: "1.2.0",
      format: "text",
    });
    const none = answer(makeSite({ configReference: null }), parseQuery("action=configReference"));
    expect([none.status, JSON.parse(answerText(none))]).toEqual([
      404,
      { error: "Configuration reference not found", status: 404 },
    ]);
  });
});
