// src/catalogue/row-cache.ts
// The rows' markup of the catalogue's pages, kept by what each row is made of, so that a rebuild makes only the rows
// an edit changed.

import { KEYS_SHOWN, type IconEntry, type MappingEntry } from "./rows.js";

/**
 * Rows' markup by what each row is made of (iconRowKey, mappingRowKey): a page an edit changes holds 1,000 rows, of
 * which the edit changes one or two, and making a row's markup (escaping, encoding its links) costs several times
 * looking it up. Holds at most `limit` rows (set from the site's rows): past it, it starts again.
 */
export class RowCache {
  private readonly rows = new Map<string, string>();
  limit = Infinity;

  row(key: string, make: () => string): string {
    let html = this.rows.get(key);
    if (html === undefined) {
      if (this.rows.size >= this.limit) this.rows.clear();
      html = make();
      this.rows.set(key, html);
    }
    return html;
  }
}

/** What makes an icon's row (iconRowHtml): its names length-prefixed, so that no two rows' keys run together. */
export const iconRowKey = (icon: IconEntry, root: string): string => {
  let key = `i${root}|${icon.name.length}:${icon.name}|${icon.size}|${icon.width}|${icon.height}|${icon.keys.length}`;
  for (let i = 0; i < icon.keys.length && i < KEYS_SHOWN; i++) key += `|${icon.keys[i]!.length}:${icon.keys[i]!}`;
  return key;
};

/** What makes a mapping's row (mappingRowHtml). */
export const mappingRowKey = (m: MappingEntry, root: string): string =>
  `m${root}|${m.key.length}:${m.key}|${m.icon.length}:${m.icon}|${m.exists ? 1 : 0}|${m.indexing === null ? "-" : `${m.indexing.length}:${m.indexing}`}|${
    m.viewing === null ? "-" : `${m.viewing.length}:${m.viewing}`
  }`;
