// src/catalogue/index.ts
// The catalogue's files for dist/ (Node side): the pages (page.ts), the data the script reads, the script (the esbuild
// bundle of browser.ts, read from lib/ like the edge handler's bundle) and the style sheet. Left out, with a warning,
// when the content has an index.html of its own (that page is the site's root then).

import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { RawContent } from "../content/read-content.js";
import { toSiteData } from "../model/site-data.js";
import type { Diagnostic } from "../errors.js";
import { formatTimestamp } from "../model/time.js";
import { sortedIconNames, type SiteModel } from "../model/types.js";
import { CATALOGUE_CSS } from "./style.js";
import { catalogueList, cataloguePages, LIST_FILE, SCRIPT_FILE, SITE_DATA_FILE, STYLE_FILE, type CatalogueView } from "./page.js";
import type { IconEntry, MappingEntry } from "./rows.js";

export { CATALOGUE_DIR } from "./page.js";

/** From src/catalogue (tests) and from lib/catalogue (the package), the same place: <package>/lib/catalogue. */
export const SCRIPT_BUNDLE_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../lib/catalogue/catalogue.js");

let cachedScript: string | undefined;

/** The browser script: one self-contained file (esbuild, `npm run build:catalogue`). */
export function catalogueScript(): string {
  if (cachedScript !== undefined) return cachedScript;
  try {
    cachedScript = readFileSync(SCRIPT_BUNDLE_PATH, "utf8");
  } catch {
    throw new Error(`Internal: the catalogue script ${SCRIPT_BUNDLE_PATH} is missing; run \`npm run build\`.`);
  }
  return cachedScript;
}

export interface CatalogueInput {
  model: SiteModel;
  raw: Pick<RawContent, "dir" | "iconDirFiles" | "published">;
  /** The build's diagnostics: the catalogue's problems section quotes its ICON_MISSING warnings. */
  diagnostics: readonly Diagnostic[];
}

export interface CatalogueOutput {
  /** The site's data is printed when the writer asks for it (src/output/plan.ts): the model it comes from is kept. */
  files: Array<{ path: string; data: string | Uint8Array } | { path: string; produce(): string }>;
  /** Set when the catalogue is left out (the content's own index.html is the root page). */
  warning?: Diagnostic;
}

/** What the pages show: the model's icons with their sizes and the keys that map to them, the mappings, the problems. */
export function catalogueView(input: CatalogueInput): CatalogueView {
  const { model, raw } = input;
  const keysByIcon = new Map<string, string[]>();
  for (const [key, icon] of model.iconMap.entries) {
    const list = keysByIcon.get(icon);
    if (list === undefined) keysByIcon.set(icon, [key]);
    else list.push(key);
  }
  // The pixel size image-size read from each icon's bytes (src/content/file-facts.ts); nulls when it cannot say.
  const images = new Map(raw.iconDirFiles.map((f) => [f.path.slice("icons/".length), f.facts?.image]));
  const icons: IconEntry[] = sortedIconNames(model).map((name) => {
    const image = images.get(name);
    return { name, size: model.iconDirFiles.get(name)!.size, width: image?.width ?? null, height: image?.height ?? null, keys: keysByIcon.get(name) ?? [] };
  });
  const mappings: MappingEntry[] = [...model.iconMap.entries].map(([key, icon]) => ({
    key, icon, exists: model.iconDirFiles.has(icon),
    indexing: model.extensionMap.indexing.get(key) ?? null, viewing: model.extensionMap.viewing.get(key) ?? null,
  }));
  const problems = input.diagnostics.filter((d) => d.code === "ICON_MISSING").map((d) => ({
    where: `${d.file}${d.line === undefined ? "" : `:${d.line}:${d.column ?? 1}`}`, message: d.message, ...(d.hint === undefined ? {} : { hint: d.hint }),
  }));
  const favicon = ["favicon/icon.ico", "favicon/favicon.ico", "favicon/16x16.png"].find((f) => raw.published.some((p) => p.path === f)) ?? "icons/text.png";
  return {
    service: model.service, serviceVersion: model.serviceVersion, description: model.description,
    configVersion: model.config.version, versions: model.versions, builtAt: formatTimestamp(model.buildTime), baseUrl: model.baseUrl,
    icons, mappings, problems, favicon,
  };
}

/** The catalogue's files, or none and a warning when the content's own index.html takes the root. */
export function catalogueFiles(input: CatalogueInput): CatalogueOutput {
  const own = input.raw.published.find((f) => f.path === "index.html");
  if (own !== undefined) {
    return {
      files: [],
      warning: {
        severity: "warning", code: "CATALOGUE_REPLACED", file: path.join(input.raw.dir, "index.html"),
        message: "The content has its own index.html: it is the site's root page, and the icon catalogue (index.html and catalogue/) is left out.",
        hint: "Remove it to get the catalogue, or build with --no-catalogue to say that you do not want one.",
      },
    };
  }
  const view = catalogueView(input);
  const { model } = input;
  // The pages as their UTF-8 bytes: a page with a character beyond Latin-1 is held as two bytes a character, and the
  // ×100 catalogue's 103 pages are 50 MB of UTF-8. (They are made all at once: page.ts is left as it is, since the
  // script's bundle, which imports it, changes with any edit of it.)
  const files: CatalogueOutput["files"] = cataloguePages(view).map((page) => ({ path: page.path, data: Buffer.from(page.data, "utf8") }));
  files.push(
    { path: SCRIPT_FILE, data: catalogueScript() },
    { path: STYLE_FILE, data: CATALOGUE_CSS },
    { path: SITE_DATA_FILE, produce: () => `${JSON.stringify(toSiteData(model))}\n` },
    { path: LIST_FILE, data: `${JSON.stringify(catalogueList(view.icons))}\n` },
  );
  return { files };
}
