// src/init/templates.ts
// The starter content that `build-index-site init` writes: the smallest content folder that builds, with one example
// of each kind of entry (an indexed and viewed extension, a PNG and an SVG icon, the folder icon and the text.png
// fallback) and a config reference. Its base_url is a placeholder: a warning until the user sets theirs (--strict
// refuses it); with a base URL, it builds with --strict and no warning.

import { PLACEHOLDER_BASE_URL } from "../content/base-url.js";
import { squarePng } from "./png.js";

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

const svg = (color: string): string =>
  [
    '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">',
    `  <rect x="0.5" y="0.5" width="15" height="15" fill="${color}" stroke="#000"/>`,
    "</svg>",
    "",
  ].join("\n");

/** The starter's config reference (?action=configReference serves it as is): the settings its config.json holds,
 * as the indexer's own reference documents them. */
const CONFIG_REFERENCE = `Indexer - Configuration Reference
=================================

?action=configReference serves this file as it is: edit it to document your own configuration.

CONFIGURATION STRUCTURE
=======================

{
  "version": "string",
  "main": { /* core settings */ },
  "exclusions": { /* file indexing controls */ },
  "viewable_files": { /* file viewing controls */ }
}

version                    String   Configuration version; clients compare theirs with ?action=versionCheck.

MAIN SETTINGS
=============

main.cache_type            String   "sqlite" (default) or "json".
main.icon_type             String   "default", "minimal", "emoji" or "disabled".
main.index_hidden          Boolean  Show files and folders whose name starts with "." (default false).

EXCLUSIONS (FILE INDEXING)
==========================

exclusions.index_folders   Boolean  Folders appear in listings.
exclusions.index_<ext>     Boolean  Files of that type appear in listings.

VIEWABLE FILES (BROWSER DISPLAY)
================================

viewable_files.view_<ext>  Boolean  Files of that type open in the browser instead of downloading.
`;

/**
 * Path inside the content folder → bytes. `schemas` is the path from the content folder to the package's schemas/
 * (for manifest.json's "$schema": editors resolve it relative to the file).
 */
export function starterContent(schemas = "../node_modules/build-index-site/schemas"): Map<string, string | Buffer> {
  return new Map<string, string | Buffer>([
    [
      "manifest.json",
      json({
        $schema: `${schemas}/manifest.schema.json`,
        base_url: PLACEHOLDER_BASE_URL,
        service: "Indexer API",
        service_version: "1.0.0",
        description: "Configuration and icon service built by build-index-site",
        versions: ["1.0.0"],
      }),
    ],
    [
      "config.json",
      json({
        version: "1.0.0",
        main: { cache_type: "sqlite", icon_type: "default", index_hidden: false },
        exclusions: { index_folders: true, index_txt: true, index_json: true, index_html: true },
        viewable_files: { view_txt: true, view_json: true, view_html: true },
      }),
    ],
    [
      "extensionMap.json",
      json({
        indexing: { txt: "index_txt", json: "index_json", html: "index_html" },
        viewing: { txt: "view_txt", json: "view_json", html: "view_html" },
      }),
    ],
    ["config-reference.txt", CONFIG_REFERENCE],
    ["icons.json", json({ folder: "folder.png", txt: "text.png", json: "json.png", html: "html.svg" })],
    ["icons/text.png", squarePng(16, [230, 230, 230, 255])],
    ["icons/folder.png", squarePng(16, [240, 200, 80, 255])],
    ["icons/json.png", squarePng(16, [120, 170, 230, 255])],
    ["icons/html.svg", svg("#e34c26")],
  ]);
}

/** The Node major Netlify builds with: an LTS line (Node 20 reached its end of life in April 2026). */
export const NODE_MAJOR = "22";

/** The command Netlify runs: the installed tool, which finds the content through the config file. */
export const NETLIFY_COMMAND = "npx build-index-site";

/** netlify.toml for the current folder: Netlify runs the build, publishes its own folder of the site (the plain files
 * and the handler's data, never the answer files) and deploys the edge function. */
export function netlifyToml(command: string = NETLIFY_COMMAND): string {
  return [
    "# netlify.toml, written by `build-index-site init`.",
    "# The build writes the site into dist/, Netlify's copy of it (what it serves: no answer file) into",
    "# .build-index-site/dist/hosts/netlify/ (the folder Netlify publishes), and the edge function that answers",
    "# /api.php?action=... into .netlify/v1/ (Netlify's Frameworks API: deployed from there, nothing to declare here).",
    "[build]",
    `  command = ${JSON.stringify(command)}`,
    '  publish = ".build-index-site/dist/hosts/netlify"',
    "",
    "[build.environment]",
    `  NODE_VERSION = "${NODE_MAJOR}"`,
    "",
  ].join("\n");
}

/** The config file `init` writes: where the content is and where the site goes (`$schema` gives editor completion). */
export function configFile(content: string): string {
  return `${JSON.stringify(
    {
      $schema: "./node_modules/build-index-site/schemas/build-index-site.config.schema.json",
      content,
      out: "dist",
    },
    null,
    2,
  )}\n`;
}

/** The build's outputs, which .gitignore gets (besides node_modules/). */
export const GITIGNORE_LINES = [
  "node_modules/",
  "dist/",
  ".netlify/",
  ".vercel/",
  ".build-index-site/",
  ".wrangler/",
] as const;
