// src/catalogue/page.ts
// The catalogue's pages as text, pure: dist/index.html (the site's root: the first page of icons, the problems, the
// versions, the search and the answer preview that the script brings to life) and the static pages that list every
// icon and every mapping without JavaScript, PAGE_SIZE entries each. Scripts and styles are files (the pages are
// served under a Content-Security-Policy that allows nothing inline).

import { ACTIONS } from "../php/answers.js";
import {
  catalogueList,
  CATALOGUE_DIR,
  LIST_FILE,
  LIST_HEAD_ID,
  LIST_HEAD_ROWS,
  SCRIPT_FILE,
  STYLE_FILE,
} from "./catalogue-files.js";
import { iconRowKey, mappingRowKey, type RowCache } from "./row-cache.js";
import { apiHref, esc, iconRowHtml, mappingRowHtml, PAGE_SIZE, type IconEntry, type MappingEntry } from "./rows.js";

/** JSON inside <script type="application/json">: no "<" (so no "</script>" or "<!--" can end or bend it). */
const dataBlock = (id: string, value: unknown): string =>
  `<script type="application/json" id="${id}">${JSON.stringify(value).replace(/</g, "\\u003c")}</script>`;

export interface CatalogueView {
  service: string;
  serviceVersion: string;
  description: string;
  configVersion: string;
  versions: readonly string[];
  /** "2024-01-01 00:00:00" (the answers' timestamp format). */
  builtAt: string;
  baseUrl: string;
  /** Icons in the order of the icons action (byte order). */
  icons: readonly IconEntry[];
  mappings: readonly MappingEntry[];
  /** Each mapping whose icon is missing: the build's warning, as it printed it. */
  problems: ReadonlyArray<{ where: string; message: string; hint?: string }>;
  /** The page's favicon, relative to the site's root. */
  favicon: string;
}

export const iconPagePath = (page: number): string =>
  page === 1 ? "index.html" : `${CATALOGUE_DIR}/icons-${page}.html`;
export const mappingPagePath = (page: number): string => `${CATALOGUE_DIR}/mappings-${page}.html`;

const pages = (n: number): number => Math.max(1, Math.ceil(n / PAGE_SIZE));

/** A link from one page to another: both paths relative to the site's root. */
function relative(from: string, to: string): string {
  const fromInside = from.startsWith(`${CATALOGUE_DIR}/`);
  const toInside = to.startsWith(`${CATALOGUE_DIR}/`);
  if (fromInside === toInside) return fromInside ? to.slice(CATALOGUE_DIR.length + 1) : to;
  return fromInside ? `../${to}` : to;
}

const rootOf = (path: string): string => (path.startsWith(`${CATALOGUE_DIR}/`) ? "../" : "");

