// test/content/invalid-content.test.ts
// One defect per case, applied to a copy of a minimal valid content: each names the error class, code, file,
// JSON pointer (and sometimes line:column) the build reports, and the exit code of `check` (and of `check --strict`).

import { execFileSync } from "node:child_process";
import { mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import { ContentError, type Diagnostic } from "../../src/errors.js";
import { compileContent, removeDir, tmpDir } from "../helpers/fixtures.js";
import { edit, GIF, PNG, writeBase } from "../helpers/base-content.js";

type Mutation = (dir: string, outside: string) => Promise<void>;

interface Case {
  /** The defect, as a folder-style name. */
  name: string;
  mutate: Mutation;
  code: string;
  /** Content-relative file the diagnostic names ("--base-url" for the flag). */
  file: string;
  /** JSON Pointer, or null when the diagnostic is about a whole file. */
  pointer: string | null;
  severity?: "error" | "warning";
  line?: number;
  column?: number;
  baseUrl?: string;
}

const json =
  (rel: string, text: string): Mutation =>
  async (dir) =>
    writeFile(path.join(dir, rel), text);
const replace =
  (rel: string, from: string, to: string): Mutation =>
  async (dir) =>
    edit(dir, rel, from, to);
const remove =
  (rel: string): Mutation =>
  async (dir) =>
    rm(path.join(dir, rel), { recursive: true });
/** Replaces the first `from` in a file with raw bytes (for encodings a string cannot carry). */
const bytes =
  (rel: string, from: string, to: Buffer): Mutation =>
  async (dir) => {
    const file = path.join(dir, rel);
    const data = await readFile(file);
    const at = data.indexOf(from);
    if (at < 0) throw new Error(`${rel} has no ${from}`);
    await writeFile(file, Buffer.concat([data.subarray(0, at), to, data.subarray(at + Buffer.byteLength(from))]));
  };
const put =
  (rel: string, data: string | Buffer): Mutation =>
  async (dir) =>
    writeFile(path.join(dir, rel), data);

const CASES: Case[] = [
  // Syntax: file and line:column.
  {
    name: "manifest-trailing-comma-points-at-the-comma",
    mutate: replace("manifest.json", `"1.2.0"]`, `"1.2.0"],`),
    code: "JSON_SYNTAX",
    file: "manifest.json",
    pointer: null,
    line: 6,
    column: 38,
  },
  {
    name: "config-trailing-comma-in-array-points-at-the-comma",
    mutate: replace("manifest.json", `"1.2.0"]`, `"1.2.0", ]`),
    code: "JSON_SYNTAX",
    file: "manifest.json",
    pointer: null,
    line: 6,
    column: 37,
  },
  {
    name: "config-single-quotes",
    mutate: replace("config.json", `"sqlite"`, `'sqlite'`),
    code: "JSON_SYNTAX",
    file: "config.json",
    pointer: null,
    line: 4,
    column: 19,
  },
  // Accepted by JavaScript, refused by PHP's json_decode (or rounded differently).
  {
    name: "json-invalid-utf8-in-string",
    mutate: bytes("config.json", `"sqlite"`, Buffer.from([0x22, 0x73, 0x71, 0xff, 0x6c, 0x22])),
    code: "JSON_INVALID_UTF8",
    file: "config.json",
    pointer: "/main/cache_type",
    line: 4,
    column: 22,
  },
  {
    name: "json-invalid-utf8-in-key",
    mutate: bytes("icons.json", `"php"`, Buffer.from([0x22, 0x70, 0xc3, 0x28, 0x22])),
    code: "JSON_INVALID_UTF8",
    file: "icons.json",
    pointer: "/p\ufffd(",
    line: 3,
    column: 5,
  },
  {
    name: "json-lone-surrogate",
    mutate: replace("manifest.json", `"Test content"`, `"Test \\ud800content"`),
    code: "JSON_LONE_SURROGATE",
    file: "manifest.json",
    pointer: "/description",
    line: 5,
    column: 18,
  },
  {
    name: "json-lone-surrogate-in-key",
    mutate: replace("icons.json", `"php":`, `"\\udc00php":`),
    code: "JSON_LONE_SURROGATE",
    file: "icons.json",
    pointer: "/\udc00php",
    line: 3,
    column: 3,
  },
  {
    name: "json-integer-beyond-2-53",
    mutate: replace("config.json", `"index_hidden": false`, `"index_hidden": 9007199254740993`),
    code: "JSON_NUMBER_RANGE",
    file: "config.json",
    pointer: "/main/index_hidden",
    line: 5,
    column: 21,
  },
  // The root object and "main" are levels 1 and 2: the 510th "[" is level 512, one more than the 511 that PHP's depth
  // of 512 admits (test/content/parse-json.test.ts asks PHP).
  {
    name: "json-nesting-deeper-than-php-512",
    mutate: replace("config.json", `"sqlite"`, `${"[".repeat(511)}1${"]".repeat(511)}`),
    code: "JSON_TOO_DEEP",
    file: "config.json",
    pointer: null,
    line: 4,
    column: 19 + 509,
  },
  {
    name: "json-nesting-1700-levels-no-range-error",
    mutate: replace("config.json", `"sqlite"`, `${"[".repeat(1700)}1${"]".repeat(1700)}`),
    code: "JSON_TOO_DEEP",
    file: "config.json",
    pointer: null,
  },
  // Names too long for an answer file (255 bytes per file name; ~hex stems take 2 characters per byte).
  {
    name: "icons-key-251-characters",
    mutate: replace("icons.json", `"php":`, `"${"p".repeat(251)}":`),
    code: "NAME_TOO_LONG",
    file: "icons.json",
    pointer: `/${"p".repeat(251)}`,
  },
  {
    name: "extension-map-key-125-utf8-bytes",
    mutate: replace(
      "extensionMap.json",
      `"txt": "index_txt"`,
      `"txt": "index_txt",\n    "${"é".repeat(62)}+": "index_txt"`,
    ),
    code: "NAME_TOO_LONG",
    file: "extensionMap.json",
    pointer: `/indexing/${"é".repeat(62)}+`,
  },
  {
    name: "manifest-version-251-characters",
    mutate: replace("manifest.json", `"1.0",`, `"${"1".repeat(251)}",`),
    code: "NAME_TOO_LONG",
    file: "manifest.json",
    pointer: "/versions/0",
  },
  {
    name: "icon-file-name-too-long-escaped",
    mutate: put(`icons/${"é".repeat(60)} x.png`, PNG),
    code: "NAME_TOO_LONG",
    file: `icons/${"é".repeat(60)} x.png`,
    pointer: null,
  },
  // Silent mistakes: warnings that name their effect.
  {
    name: "icons-key-with-leading-dot-never-matches",
    mutate: replace("icons.json", `"php":`, `".php":`),
    code: "KEY_LEADING_DOT",
    severity: "warning",
    file: "icons.json",
    pointer: "/.php",
  },
  {
    name: "extension-map-key-with-leading-dot-never-matches",
    mutate: replace("extensionMap.json", `"txt": "index_txt"`, `".txt": "index_txt"`),
    code: "KEY_LEADING_DOT",
    severity: "warning",
    file: "extensionMap.json",
    pointer: "/indexing/.txt",
  },
  {
    name: "manifest-versions-empty",
    mutate: replace("manifest.json", `["1.0", "1.1", "1.2.0"]`, "[]"),
    code: "VERSIONS_EMPTY",
    severity: "warning",
    file: "manifest.json",
    pointer: "/versions",
  },
  {
    name: "manifest-versions-without-config-version",
    mutate: replace("manifest.json", `, "1.2.0"]`, "]"),
    code: "VERSION_LATEST_UNLISTED",
    severity: "warning",
    file: "manifest.json",
    pointer: "/versions",
  },
  {
    name: "icons-dollar-schema-becomes-an-extension",
    mutate: replace("icons.json", `{`, `{\n  "$schema": "../schemas/icons.schema.json",`),
    code: "ICONS_SCHEMA_KEY",
    severity: "warning",
    file: "icons.json",
    pointer: "/$schema",
  },
  {
    name: "config-unterminated-string",
    mutate: replace("config.json", `"sqlite",`, `"sqlite,`),
    code: "JSON_SYNTAX",
    file: "config.json",
    pointer: null,
    line: 4,
  },
  {
    name: "icons-comment",
    mutate: replace("icons.json", `{`, `{ // icons`),
    code: "JSON_SYNTAX",
    file: "icons.json",
    pointer: null,
    line: 1,
    column: 3,
  },
  {
    name: "extension-map-empty-file",
    mutate: json("extensionMap.json", ""),
    code: "JSON_SYNTAX",
    file: "extensionMap.json",
    pointer: null,
    line: 1,
  },
  {
    name: "config-byte-order-mark",
    mutate: replace("config.json", `{\n  "version"`, `\ufeff{\n  "version"`),
    code: "JSON_BOM",
    file: "config.json",
    pointer: null,
    line: 1,
  },
  // Duplicate keys: both places.
  {
    name: "icons-duplicate-key",
    mutate: replace("icons.json", `"txt": "text.png",`, `"txt": "text.png",\n  "php": "text.png",`),
    code: "JSON_DUPLICATE_KEY",
    file: "icons.json",
    pointer: "/php",
    line: 5,
    column: 3,
  },
  {
    name: "extension-map-duplicate-key",
    mutate: replace("extensionMap.json", `"txt": "index_txt"`, `"txt": "index_txt",\n    "php": "index_php"`),
    code: "JSON_DUPLICATE_KEY",
    file: "extensionMap.json",
    pointer: "/indexing/php",
  },
  {
    name: "config-duplicate-key-in-main",
    mutate: replace("config.json", `"index_hidden": false`, `"index_hidden": false,\n    "cache_type": "redis"`),
    code: "JSON_DUPLICATE_KEY",
    file: "config.json",
    pointer: "/main/cache_type",
  },
  // Missing files.
  {
    name: "manifest-missing",
    mutate: remove("manifest.json"),
    code: "FILE_MISSING",
    file: "manifest.json",
    pointer: null,
  },
  { name: "config-missing", mutate: remove("config.json"), code: "FILE_MISSING", file: "config.json", pointer: null },
  {
    name: "extension-map-missing",
    mutate: remove("extensionMap.json"),
    code: "FILE_MISSING",
    file: "extensionMap.json",
    pointer: null,
  },
  { name: "icons-folder-missing", mutate: remove("icons"), code: "FILE_MISSING", file: "icons", pointer: null },
  // manifest.json
  {
    name: "manifest-not-an-object",
    mutate: json("manifest.json", "[]\n"),
    code: "SCHEMA",
    file: "manifest.json",
    pointer: "",
    line: 1,
    column: 1,
  },
  {
    name: "manifest-base-url-missing",
    mutate: replace("manifest.json", `"base_url": "https://icons.example.org",\n`, ""),
    code: "SCHEMA",
    file: "manifest.json",
    pointer: "/base_url",
  },
  {
    name: "manifest-base-url-http",
    mutate: replace("manifest.json", "https://icons", "http://icons"),
    code: "BASE_URL",
    file: "manifest.json",
    pointer: "/base_url",
    line: 2,
    column: 15,
  },
  {
    name: "manifest-base-url-trailing-slash",
    mutate: replace("manifest.json", "example.org", "example.org/"),
    code: "BASE_URL",
    file: "manifest.json",
    pointer: "/base_url",
  },
  {
    name: "manifest-base-url-with-query",
    mutate: replace("manifest.json", "example.org", "example.org/?x=1"),
    code: "BASE_URL",
    file: "manifest.json",
    pointer: "/base_url",
  },
  {
    name: "flag-base-url-not-https",
    mutate: async () => {},
    baseUrl: "ftp://example.org",
    code: "BASE_URL",
    file: "--base-url",
    pointer: null,
  },
  {
    name: "manifest-service-not-a-string",
    mutate: replace("manifest.json", `"Indexer API"`, "42"),
    code: "SCHEMA",
    file: "manifest.json",
    pointer: "/service",
    line: 3,
    column: 14,
  },
  {
    name: "manifest-versions-not-an-array",
    mutate: replace("manifest.json", `["1.0", "1.1", "1.2.0"]`, `"1.2.0"`),
    code: "SCHEMA",
    file: "manifest.json",
    pointer: "/versions",
  },
  {
    name: "manifest-version-not-a-string",
    mutate: replace("manifest.json", `"1.1",`, "1.1,"),
    code: "SCHEMA",
    file: "manifest.json",
    pointer: "/versions/1",
    line: 6,
    column: 23,
  },
  {
    name: "manifest-version-empty",
    mutate: replace("manifest.json", `"1.0",`, `"",`),
    code: "SCHEMA",
    file: "manifest.json",
    pointer: "/versions/0",
  },
  {
    name: "manifest-version-repeated",
    mutate: replace("manifest.json", `"1.2.0"]`, `"1.2.0", "1.1"]`),
    code: "VERSION_REPEATED",
    file: "manifest.json",
    pointer: "/versions/3",
  },
  {
    name: "manifest-version-control-character",
    mutate: replace("manifest.json", `"1.0",`, `"1.0\\n",`),
    code: "VALUE_UNSAFE",
    file: "manifest.json",
    pointer: "/versions/0",
  },
  {
    name: "manifest-unknown-property",
    mutate: replace("manifest.json", `"service":`, `"base-url": "x",\n  "service":`),
    code: "SCHEMA",
    file: "manifest.json",
    pointer: "/base-url",
  },
  // config.json
  {
    name: "config-version-missing",
    mutate: replace("config.json", `"version": "1.2.0",\n`, ""),
    code: "CONFIG_VERSION",
    file: "config.json",
    pointer: "/version",
  },
  {
    name: "config-version-not-a-string",
    mutate: replace("config.json", `"version": "1.2.0"`, `"version": 1.2`),
    code: "CONFIG_VERSION",
    file: "config.json",
    pointer: "/version",
    line: 2,
    column: 14,
  },
  {
    name: "config-version-empty",
    mutate: replace("config.json", `"version": "1.2.0"`, `"version": ""`),
    code: "CONFIG_VERSION",
    file: "config.json",
    pointer: "/version",
  },
  {
    name: "config-not-an-object",
    mutate: json("config.json", `"1.2.0"\n`),
    code: "SCHEMA",
    file: "config.json",
    pointer: "",
  },
  {
    name: "config-main-missing",
    mutate: replace("config.json", `"main": {\n    "cache_type": "sqlite",\n    "index_hidden": false\n  },\n`, ""),
    code: "SCHEMA",
    file: "config.json",
    pointer: "/main",
  },
  {
    name: "config-main-value-an-object",
    mutate: replace("config.json", `"cache_type": "sqlite"`, `"cache_type": {}`),
    code: "SCHEMA",
    file: "config.json",
    pointer: "/main/cache_type",
    line: 4,
    column: 19,
  },
  {
    name: "config-main-value-null",
    mutate: replace("config.json", `"index_hidden": false`, `"index_hidden": null`),
    code: "SCHEMA",
    file: "config.json",
    pointer: "/main/index_hidden",
  },
  {
    name: "config-exclusions-value-a-string",
    mutate: replace("config.json", `"index_php": false`, `"index_php": "false"`),
    code: "SCHEMA",
    file: "config.json",
    pointer: "/exclusions/index_php",
  },
  {
    name: "config-viewable-files-an-array",
    mutate: replace(
      "config.json",
      `"viewable_files": {\n    "view_php": true,\n    "view_txt": true\n  }`,
      `"viewable_files": []`,
    ),
    code: "SCHEMA",
    file: "config.json",
    pointer: "/viewable_files",
  },
  // extensionMap.json
  {
    name: "extension-map-viewing-missing",
    mutate: json("extensionMap.json", `{ "indexing": {} }\n`),
    code: "SCHEMA",
    file: "extensionMap.json",
    pointer: "/viewing",
  },
  {
    name: "extension-map-unknown-section",
    mutate: replace("extensionMap.json", `"viewing": {`, `"index": {},\n  "viewing": {`),
    code: "SCHEMA",
    file: "extensionMap.json",
    pointer: "/index",
  },
  {
    name: "extension-map-value-a-number",
    mutate: replace("extensionMap.json", `"php": "index_php"`, `"php": 1`),
    code: "SCHEMA",
    file: "extensionMap.json",
    pointer: "/indexing/php",
    line: 3,
    column: 12,
  },
  {
    name: "extension-map-indexing-value-form",
    mutate: replace("extensionMap.json", `"php": "index_php"`, `"php": "view_php"`),
    code: "MAPPING_VALUE_FORM",
    file: "extensionMap.json",
    pointer: "/indexing/php",
  },
  {
    name: "extension-map-viewing-value-form",
    mutate: replace("extensionMap.json", `"php": "view_php"`, `"php": "php"`),
    code: "MAPPING_VALUE_FORM",
    file: "extensionMap.json",
    pointer: "/viewing/php",
  },
  {
    name: "extension-map-case-duplicate",
    mutate: replace("extensionMap.json", `"txt": "view_txt"`, `"txt": "view_txt",\n    "PHP": "view_php"`),
    code: "KEY_CASE_DUPLICATE",
    file: "extensionMap.json",
    pointer: "/viewing/PHP",
  },
  {
    name: "extension-map-empty-key",
    mutate: replace("extensionMap.json", `"txt": "index_txt"`, `"txt": "index_txt",\n    "": "index_txt"`),
    code: "KEY_EMPTY",
    file: "extensionMap.json",
    pointer: "/indexing/",
  },
  {
    name: "extension-map-key-with-newline",
    mutate: replace("extensionMap.json", `"txt": "index_txt"`, `"txt": "index_txt",\n    "t\\nxt": "index_txt"`),
    code: "VALUE_UNSAFE",
    file: "extensionMap.json",
    pointer: "/indexing/t\nxt",
  },
  {
    name: "extension-map-key-upper-case",
    mutate: replace("extensionMap.json", `"txt": "index_txt"`, `"txt": "index_txt",\n    "MD": "index_txt"`),
    code: "KEY_NOT_LOWERCASE",
    severity: "warning",
    file: "extensionMap.json",
    pointer: "/indexing/MD",
  },
  {
    name: "extension-map-key-unknown-to-config",
    mutate: replace("extensionMap.json", `"txt": "index_txt"`, `"txt": "index_text"`),
    code: "MAPPING_KEY_UNKNOWN",
    severity: "warning",
    file: "extensionMap.json",
    pointer: "/indexing/txt",
  },
  // icons.json
  {
    name: "icons-not-an-object",
    mutate: json("icons.json", "null\n"),
    code: "SCHEMA",
    file: "icons.json",
    pointer: "",
  },
  {
    name: "icons-value-a-number",
    mutate: replace("icons.json", `"php": "php.png"`, `"php": 7`),
    code: "SCHEMA",
    file: "icons.json",
    pointer: "/php",
    line: 3,
    column: 10,
  },
  {
    name: "icons-value-empty",
    mutate: replace("icons.json", `"php": "php.png"`, `"php": ""`),
    code: "SCHEMA",
    file: "icons.json",
    pointer: "/php",
  },
  {
    name: "icons-value-with-folder",
    mutate: replace("icons.json", `"php.png"`, `"app/php.png"`),
    code: "ICON_NAME_INVALID",
    file: "icons.json",
    pointer: "/php",
  },
  {
    name: "icons-value-parent-folder",
    mutate: replace("icons.json", `"php.png"`, `"../manifest.json"`),
    code: "ICON_NAME_INVALID",
    file: "icons.json",
    pointer: "/php",
  },
  {
    name: "icons-value-backslash",
    mutate: replace("icons.json", `"php.png"`, `"..\\\\php.png"`),
    code: "ICON_NAME_INVALID",
    file: "icons.json",
    pointer: "/php",
  },
  {
    name: "icons-value-dot-dot",
    mutate: replace("icons.json", `"php.png"`, `".."`),
    code: "ICON_NAME_INVALID",
    file: "icons.json",
    pointer: "/php",
  },
  {
    name: "icons-key-case-duplicate",
    mutate: replace("icons.json", `"svg": "vector.svg"`, `"svg": "vector.svg",\n  "PHP": "php.png"`),
    code: "KEY_CASE_DUPLICATE",
    file: "icons.json",
    pointer: "/PHP",
    line: 6,
    column: 10,
  },
  {
    name: "icons-key-empty",
    mutate: replace("icons.json", `"svg": "vector.svg"`, `"svg": "vector.svg",\n  "": "php.png"`),
    code: "KEY_EMPTY",
    file: "icons.json",
    pointer: "/",
  },
  {
    name: "icons-mapped-file-missing",
    mutate: replace("icons.json", `"php.png"`, `"elephant.png"`),
    code: "ICON_MISSING",
    severity: "warning",
    file: "icons.json",
    pointer: "/php",
    line: 3,
    column: 10,
  },
  {
    name: "icons-mapped-file-wrong-case",
    mutate: replace("icons.json", `"php.png"`, `"PHP.png"`),
    code: "ICON_MISSING",
    severity: "warning",
    file: "icons.json",
    pointer: "/php",
  },
  {
    name: "icons-folder-icon-missing",
    mutate: async (dir) => {
      await edit(dir, "icons.json", `"folder": "folder.png",\n`, "");
      await rm(path.join(dir, "icons/folder.png"));
    },
    code: "ICON_MISSING",
    severity: "warning",
    file: "icons.json",
    pointer: "",
  },
  {
    name: "icons-mapped-file-not-an-image",
    mutate: async (dir) => {
      await put("icons/readme.txt", "hello\n")(dir, "");
      await edit(dir, "icons.json", `"php.png"`, `"readme.txt"`);
    },
    code: "ICON_NOT_IMAGE",
    severity: "warning",
    file: "icons.json",
    pointer: "/php",
  },
  {
    name: "icons-fallback-text-png-missing",
    mutate: async (dir) => {
      await edit(dir, "icons.json", `"txt": "text.png",\n`, "");
      await rm(path.join(dir, "icons/text.png"));
    },
    code: "ICON_FALLBACK_MISSING",
    file: "icons",
    pointer: null,
  },
  // Icon files.
  {
    name: "icon-file-not-an-image",
    mutate: put("icons/php.png", "<?php echo 'not a png';\n"),
    code: "ICON_UNREADABLE",
    file: "icons/php.png",
    pointer: null,
  },
  {
    name: "icon-file-gif-named-png",
    mutate: put("icons/php.png", GIF),
    code: "ICON_UNREADABLE",
    file: "icons/php.png",
    pointer: null,
  },
  {
    name: "icon-file-empty",
    mutate: put("icons/php.png", ""),
    code: "ICON_UNREADABLE",
    file: "icons/php.png",
    pointer: null,
  },
  {
    name: "icon-file-truncated-png",
    mutate: put("icons/php.png", PNG.subarray(0, 10)),
    code: "ICON_UNREADABLE",
    file: "icons/php.png",
    pointer: null,
  },
  {
    name: "icon-file-svg-not-svg",
    mutate: put("icons/vector.svg", "hello\n"),
    code: "ICON_UNREADABLE",
    file: "icons/vector.svg",
    pointer: null,
  },
  {
    name: "icon-file-name-with-newline",
    mutate: put("icons/a\nb.png", PNG),
    code: "VALUE_UNSAFE",
    file: "icons/a\nb.png",
    pointer: null,
  },
  // Content safety.
  {
    name: "symlink-icon-outside",
    mutate: async (dir, outside) => symlink(path.join(outside, "secret.png"), path.join(dir, "icons/secret.png")),
    code: "SYMLINK_OUTSIDE",
    file: "icons/secret.png",
    pointer: null,
  },
  {
    name: "symlink-config-outside",
    mutate: async (dir, outside) => {
      await rm(path.join(dir, "config.json"));
      await symlink(path.join(outside, "config.json"), path.join(dir, "config.json"));
    },
    code: "SYMLINK_OUTSIDE",
    file: "config.json",
    pointer: null,
  },
  {
    name: "symlink-style-folder-outside",
    mutate: async (dir, outside) => {
      await rm(path.join(dir, "style"), { recursive: true });
      await symlink(outside, path.join(dir, "style"));
    },
    code: "SYMLINK_OUTSIDE",
    file: "style",
    pointer: null,
  },
  {
    name: "symlink-dangling",
    mutate: async (dir) => symlink(path.join(dir, "nowhere.css"), path.join(dir, "style/gone.css")),
    code: "NOT_REGULAR_FILE",
    severity: "warning",
    file: "style/gone.css",
    pointer: null,
  },
  {
    name: "named-pipe-in-style",
    mutate: async (dir) => {
      execFileSync("mkfifo", [path.join(dir, "style/pipe.css")]);
    },
    code: "NOT_REGULAR_FILE",
    severity: "warning",
    file: "style/pipe.css",
    pointer: null,
  },
  {
    name: "php-file-in-style-would-run-on-apache",
    mutate: put("style/admin.php", "<?php phpinfo();\n"),
    code: "SERVER_SCRIPT",
    file: "style/admin.php",
    pointer: null,
  },
  {
    name: "phtml-file-in-icons-would-run-on-apache",
    mutate: put("icons/x.phtml", "<?php\n"),
    code: "SERVER_SCRIPT",
    file: "icons/x.phtml",
    pointer: null,
  },
  {
    name: "php-inner-extension-in-favicon-would-run-on-apache",
    mutate: async (dir) => {
      await mkdir(path.join(dir, "favicon"), { recursive: true });
      await writeFile(path.join(dir, "favicon/x.php5.png"), PNG);
    },
    code: "SERVER_SCRIPT",
    file: "favicon/x.php5.png",
    pointer: null,
  },
  {
    name: "symlink-back-to-content-root-publishes-manifest",
    mutate: async (dir) => symlink(dir, path.join(dir, "style/all")),
    code: "SYMLINK_INTO_CONTENT",
    file: "style/all",
    pointer: null,
  },
  {
    name: "symlink-to-manifest",
    mutate: async (dir) => symlink(path.join(dir, "manifest.json"), path.join(dir, "icons/m.png")),
    code: "SYMLINK_INTO_CONTENT",
    file: "icons/m.png",
    pointer: null,
  },
  {
    name: "file-name-not-utf8-in-style",
    mutate: async (dir) =>
      writeFile(
        Buffer.concat([Buffer.from(path.join(dir, "style") + "/a"), Buffer.from([0xff]), Buffer.from(".css")]),
        "a{}\n",
      ),
    code: "FILE_NAME_NOT_UTF8",
    file: "style/a\ufffd.css",
    pointer: null,
  },
  {
    name: "file-name-not-utf8-with-replacement-twin-in-icons",
    mutate: async (dir) => {
      await writeFile(
        Buffer.concat([Buffer.from(path.join(dir, "icons") + "/b"), Buffer.from([0xfe]), Buffer.from(".png")]),
        PNG,
      );
      await writeFile(path.join(dir, "icons/b\ufffd.png"), PNG);
    },
    code: "FILE_NAME_NOT_UTF8",
    file: "icons/b\ufffd.png",
    pointer: null,
  },
  {
    name: "config-is-a-folder",
    mutate: async (dir) => {
      await rm(path.join(dir, "config.json"));
      await mkdir(path.join(dir, "config.json"));
    },
    code: "FILE_MISSING",
    file: "config.json",
    pointer: null,
  },
];

let outside: string;
const temps: string[] = [];
beforeAll(async () => {
  outside = await tmpDir("bis-outside-");
  temps.push(outside);
  await writeFile(path.join(outside, "secret.png"), PNG);
  await writeFile(path.join(outside, "config.json"), `{"version":"1","main":{},"exclusions":{},"viewable_files":{}}`);
});
afterAll(async () => Promise.all(temps.map(removeDir)));

async function caseDir(c: Case): Promise<string> {
  const dir = await writeBase();
  temps.push(dir);
  await c.mutate(dir, outside);
  return dir;
}

const silent = { out: (): void => {}, err: (): void => {} };

describe("the base content is valid", () => {
  it("compiles with no diagnostics", async () => {
    const dir = await writeBase();
    temps.push(dir);
    const { diagnostics } = await compileContent(dir);
    expect(diagnostics).toEqual([]);
  });
});

describe("invalid content: one defect each", () => {
  it("has at least 40 cases with distinct names", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
    expect(new Set(CASES.map((c) => c.name)).size).toBe(CASES.length);
  });

  it.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const dir = await caseDir(c);
    const file = c.file === "--base-url" ? "--base-url" : `${dir}/${c.file}`;
    const matches = (d: Diagnostic): boolean =>
      d.code === c.code && d.file === file && (c.pointer === null ? d.pointer === undefined : d.pointer === c.pointer);
    const severity = c.severity ?? "error";

    let diagnostics: Diagnostic[];
    if (severity === "error") {
      const error = await compileContent(dir, c.baseUrl).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ContentError);
      diagnostics = (error as ContentError).diagnostics;
    } else {
      diagnostics = (await compileContent(dir, c.baseUrl)).diagnostics;
    }
    const found = diagnostics.find(matches);
    expect(found, `diagnostics: ${JSON.stringify(diagnostics, null, 1)}`).toBeDefined();
    expect(found!.severity).toBe(severity);
    expect(found!.message).not.toMatch(/^Error:/);
    if (c.line !== undefined) expect(found!.line).toBe(c.line);
    if (c.column !== undefined) expect(found!.column).toBe(c.column);
    // Only this one defect (plus what it implies for the same file) is reported as an error.
    for (const d of diagnostics.filter((x) => x.severity === "error")) expect([file, `${dir}/icons`]).toContain(d.file);

    const args = [
      "node",
      "build-index-site",
      "check",
      "--content",
      dir,
      ...(c.baseUrl ? ["--base-url", c.baseUrl] : []),
    ];
    // A wrong --base-url is a wrong flag: the CLI refuses it before reading the content (exit 2, issue 25).
    const usage = c.file === "--base-url";
    expect(await main(args, silent)).toBe(usage ? 2 : severity === "error" ? 1 : 0);
    expect(await main([...args, "--strict"], silent)).toBe(usage ? 2 : 1);
  });
});
