// src/catalogue/rows.ts
// The catalogue's entries and their markup, shared by the page generator (static pages, at build time) and the
// browser script (the virtualised list): one icon row and one mapping row look the same with or without JavaScript.
// Pure; no DOM, no Node.

/** One icon of icons/ (an image file), as the catalogue shows it. */
export interface IconEntry {
  name: string;
  size: number;
  /** Pixels, from image-size; null when the file does not say (an SVG without width, height or viewBox). */
  width: number | null;
  height: number | null;
  /** The keys of icons.json (extensions and file names) that map to this icon, in icons.json's order. */
  keys: readonly string[];
}

/** One entry of icons.json: a key (extension or file name) and the icon it names. */
export interface MappingEntry {
  key: string;
  icon: string;
  /** The icon file exists in icons/ (otherwise findIcon falls back, and the problems section says so). */
  exists: boolean;
  /** extensionMap.json's setting for the key, for indexing and for viewing (null: none). */
  indexing: string | null;
  viewing: string | null;
}

/** Entries per static page (without JavaScript the lists are split into pages of this many). */
export const PAGE_SIZE = 1000;
/** Keys shown in an icon's row; the rest are counted (the mapping pages and the search show them all). */
export const KEYS_SHOWN = 12;

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const SPECIAL = /[&<>"']/;
/** HTML-escapes text (most of it, names and keys, has nothing to escape: it is returned as it is). */
export const esc = (s: string): string => (SPECIAL.test(s) ? s.replace(/[&<>"']/g, (c) => ESCAPES[c]!) : s);

/** A query string for /api.php (PHP decodes %XX; every value is encoded). */
export const apiQuery = (params: ReadonlyArray<readonly [string, string]>): string =>
  params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&");

/** The href of an API answer, from a page whose way to the site's root is `root` ("" or "../"). */
export const apiHref = (root: string, params: ReadonlyArray<readonly [string, string]>): string =>
  `${root}api.php?${apiQuery(params)}`;

/** The href of an icon's file. */
export const iconHref = (root: string, name: string): string => `${root}icons/${encodeURIComponent(name)}`;

export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const kib = bytes / 1024;
  return kib < 1024 ? `${kib.toFixed(kib < 10 ? 1 : 0)} KiB` : `${(kib / 1024).toFixed(1)} MiB`;
}

export const dimensions = (icon: Pick<IconEntry, "width" | "height">): string =>
  icon.width === null || icon.height === null ? "size not stated" : `${icon.width}×${icon.height}`;

/** The inside of an icon's row (the element around it is the caller's: an <li>, or a positioned row). */
export function iconRowHtml(icon: IconEntry, root: string): string {
  const keys = icon.keys
    .slice(0, KEYS_SHOWN)
    .map(
      (k) =>
        `<a href="${esc(
          apiHref(root, [
            ["action", "findIcon"],
            ["extension", k],
          ]),
        )}">${esc(k)}</a>`,
    )
    .join(" ");
  const more =
    icon.keys.length > KEYS_SHOWN ? ` <span class="more">and ${icon.keys.length - KEYS_SHOWN} more</span>` : "";
  const mapped =
    icon.keys.length === 0
      ? `<span class="unmapped">Nothing maps to this icon</span>`
      : `<span class="keys"><span class="label">Mapped from</span> ${keys}${more}</span>`;
  return (
    `<img src="${esc(iconHref(root, icon.name))}" alt="${esc(icon.name)}" width="32" height="32" loading="lazy" decoding="async">` +
    `<span class="body"><span class="name"><a href="${esc(
      apiHref(root, [
        ["action", "icon"],
        ["name", icon.name],
      ]),
    )}">${esc(icon.name)}</a></span>` +
    ` <span class="meta">${esc(humanSize(icon.size))}, ${esc(dimensions(icon))}</span> ${mapped}</span>`
  );
}

/** The inside of a mapping's row. */
export function mappingRowHtml(m: MappingEntry, root: string): string {
  const setting = (type: "indexing" | "viewing", value: string | null): string =>
    `<a href="${esc(
      apiHref(root, [
        ["action", "getExtensionSetting"],
        ["extension", m.key],
        ["type", type],
      ]),
    )}">${type}: ${value === null ? "none" : esc(value)}</a>`;
  const icon = m.exists
    ? `<a href="${esc(iconHref(root, m.icon))}">${esc(m.icon)}</a>`
    : `<span class="missing">${esc(m.icon)} (missing)</span>`;
  return (
    `<span class="key"><a href="${esc(
      apiHref(root, [
        ["action", "findIcon"],
        ["extension", m.key],
      ]),
    )}">${esc(m.key)}</a></span>` +
    ` → ${icon} <span class="meta">${setting("indexing", m.indexing)}, ${setting("viewing", m.viewing)}</span>`
  );
}