function document(view: CatalogueView, path: string, title: string, main: string, script: boolean): string {
  const root = rootOf(path);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<link rel="icon" href="${esc(root + view.favicon)}">
<link rel="stylesheet" href="${esc(root + STYLE_FILE)}">
${script ? `<link rel="preload" href="${esc(root + LIST_FILE)}" as="fetch" crossorigin="anonymous">\n<script src="${esc(root + SCRIPT_FILE)}" defer></script>\n` : ""}</head>
<body>
<a class="skip" href="#main">Skip to the content</a>
<header>
<h1>${esc(view.service)}: icon catalogue</h1>
<p>${esc(view.description)}</p>
<dl class="versions">
<dt>Service version</dt><dd>${esc(view.serviceVersion)}</dd>
<dt>Config version</dt><dd id="config-version">${esc(view.configVersion)}</dd>
<dt>Client versions</dt><dd>${view.versions.length === 0 ? "none listed" : view.versions.map(esc).join(", ")}</dd>
<dt>Built</dt><dd>${esc(view.builtAt)} UTC</dd>
<dt>Public address</dt><dd>${esc(view.baseUrl)}/</dd>
</dl>
<nav aria-label="Sections"><ul>
<li><a href="${esc(relative(path, "index.html"))}#icons">Icons</a></li>
<li><a href="${esc(relative(path, mappingPagePath(1)))}">Mappings</a></li>
<li><a href="${esc(relative(path, "index.html"))}#problems">Problems</a></li>
<li><a href="${esc(relative(path, "index.html"))}#api">API</a></li>
</ul></nav>
</header>
<main id="main">
${main}
</main>
</body>
</html>
`;
}

function pager(
  label: string,
  count: number,
  current: number,
  pathOf: (page: number) => string,
  from: string,
  kind: string,
): string {
  const n = pages(count);
  if (n === 1) return "";
  const items: string[] = [];
  for (let p = 1; p <= n; p++) {
    const first = (p - 1) * PAGE_SIZE + 1;
    const last = Math.min(p * PAGE_SIZE, count);
    const text = `${first}–${last}`;
    items.push(
      p === current
        ? `<li><span aria-current="page">${text}</span></li>`
        : `<li><a href="${esc(relative(from, pathOf(p)))}" aria-label="${kind} ${first} to ${last}">${text}</a></li>`,
    );
  }
  return `<nav class="pager" aria-label="${esc(label)}"><ul>${items.join("")}</ul></nav>`;
}

/** `unmapped`: the icons with nothing mapped to them, counted once for every page (each page says how many). */
function iconList(
  view: CatalogueView,
  page: number,
  path: string,
  unmapped: number,
  cache: RowCache | undefined,
): string {
  const slice = view.icons.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const nav = pager("Pages of icons", view.icons.length, page, iconPagePath, path, "Icons");
  return `<section id="icons" aria-labelledby="icons-title">
<h2 id="icons-title">Icons</h2>
<p id="icon-summary"><strong id="icon-count">${view.icons.length}</strong> icons, <span id="unmapped-count">${unmapped}</span> of them with nothing mapped to them.${
    pages(view.icons.length) > 1
      ? ` This page lists ${slice.length === 0 ? 0 : (page - 1) * PAGE_SIZE + 1}–${(page - 1) * PAGE_SIZE + slice.length}.`
      : ""
  }</p>
<div id="static-icons">
${nav}
${rowsHtml(slice, path, page === 1, cache)}
${nav}
</div>${page === 1 ? `\n${dataBlock(LIST_HEAD_ID, catalogueList(view.icons, LIST_HEAD_ROWS))}` : ""}
</section>`;
}

/**
 * Rows of the root page that are markup for every browser: about a first screen's worth. The script replaces the
 * static list with the virtualised one, so the rest of the root page's rows are in <noscript>: a browser that runs
 * scripts reads them as one text node instead of building, laying out and then dropping a page of rows, which would
 * delay the first screen; without JavaScript they are rows like the others.
 */
export const ROWS_BEFORE_NOSCRIPT = 30;

function rowsHtml(slice: readonly IconEntry[], path: string, scripted: boolean, cache: RowCache | undefined): string {
  const root = rootOf(path);
  const rows = (list: readonly IconEntry[]): string =>
    list
      .map(
        (icon) =>
          `<li class="row">${
            cache === undefined
              ? iconRowHtml(icon, root)
              : cache.row(iconRowKey(icon, root), () => iconRowHtml(icon, root))
          }</li>`,
      )
      .join("\n");
  if (!scripted || slice.length <= ROWS_BEFORE_NOSCRIPT)
    return `<ul class="rows icons" aria-label="Icons">\n${rows(slice)}\n</ul>`;
  return `<ul class="rows icons" aria-label="Icons">\n${rows(slice.slice(0, ROWS_BEFORE_NOSCRIPT))}\n</ul>
<noscript id="more-icons"><ul class="rows icons" aria-label="Icons, continued">
${rows(slice.slice(ROWS_BEFORE_NOSCRIPT))}
</ul></noscript>`;
}

function problemsSection(view: CatalogueView): string {
  const items = view.problems.map(
    (p) =>
      `<li><span class="where">${esc(p.where)}</span>: ${esc(p.message)}${p.hint === undefined ? "" : ` <span class="hint">${esc(p.hint)}</span>`}</li>`,
  );
  return `<section id="problems" aria-labelledby="problems-title">
<h2 id="problems-title">Problems</h2>
${
  view.problems.length === 0
    ? `<p>Every mapped icon exists.</p>`
    : `<p>${view.problems.length} mapping${view.problems.length === 1 ? " names an icon" : "s name icons"} that icons/ does not hold (the build's warnings):</p>
<ul class="problems">
${items.join("\n")}
</ul>`
}
</section>`;
}

const EXAMPLES: Record<(typeof ACTIONS)[number], Array<readonly [string, string]>> = {
  versionCheck: [["current_version", "1.0"]],
  config: [],
  icons: [],
  icon: [["name", "text.png"]],
  findIcon: [
    ["type", "file"],
    ["extension", "tsx"],
  ],
  iconMappings: [],
  extensionMappings: [["type", "all"]],
  getExtensionSetting: [
    ["extension", "php"],
    ["type", "indexing"],
  ],
  configReference: [],
  status: [],
};

function apiSection(view: CatalogueView): string {
  const links = [`<li><a href="api.php">api.php</a> (the list of endpoints)</li>`];
  for (const action of ACTIONS) {
    const params: Array<readonly [string, string]> = [["action", action], ...EXAMPLES[action]];
    const version =
      action === "versionCheck"
        ? ([
            ["action", action],
            ["current_version", view.configVersion],
          ] as const)
        : null;
    links.push(`<li><a href="${esc(apiHref("", version ?? params))}">${esc(apiHref("", version ?? params))}</a></li>`);
  }
  return `<section id="api" aria-labelledby="api-title">
<h2 id="api-title">API</h2>
<p>The answers this site serves at <code>${esc(view.baseUrl)}/api.php</code> (links open them on this host):</p>
<ul class="api">
${links.join("\n")}
</ul>
</section>`;
}

/** The search and the answer preview: hidden until the script runs (without JavaScript the lists are the page). */
const SEARCH = `<section id="find" aria-labelledby="find-title" hidden>
<h2 id="find-title">Find an icon</h2>
<form id="find-form" role="search">
<label for="find-input">Extension, file name or icon name</label>
<input id="find-input" type="search" autocomplete="off" spellcheck="false" placeholder="foo.tsx" aria-describedby="find-help">
<p id="find-help" class="help">Answers which icon a client gets for a file (as <code>findIcon</code> does) and filters the list below.</p>
</form>
<div id="find-answer" aria-live="polite"></div>
</section>`;

const PREVIEW = `<section id="preview" aria-labelledby="preview-title" hidden>
<h2 id="preview-title">Answer preview</h2>
<form id="preview-form">
<label for="preview-input">API query</label>
<input id="preview-input" type="text" autocomplete="off" spellcheck="false" value="action=findIcon&amp;type=file&amp;extension=tsx" aria-describedby="preview-help">
<p id="preview-help" class="help">Any query of <code>/api.php</code>: the answer is computed in this page by the same code as the site's API.</p>
</form>
<p id="preview-status" aria-live="polite"></p>
<pre id="preview-output" tabindex="0" aria-label="Answer body"></pre>
</section>`;

/**
 * One page of the catalogue, made when asked for. Its text is made from the view's header (pageHeader) and `inputs`
 * alone: two pages whose header and inputs are alike are the same text (src/catalogue/index.ts keeps a print of them,
 * and a rebuild makes again only the pages whose print changed).
 */
export interface PagePlan {
  path: string;
  inputs: unknown;
  render(): string;
}

/** What every page shows of the view, besides its own list (document, apiSection). */
export const pageHeader = (view: CatalogueView): unknown[] => [
  view.service,
  view.serviceVersion,
  view.description,
  view.configVersion,
  view.versions,
  view.builtAt,
  view.baseUrl,
  view.favicon,
];

/** Every page of the catalogue: index.html, then the other pages of icons, then the pages of mappings. `cache`: the
 * rows' markup of earlier builds (`dev` keeps it), by what each row is made of. */
export function cataloguePlan(view: CatalogueView, cache?: RowCache): PagePlan[] {
  const plans: PagePlan[] = [];
  const unmapped = view.icons.filter((i) => i.keys.length === 0).length;
  const missing = view.mappings.filter((m) => !m.exists).length;
  plans.push({
    // Its list is the first page of icons, and its data block the list's head (LIST_HEAD_ROWS ≤ PAGE_SIZE).
    path: "index.html",
    inputs: [
      "index",
      view.icons.length,
      unmapped,
      view.icons.slice(0, PAGE_SIZE),
      view.problems,
      view.mappings.length,
      missing,
    ],
    render: () => {
      const index = [
        SEARCH,
        iconList(view, 1, "index.html", unmapped, cache),
        PREVIEW,
        problemsSection(view),
        mappingsLink(view),
        apiSection(view),
      ].join("\n");
      return document(view, "index.html", `${view.service}: icon catalogue`, index, true);
    },
  });
  for (let p = 2; p <= pages(view.icons.length); p++) {
    const path = iconPagePath(p);
    plans.push({
      path,
      inputs: ["icons", p, view.icons.length, unmapped, view.icons.slice((p - 1) * PAGE_SIZE, p * PAGE_SIZE)],
      render: () =>
        document(view, path, `Icons, page ${p}: ${view.service}`, iconList(view, p, path, unmapped, cache), false),
    });
  }
  for (let p = 1; p <= pages(view.mappings.length); p++) {
    const path = mappingPagePath(p);
    plans.push({
      path,
      inputs: ["mappings", p, view.mappings.length, view.mappings.slice((p - 1) * PAGE_SIZE, p * PAGE_SIZE)],
      render: () =>
        document(view, path, `Mappings, page ${p}: ${view.service}`, mappingList(view, p, path, cache), false),
    });
  }
  return plans;
}

function mappingsLink(view: CatalogueView): string {
  const missing = view.mappings.filter((m) => !m.exists).length;
  return `<section id="mappings" aria-labelledby="mappings-title">
<h2 id="mappings-title">Mappings</h2>
<p>${view.mappings.length} extensions and file names map to icons (icons.json)${missing > 0 ? `, ${missing} of them to a missing icon` : ""}: <a href="${esc(mappingPagePath(1))}">every mapping, with its indexing and viewing settings</a>.</p>
</section>`;
}

function mappingList(view: CatalogueView, page: number, path: string, cache: RowCache | undefined): string {
  const root = rootOf(path);
  const slice = view.mappings.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const nav = pager("Pages of mappings", view.mappings.length, page, mappingPagePath, path, "Mappings");
  return `<section id="mappings" aria-labelledby="mappings-title">
<h2 id="mappings-title">Mappings</h2>
<p><strong>${view.mappings.length}</strong> extensions and file names map to icons (icons.json), each with its indexing and viewing setting (extensionMap.json).</p>
${nav}
<ul class="rows mappings" aria-label="Mappings">
${slice.map((m) => `<li class="row">${cache === undefined ? mappingRowHtml(m, root) : cache.row(mappingRowKey(m, root), () => mappingRowHtml(m, root))}</li>`).join("\n")}
</ul>
${nav}
</section>`;
}
