// test/content/schemas.test.ts
// The shipped JSON Schemas: valid draft 2020-12, usable from editors through "$schema", every error reported with its
// pointer and position, and the real data accepted.

import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { parseJson } from "../../src/content/parse-json.js";
import {
  compileValidators,
  loadSchema,
  precompiledValidators,
  SCHEMA_FILES,
  validateContent,
} from "../../src/content/validate.js";
import { toPlain } from "../../src/model/json.js";
import { ContentError, formatDiagnostic, type Diagnostic } from "../../src/errors.js";
import { JSON_CONTENT } from "../../src/content/read-content.js";
import { compileContent, haveRealFixtures, realFixture, REPO } from "../helpers/fixtures.js";
import { baseContentFolders, edit } from "../helpers/base-content.js";

const { base } = baseContentFolders();

async function failure(dir: string): Promise<Diagnostic[]> {
  const error = await compileContent(dir).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ContentError);
  return (error as ContentError).diagnostics;
}

describe("schemas/", () => {
  it("holds one draft 2020-12 schema per content file, shipped in the package", async () => {
    const pkg = JSON.parse(await readFile(path.join(REPO, "package.json"), "utf8")) as { files: string[] };
    expect(pkg.files).toContain("schemas");
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    for (const name of JSON_CONTENT) {
      const schema = loadSchema(name);
      expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
      expect(path.join(REPO, "schemas", SCHEMA_FILES[name])).toMatch(/schemas\/[a-z-]+\.schema\.json$/);
      expect(() => ajv.compile(schema)).not.toThrow();
    }
  });

  it('lets manifest.json, config.json and extensionMap.json name their schema with "$schema"', async () => {
    const dir = await base();
    for (const [file, schema] of [
      ["manifest.json", "manifest"],
      ["config.json", "config"],
      ["extensionMap.json", "extension-map"],
    ] as const) {
      const text = await readFile(path.join(dir, file), "utf8");
      await writeFile(
        path.join(dir, file),
        text.replace("{", `{\n  "$schema": "./node_modules/build-index-site/schemas/${schema}.schema.json",`),
      );
    }
    expect((await compileContent(dir)).diagnostics).toEqual([]);
  });

  it("ships precompiled validators (lib/) that report exactly what ajv compiling the schemas reports", () => {
    // From src/ the module resolves lib/'s copy only through the package build: load it from lib/ directly.
    const precompiled =
      precompiledValidators() ??
      createRequire(path.join(REPO, "lib/content/validate.js"))("./validators.generated.cjs");
    const compiled = compileValidators();
    const documents: Array<[(typeof JSON_CONTENT)[number], unknown]> = [
      ["manifest", { base_url: "http://x/", service: 1, extra: true, versions: ["1", 2] }],
      [
        "manifest",
        {
          base_url: "https://api.example.org",
          service: "s",
          service_version: "1",
          description: "d",
          versions: ["1.0"],
        },
      ],
      ["config", { version: "", main: { a: [] }, exclusions: { index_x: 1 } }],
      ["config", { main: {} }],
      ["extensionMap", { indexing: { php: "view_php", "": "index_x" }, viewing: { txt: 3 }, other: {} }],
      ["icons", { php: "php.png", "": "x.png", txt: 4, default: null }],
      ["icons", []],
    ];
    for (const [name, data] of documents) {
      const a = compiled[name]!;
      const b = precompiled[name]!;
      expect(b(data), `${name} ${JSON.stringify(data)}`).toBe(a(data));
      expect(JSON.stringify(b.errors), name).toBe(JSON.stringify(a.errors));
    }
    const parsed = parseJson("icons.json", JSON.stringify({ php: "php.png", txt: 4 }));
    expect(precompiled.icons(toPlain(parsed.value))).toBe(false);
  });

  it("validates a key named __proto__ as a key (an own property), not as the object's prototype", () => {
    const parsed = parseJson("icons.json", `{"php": "php.png", "__proto__": 4}`);
    const plain = toPlain(parsed.value) as Record<string, unknown>;
    expect(Object.keys(plain)).toEqual(["php", "__proto__"]);
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
    expect(validateContent("icons", parsed).map((d) => d.pointer)).toEqual(["/__proto__"]);
  });

  it("checks the value types of the open objects config.main, exclusions and viewable_files", () => {
    const parsed = parseJson(
      "config.json",
      JSON.stringify({
        version: "1",
        main: { a: "x", b: true, c: 3, d: [], e: null },
        exclusions: { index_x: true, index_y: 1 },
        viewable_files: { view_x: "yes" },
      }),
    );
    const pointers = validateContent("config", parsed).map((d) => d.pointer);
    expect(pointers).toEqual(["/main/d", "/main/e", "/exclusions/index_y", "/viewable_files/view_x"]);
  });

  it("gives config.main's documented keys the types the indexer's configuration reference gives them", () => {
    // Issue 55 point 8: "index_hidden": "no" passed, since main could hold any string. The reference (indexer 1.1.15
    // and 1.2.0, ../shared/fixtures/*/config-reference.txt) documents each switch as Boolean "true/false, not strings".
    const parsed = parseJson(
      "config.json",
      JSON.stringify({
        version: "1",
        main: {
          index_hidden: "no",
          index_all: 0,
          disable_file_downloads: "false",
          local_icons: true,
          cache_type: true,
          deny_list: ["a"],
          max_download_size_file: 2048,
          something_new: "kept as it is",
        },
        exclusions: {},
        viewable_files: {},
      }),
    );
    const found = validateContent("config", parsed).map((d) => `${d.pointer} ${d.message}`);
    expect(found.sort()).toEqual(
      [
        '/main/index_hidden Must be a boolean (got the string "no").',
        "/main/index_all Must be a boolean (got number 0).",
        '/main/disable_file_downloads Must be a boolean (got the string "false").',
        "/main/cache_type Must be a string (got boolean true).",
        "/main/deny_list Must be a string (got an array).",
        "/main/max_download_size_file Must be a string (got number 2048).",
      ].sort(),
    );
  });

  it.skipIf(!haveRealFixtures)("accepts the indexer's own config.json of each version the fixtures hold", async () => {
    for (const version of ["indexer-1.1.15", "indexer-1.2.0-r2"] as const) {
      const text = await readFile(path.join(realFixture(version), "config.json"), "utf8");
      expect(validateContent("config", parseJson("config.json", text)), version).toEqual([]);
    }
  });
});

