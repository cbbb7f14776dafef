// test/helpers/site.ts
// A small SiteModel written by hand, for unit tests of the pure core (no disk, fixed clock).

import type { Json, JsonObject } from "../../src/model/json.js";
import type { FileInfo, SiteModel } from "../../src/model/types.js";

export const T = 1704067200; // 2024-01-01 00:00:00 UTC

const obj = (entries: Array<[string, Json]>): JsonObject => new Map(entries);

export function makeSite(overrides: Partial<SiteModel> = {}): SiteModel {
  const indexing: Array<[string, string]> = [
    ["php", "index_php"],
    ["js", "index_js"],
    ["7", "index_split"],
    ["jpeg", "index_jpg"],
  ];
  const viewing: Array<[string, string]> = [
    ["php", "view_php"],
    ["md", "view_md"],
  ];
  const icons: Array<[string, string]> = [
    ["file", "generic.png"],
    ["folder", "folder-blue.png"],
    ["php", "php.png"],
    ["js", "js.svg"],
    ["pas", "pascal.png"], // mapped file missing: falls back to text.png
  ];
  const files: Array<[string, FileInfo]> = [
    ["ada-body.png", { size: 11, lastModified: T - 50 }],
    ["ada.png", { size: 10, lastModified: T - 40 }],
    ["folder-blue.png", { size: 12, lastModified: T - 30 }],
    ["generic.png", { size: 13, lastModified: T - 20 }],
    ["js.svg", { size: 14, lastModified: T - 10 }],
    ["php.png", { size: 15, lastModified: T - 5 }],
    ["text.png", { size: 16, lastModified: T - 1 }],
    ["Photo.JPG", { size: 17, lastModified: T - 2 }], // an icon, but not counted by status (upper-case extension)
    ["notes.txt", { size: 18, lastModified: T - 3 }], // not an icon
  ];
  return {
    baseUrl: "https://icons.example.org",
    service: "Indexer API",
    serviceVersion: "1.2.0",
    description: "Test service",
    versions: ["1.1.2", "1.1.10", "1.2.0-r2", "1.2.0"],
    buildTime: T,
    config: {
      json: obj([
        ["version", "1.2.0-r2"],
        ["main", obj([["b", true]])],
        ["exclusions", obj([])],
        ["viewable_files", obj([])],
      ]),
      version: "1.2.0-r2",
      lastModified: T - 100,
    },
    extensionMap: {
      indexingJson: obj(indexing),
      viewingJson: obj(viewing),
      indexing: new Map(indexing),
      viewing: new Map(viewing),
      lastModified: T - 200,
    },
    iconMap: { json: obj(icons), entries: new Map(icons), lastModified: T - 300 },
    iconDirFiles: new Map(files),
    configReference: { text: "Reference\n", lastModified: T - 400 },
    ...overrides,
  };
}
