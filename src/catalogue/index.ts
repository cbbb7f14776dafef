// src/catalogue/index.ts
// The catalogue's files for dist/ (Node side): the pages (page.ts), the data the script reads, the script (the esbuild
// bundle of browser.ts, read from lib/ like the edge handler's bundle) and the style sheet. Left out, with a warning,
// when the content has an index.html of its own (that page is the site's root then).

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { RawContent } from "../content/read-content.js";
import { changedEntries } from "../model/changed-values.js";
import type { Json, JsonObject } from "../model/json.js";
import { encodeJson, siteDataText, type SiteDataPart } from "../model/site-data.js";
import type { Diagnostic } from "../errors.js";
import type { SiteModel } from "../model/types.js";
import { CATALOGUE_CSS } from "./style.js";
import { catalogueList, LIST_FILE, SCRIPT_FILE, SITE_DATA_FILE, STYLE_FILE } from "./catalogue-files.js";
import { cataloguePlan, pageHeader, type CatalogueView, type PagePlan } from "./page.js";
import { RowCache } from "./row-cache.js";
import { catalogueView, ViewMemo } from "./view.js";

export { CATALOGUE_DIR } from "./catalogue-files.js";

/** From src/catalogue (tests) and from lib/catalogue (the package), the same place: <package>/lib/catalogue. */
export const SCRIPT_BUNDLE_PATH = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../lib/catalogue/catalogue.js",
);

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
  /** The tool's fingerprint: a page's print holds it (another tool may make other text of the same inputs). */
  tool: string;
  /** The prints of the last build's pages (parseCataloguePrints), when it kept them: a page whose print is the same
   * is the same text, and an update in place keeps it without making it. */
  last?: ReadonlyMap<string, string> | null;
  /** What earlier builds made (`dev` keeps it between builds). */
  memo?: CatalogueMemo;
}

/**
 * What `dev` keeps of the catalogue between builds: the view's lists (view.ts: an edit makes again only the entries it
 * reaches), the pages' prints (pagePrints), the rows' markup (a page made again makes only its changed rows), and the
 * site data's parts as text, by the model's part they are made of (a model that shares a part with the last one,
 * src/content/load-content.ts: ModelParts, prints it once: extensionMap.json's may be large).
 */
export class CatalogueMemo {
  readonly rows = new RowCache();
  readonly view = new ViewMemo();
  readonly prints: PrintMemo = new Map();
  private readonly parts = new WeakMap<object, string>();
  /** icons.json's part printed entry by entry (iconMapText), with the map printed. */
  private iconMap: { json: JsonObject; entries: string[] } | null = null;

  partText(model: SiteModel, name: SiteDataPart, print: () => string): string {
    const part = model[name];
    let text = this.parts.get(part);
    if (text === undefined)
      this.parts.set(part, (text = name === "iconMap" ? this.iconMapText(model.iconMap) : print()));
    return text;
  }

  /**
   * The site data's iconMap part (src/model/site-data.ts: its JSON), each entry printed again only when an edit changed
   * it (icons.json with the same keys in order: src/model/changed-values.ts): a large icons.json is not printed whole
   * for a one-mapping rebuild.
   */
  private iconMapText(part: SiteModel["iconMap"]): string {
    const entry = (key: string, value: Json): string => JSON.stringify([key, encodeJson(value)]);
    const last = this.iconMap;
    const changed = last === null ? null : changedEntries(last.json, part.json);
    let entries: string[];
    if (changed === null) entries = [...part.json].map(([key, value]) => entry(key, value));
    else {
      entries = last!.entries;
      changed.keys.forEach((key, j) => (entries[changed.at[j]!] = entry(key, part.json.get(key)!)));
    }
    this.iconMap = { json: part.json, entries };
    return `{"json":{"o":[${entries.join(",")}]},"lastModified":${JSON.stringify(part.lastModified)}}`;
  }
}

export interface CatalogueOutput {
  /** The pages and the site's data are made when the writer asks for them (src/output/plan/site.ts): the model and the
   * view they come from are kept. A page `unchanged` is the last build's, by its print. */
  files: Array<
    { path: string; data: string | Uint8Array } | { path: string; produce(): string | Uint8Array; unchanged?: boolean }
  >;
  /** The pages' prints, for the records (printCataloguePrints). */
  prints?: Map<string, string>;
  /** Set when the catalogue is left out (the content's own index.html is the root page). */
  warning?: Diagnostic;
}

const PRINTS_FORMAT = 1;