describe("schema errors", () => {
  it("are all reported, in every file at once, each with file, pointer and line:column", async () => {
    const dir = await base();
    await edit(dir, "manifest.json", `"Indexer API"`, "1");
    await edit(dir, "manifest.json", `"1.1",`, "false,");
    await edit(dir, "config.json", `"index_php": false`, `"index_php": "no"`);
    await edit(dir, "icons.json", `"php": "php.png"`, `"php": ["php.png"]`);
    const diagnostics = await failure(dir);
    const summary = diagnostics.map((d) => `${path.basename(d.file)}:${d.line}:${d.column} #${d.pointer} ${d.code}`);
    expect(summary).toEqual([
      "config.json:8:18 #/exclusions/index_php SCHEMA",
      "icons.json:3:10 #/php SCHEMA",
      "manifest.json:3:14 #/service SCHEMA",
      "manifest.json:6:23 #/versions/1 SCHEMA",
    ]);
  });

  it('read as what, where and what to do, without an "Error:" prefix', async () => {
    const dir = await base();
    await edit(dir, "extensionMap.json", `"php": "index_php"`, `"php": 3`);
    const [d] = await failure(dir);
    expect(formatDiagnostic(d!)).toBe(
      `${dir}/extensionMap.json:3:12 #/indexing/php: error: Must be a string (got number 3). [SCHEMA]\n  Fix the value or remove the entry.`,
    );
  });

  it("name both places of a duplicate key", async () => {
    const dir = await base();
    await edit(dir, "icons.json", `"svg": "vector.svg"`, `"svg": "vector.svg",\n  "folder": "php.png"`);
    const [d] = await failure(dir);
    expect(d).toMatchObject({ code: "JSON_DUPLICATE_KEY", pointer: "/folder", line: 6, column: 3 });
    expect(d!.message).toContain("line 2:3");
  });

  it("name both places of keys that differ only in case", async () => {
    const dir = await base();
    await edit(dir, "icons.json", `"svg": "vector.svg"`, `"svg": "vector.svg",\n  "Php": "php.png"`);
    const [d] = await failure(dir);
    expect(d).toMatchObject({ code: "KEY_CASE_DUPLICATE", pointer: "/Php", line: 6 });
    expect(d!.message).toContain(`"php" (line 3:10)`);
  });
});

describe.skipIf(!haveRealFixtures)("real data", () => {
  it("indexer-1.1.15 is valid, with exactly the 101 missing icon files as warnings", async () => {
    const { diagnostics } = await compileContent(realFixture("indexer-1.1.15"));
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(diagnostics).toHaveLength(101);
    expect(new Set(diagnostics.map((d) => d.code))).toEqual(new Set(["ICON_MISSING"]));
    for (const d of diagnostics) expect(d.message).toMatch(/falls back to text\.png\.$/);
  });

  it("indexer-1.2.0-r2 is valid, with one warning: pascal.png", async () => {
    const { diagnostics } = await compileContent(realFixture("indexer-1.2.0-r2"));
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ severity: "warning", code: "ICON_MISSING", pointer: "/pas" });
    expect(diagnostics[0]!.message).toContain("icons/pascal.png");
  });
});
