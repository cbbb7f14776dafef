// src/catalogue/catalogue-files.ts
// The catalogue's own files in dist/ (its script, style, site data and per-icon list) and the per-icon list's
// format: what the pages and the script both name.

import type { IconEntry } from "./rows.js";

/** The folder of the catalogue's own files in dist/ (no content file can land there: content publishes icons/, style/, favicon/). */
export const CATALOGUE_DIR = "catalogue";
export const SCRIPT_FILE = `${CATALOGUE_DIR}/catalogue.js`;
export const STYLE_FILE = `${CATALOGUE_DIR}/catalogue.css`;
/**
 * The site model as JSON (src/model/site-data.ts), which the script answers every query from (the search's findIcon
 * and the answer preview). Loaded after the list is drawn. `diff` reads its `versions` from a deployed site.
 */
export const SITE_DATA_FILE = `${CATALOGUE_DIR}/site.json`;
/**
 * The per-icon list (CatalogueList) of every icon: what the list shows once it is read, and what the search filters.
 * Smaller than the site data (and columns, not a JSON array per icon: it parses faster).
 */
export const LIST_FILE = `${CATALOGUE_DIR}/list.json`;
/** The id of the root page's data block (<script type="application/json">, never run) that holds the list's head. */
export const LIST_HEAD_ID = "list-head";
/** Icons in the list's head: more than any screen shows (rows are 64 px), so the first screen is drawn from it. */
export const LIST_HEAD_ROWS = 100;

/**
 * The per-icon list's JSON, by columns, one entry per icon in the icons action's order. `count` is every icon's: in
 * the list's head (the root page's data block) the columns hold only the first LIST_HEAD_ROWS.
 */
export interface CatalogueList {
  format: 1;
  count: number;
  names: string[];
  sizes: number[];
  widths: Array<number | null>;
  heights: Array<number | null>;
  /** The icons.json keys that map to each icon, joined by "\n" ("" when none). */
  keys: string[];
}

/** The list (or its first `rows` entries, with every icon's count) from the view. */
export function catalogueList(icons: readonly IconEntry[], rows = icons.length): CatalogueList {
  const head = icons.slice(0, rows);
  return {
    format: 1,
    count: icons.length,
    names: head.map((i) => i.name),
    sizes: head.map((i) => i.size),
    widths: head.map((i) => i.width),
    heights: head.map((i) => i.height),
    keys: head.map((i) => i.keys.join("\n")),
  };
}