/** Each page's print, with what it was made of: the tool and the view's header, and the page's inputs. */
export type PrintMemo = Map<string, { made: string; inputs: unknown; print: string }>;

/**
 * Each page's print: a hash of the tool, the view's header and the page's inputs, which make its text (page.ts).
 * With `memo` (`dev`'s), a page whose inputs are the same values and the same entries (the view's objects, which
 * src/catalogue/view.ts keeps while unchanged) keeps its last print: every page's inputs are not printed again.
 */
export function pagePrints(
  view: CatalogueView,
  plans: readonly PagePlan[],
  tool: string,
  memo?: PrintMemo,
): Map<string, string> {
  const made = `${tool}\n${JSON.stringify(pageHeader(view))}\n`;
  return new Map(
    plans.map((plan) => {
      const last = memo?.get(plan.path);
      if (last !== undefined && last.made === made && sameInputs(last.inputs, plan.inputs))
        return [plan.path, last.print];
      const print = createHash("sha1").update(made).update(JSON.stringify(plan.inputs)).digest("base64url");
      memo?.set(plan.path, { made, inputs: plan.inputs, print });
      return [plan.path, print];
    }),
  );
}

/** Inputs alike element by element, one array deep (a page's inputs: values, and slices of the view's lists). */
function sameInputs(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a[i] as unknown, b[i] as unknown];
    if (x === y) continue;
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
    for (let j = 0; j < x.length; j++) if (x[j] !== y[j]) return false;
  }
  return true;
}

/** The records' text of the pages' prints: JSON, a page per line. */
export function printCataloguePrints(prints: ReadonlyMap<string, string>): string {
  return `{"format":${PRINTS_FORMAT},"pages":{\n${[...prints].map(([page, print]) => `${JSON.stringify(page)}:${JSON.stringify(print)}`).join(",\n")}\n}}\n`;
}

/** The prints a build's records hold, or null when they hold none this tool reads. */
export function parseCataloguePrints(text: string | null): Map<string, string> | null {
  if (text === null) return null;
  try {
    const json = JSON.parse(text) as { format?: unknown; pages?: unknown };
    if (json.format !== PRINTS_FORMAT || typeof json.pages !== "object" || json.pages === null) return null;
    const prints = new Map<string, string>();
    for (const [page, print] of Object.entries(json.pages as Record<string, unknown>)) {
      if (typeof print !== "string") return null;
      prints.set(page, print);
    }
    return prints;
  } catch {
    return null;
  }
}

/** The catalogue's files, or none and a warning when the content's own index.html takes the root. */
export function catalogueFiles(input: CatalogueInput): CatalogueOutput {
  const own = input.raw.published.find((f) => f.path === "index.html");
  if (own !== undefined) {
    return {
      files: [],
      warning: {
        severity: "warning",
        code: "CATALOGUE_REPLACED",
        file: path.join(input.raw.dir, "index.html"),
        message:
          "The content has its own index.html: it is the site's root page, and the icon catalogue (index.html and catalogue/) is left out.",
        hint: "Remove it to get the catalogue, or build with --no-catalogue to say that you do not want one.",
      },
    };
  }
  const view = catalogueView(input, input.memo?.view);
  const { model } = input;
  // Each page is made when it is written, as its UTF-8 bytes (a page with a character beyond Latin-1 is held as two
  // bytes a character: a large catalogue's pages are not held at once), and not at all by an update that finds its print
  // unchanged: an edited mapping changes one page of mappings and the pages of its two icons.
  const { memo } = input;
  if (memo !== undefined) memo.rows.limit = 2 * (view.icons.length + view.mappings.length); // a row per page's root, at most
  const plans = cataloguePlan(view, memo?.rows);
  const prints = pagePrints(view, plans, input.tool, memo?.prints);
  const files: CatalogueOutput["files"] = plans.map((plan) => ({
    path: plan.path,
    produce: () => Buffer.from(plan.render(), "utf8"),
    unchanged: input.last?.get(plan.path) === prints.get(plan.path),
  }));
  files.push(
    { path: SCRIPT_FILE, data: catalogueScript() },
    { path: STYLE_FILE, data: CATALOGUE_CSS },
    {
      path: SITE_DATA_FILE,
      produce: () => `${siteDataText(model, (name, print) => memo?.partText(model, name, print) ?? print())}\n`,
    },
    { path: LIST_FILE, data: `${JSON.stringify(catalogueList(view.icons))}\n` },
  );
  return { files, prints };
}
