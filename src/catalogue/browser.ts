// src/catalogue/browser.ts
// The catalogue's script (dist/catalogue/catalogue.js, bundled by esbuild: `npm run build:catalogue`). It draws the
// list of icons first, then reads the site data (catalogue/site.json) and answers from it with the same code as the
// API (src/php through fromSiteData and phpRespond): the search asks findIcon, the preview any query. The list does
// not wait for the site data, which is several times the list's size. The icon list is virtualised: only the rows on
// screen are in the DOM. Without the script, the page is its static lists.
//
// The first screen is drawn from the list's head, a data block in the root page (no request); every row once the
// per-icon list (catalogue/list.json) is read; the search's findIcon answer and the preview once the site data is.
// Marks for the bench (performance.getEntriesByName): "catalogue:list" when the frame that draws the first screen
// runs, "catalogue:list-full" when every row can be drawn and filtered, "catalogue:ready" when the search and the
// preview answer from the site data (html[data-list], [data-list-full] and [data-ready] are set then).

import { phpRespond } from "../php/php-request.js";
import { fromSiteData, type SiteData } from "../model/site-data.js";
import type { SiteModel } from "../model/types.js";
import { handleApiLinks, type ShowInPreview } from "./api-links.js";
import { LIST_FILE, LIST_HEAD_ID, SITE_DATA_FILE, type CatalogueList } from "./catalogue-files.js";
import { esc, iconRowHtml, type IconEntry } from "./rows.js";
import { ROW_HEIGHT } from "./style.js";

const OVERSCAN = 6;

const byId = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`The catalogue page has no #${id}.`);
  return el as T;
};

async function bodyOf(file: string, request: Promise<Response>): Promise<Response> {
  const response = await request;
  if (!response.ok) throw new Error(`${file}: ${response.status}`);
  return response;
}

// Both are asked for as soon as the script runs (the page's preload has asked for the list already, so it is first in
// line): the first screen needs neither, and each is parsed only once what comes before it is on screen.
const listResponse = bodyOf(LIST_FILE, fetch(LIST_FILE));
const listText = listResponse.then((r) => r.text());
const siteResponse = bodyOf(SITE_DATA_FILE, fetch(SITE_DATA_FILE));
// Their failures are reported where they are awaited (not as unhandled before then).
listText.catch(() => undefined);
siteResponse.catch(() => undefined);

/**
 * Resolves after the browser has had a frame to paint what is in the DOM (or soon, in a tab that does not paint).
 * The first time, that frame is the first screen's: marked "catalogue:list".
 */
const afterPaint = (mark = true): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, 100);
    requestAnimationFrame(() => {
      if (mark) performance.mark("catalogue:list");
      setTimeout(() => {
        clearTimeout(timer);
        resolve();
      }, 0);
    });
  });

/** The answer of `GET /api.php?<query>` from the site's data: the API's own code. */
export function answerOf(site: SiteModel, query: string): { status: number; body: string } {
  const { status, body } = phpRespond(site, "GET", query);
  return { status, body };
}

/**
 * The extension a client sends for what was typed: an icons.json key as it is (extensions and file names), else
 * what follows the last dot of a file name ("foo.tsx" → "tsx"), else the text itself.
 */
export function extensionFor(site: SiteModel, text: string): string {
  const lower = text.toLowerCase();
  if (site.iconMap.entries.has(lower)) return lower;
  const dot = text.lastIndexOf(".");
  return dot === -1 ? text : text.slice(dot + 1);
}

/** What the virtualised list shows: how many rows, and each row's icon (undefined: not read yet, a placeholder). */
interface Rows {
  count: number;
  at(index: number): IconEntry | undefined;
}

/** The icon of row `i` of a list (or of its head, past which it is undefined). */
function entryAt(list: CatalogueList, i: number): IconEntry | undefined {
  const name = list.names[i];
  if (name === undefined) return undefined;
  const keys = list.keys[i]!;
  return {
    name,
    size: list.sizes[i]!,
    width: list.widths[i]!,
    height: list.heights[i]!,
    keys: keys === "" ? [] : keys.split("\n"),
  };
}

/** The virtualised list: a scrolling viewport, a spacer as tall as every row, and the rows on screen. */
class VirtualList {
  private rows: Rows = { count: 0, at: () => undefined };
  private chosen: string | null = null;
  private frame = 0;
  private readonly spacer: HTMLDivElement;

  constructor(private readonly viewport: HTMLElement) {
    this.spacer = document.createElement("div");
    this.spacer.className = "spacer";
    viewport.append(this.spacer);
    viewport.addEventListener("scroll", () => this.schedule(), { passive: true });
    window.addEventListener("resize", () => this.schedule());
  }

  /** Shows these rows from the top; with `keepPlace`, where the reader is (the same rows, now read in full). */
  show(rows: Rows, chosen: string | null, keepPlace = false): void {
    this.rows = rows;
    this.chosen = chosen;
    if (!keepPlace) this.viewport.scrollTop = 0;
    this.spacer.style.height = `${rows.count * ROW_HEIGHT}px`;
    this.viewport.setAttribute("aria-rowcount", String(rows.count));
    this.render();
  }

  private schedule(): void {
    if (this.frame === 0)
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        this.render();
      });
  }

  render(): void {
    const top = this.viewport.scrollTop;
    const height = this.viewport.clientHeight || window.innerHeight;
    const { count } = this.rows;
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(count, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN);
    const rows: HTMLElement[] = [];
    for (let i = first; i < last; i++) {
      const icon = this.rows.at(i);
      const row = document.createElement("div");
      row.className = icon !== undefined && icon.name === this.chosen ? "row chosen" : "row";
      row.setAttribute("role", "listitem");
      row.setAttribute("aria-posinset", String(i + 1));
      row.setAttribute("aria-setsize", String(count));
      row.style.top = `${i * ROW_HEIGHT}px`;
      if (icon === undefined) {
        row.classList.add("pending");
        row.textContent = "Reading the list…";
      } else {
        row.dataset.icon = icon.name;
        row.innerHTML = iconRowHtml(icon, "");
      }
      rows.push(row);
    }
    this.viewport.replaceChildren(this.spacer, ...rows);
  }
}

const readList = (text: string, where: string): CatalogueList => {
  const list = JSON.parse(text) as CatalogueList;
  if (list.format !== 1) throw new Error(`${where}: unsupported format ${String(list.format)}`);
  return list;
};

/** Until the whole list is read: puts the static first page back (when the list cannot be read). */
let restoreStatic: (() => void) | null = null;

/** What the search knows: the list's head, then every row, then the site data. */
interface SearchState {
  head: CatalogueList;
  /** Every icon's row, once the list is read. */
  list: CatalogueList | null;
  /** What the search matches: the icon's name and every key that maps to it, lower-cased once. */
  haystacks: string[] | null;
  byName: Map<string, number> | null;
  /** Set once the site data is read: until then the search filters the list and says that findIcon's answer follows. */
  site: SiteModel | null;
}

/** The static first page gives way to the virtualised list of every icon (given back if the list cannot be read). */
function mountList(): VirtualList {
  const viewport = document.createElement("div");
  viewport.id = "icon-view";
  viewport.className = "viewport";
  viewport.tabIndex = 0;
  viewport.setAttribute("role", "list");
  viewport.setAttribute("aria-label", "Icons (scroll for more)");
  const staticIcons = byId("static-icons");
  staticIcons.replaceWith(viewport);
  restoreStatic = () => viewport.replaceWith(staticIcons);
  return new VirtualList(viewport);
}

/** Shows findIcon's answer for what was typed (or that it follows the site data); returns the icon it names. */
function showFindIcon(site: SiteModel | null, text: string, answerBox: HTMLElement): string | null {
  if (site === null) {
    answerBox.innerHTML = `<span>Reading the site data to answer as findIcon does…</span>`;
    return null;
  }
  const folder = text.endsWith("/");
  const extension = folder ? "" : extensionFor(site, text);
  const query = folder ? "action=findIcon&type=folder" : `action=findIcon&extension=${encodeURIComponent(extension)}`;
  const answer = answerOf(site, query);
  if (answer.status === 200 && answer.body !== "") {
    const body = JSON.parse(answer.body) as { icon: { filename: string } };
    const chosen = body.icon.filename;
    const what = folder ? "A folder" : `${esc(text)} (extension <code>${esc(extension)}</code>)`;
    answerBox.innerHTML =
      `<img src="icons/${esc(encodeURIComponent(chosen))}" alt="${esc(chosen)}"> ` +
      `<span>${what} gets <strong id="find-icon" data-icon="${esc(chosen)}">${esc(chosen)}</strong> ` +
      `(<a href="${esc(`api.php?${query}`)}">findIcon</a>).</span>`;
    return chosen;
  }
  answerBox.innerHTML = `<span>findIcon answers ${answer.status} for <code>${esc(extension)}</code> (<a href="${esc(`api.php?${query}`)}">findIcon</a>).</span>`;
  return null;
}

/** The search's input, and its search: findIcon's answer for what was typed, and the list filtered by it. */
function searcher(state: SearchState, view: VirtualList, all: Rows): { input: HTMLInputElement; find: () => void } {
  const summary = byId("icon-summary");
  const total = summary.innerHTML;
  const input = byId<HTMLInputElement>("find-input");
  const answerBox = byId("find-answer");
  const find = (): void => {
    const text = input.value.trim();
    if (text === "") {
      answerBox.replaceChildren();
      summary.innerHTML = total;
      view.show(all, null);
      return;
    }
    const chosen = showFindIcon(state.site, text, answerBox);
    const { list, haystacks, byName } = state;
    if (list === null || haystacks === null || byName === null) {
      summary.textContent = `Reading the list of ${state.head.count} icons to filter it…`;
      return; // run again once the list is read
    }
    const needle = text.toLowerCase();
    const matches: number[] = [];
    const first = chosen === null ? undefined : byName.get(chosen);
    if (first !== undefined) matches.push(first);
    for (let i = 0; i < haystacks.length; i++) if (i !== first && haystacks[i]!.includes(needle)) matches.push(i);
    summary.textContent = `${matches.length} of ${list.count} icons match “${text}”${first !== undefined ? `; ${chosen} (findIcon's answer) comes first` : ""}.`;
    view.show({ count: matches.length, at: (i) => entryAt(list, matches[i]!) }, chosen);
  };
  return { input, find };
}

/** The answer preview: any query, answered from the site data. Returns how to show a query there, with a note. */
function startPreview(model: SiteModel): ShowInPreview {
  const previewInput = byId<HTMLInputElement>("preview-input");
  const status = byId("preview-status");
  const output = byId("preview-output");
  const preview = (): void => {
    // A whole URL, "/api.php?…", "?…" or the bare query: what follows the "?".
    const raw = previewInput.value.trim();
    const q = raw.includes("?") ? raw.slice(raw.indexOf("?") + 1) : raw;
    const answer = answerOf(model, q.split("#")[0]!);
    status.innerHTML =
      `Status ${answer.status}${answer.body === "" ? ", empty body" : ""}. ` +
      `<a id="preview-live" href="${esc(`api.php${q === "" ? "" : `?${q}`}`)}">Open the live answer</a> ` +
      `(<a href="${esc(`${model.baseUrl}/api.php${q === "" ? "" : `?${q}`}`)}">at ${esc(model.baseUrl)}</a>)`;
    output.textContent = answer.body;
  };
  previewInput.addEventListener("input", preview);
  byId("preview-form").addEventListener("submit", (event) => {
    event.preventDefault();
    preview();
  });
  byId("preview").hidden = false;
  preview();
  return (query, note) => {
    previewInput.value = query;
    preview();
    let noteBox = document.getElementById("preview-note");
    if (noteBox === null) {
      noteBox = document.createElement("p");
      noteBox.id = "preview-note";
      noteBox.className = "help";
      byId("preview-form").before(noteBox);
    }
    noteBox.textContent = note;
    byId("preview").scrollIntoView();
    previewInput.focus();
  };
}

/** The preview, once the site data is read: where a link to /api.php goes when the server does not route it. */
let previewStarted!: (show: ShowInPreview) => void;
handleApiLinks(new Promise((resolve) => (previewStarted = resolve)));

async function main(): Promise<void> {
  // The first screen: from the list's head in the page itself (page.ts), no request; every icon's row once the list
  // (catalogue/list.json, asked for by the page's preload) is read.
  const head = readList(byId(LIST_HEAD_ID).textContent ?? "", `#${LIST_HEAD_ID}`);
  const state: SearchState = { head, list: null, haystacks: null, byName: null, site: null };
  const all: Rows = {
    get count() {
      return head.count;
    },
    at: (i) => entryAt(state.list ?? head, i),
  };
  const view = mountList();
  const { input, find } = searcher(state, view, all);
  input.addEventListener("input", find);
  byId("find-form").addEventListener("submit", (event) => {
    event.preventDefault();
    find();
  });

  byId("find").hidden = false;
  view.show(all, null);
  document.documentElement.dataset.list = "true";
  await afterPaint();

  // Every icon's row: the rows on screen are drawn again where the reader is, and the search can filter.
  const full = readList(await listText, LIST_FILE);
  if (full.count !== head.count || full.names.length !== full.count)
    throw new Error(`${LIST_FILE} does not match the page (${full.count} icons, the page says ${head.count}).`);
  state.list = full;
  restoreStatic = null; // every row can be drawn: the virtualised list stays, whatever happens to the site data
  state.haystacks = full.names.map((name, i) => `${name}\n${full.keys[i]!}`.toLowerCase());
  state.byName = new Map(full.names.map((name, i) => [name, i]));
  if (input.value.trim() === "") view.show(all, null, true);
  else find();
  document.documentElement.dataset.listFull = "true";
  performance.mark("catalogue:list-full");
  await afterPaint(false);

  // Then the site data: findIcon's answers and the preview.
  state.site = fromSiteData((await (await siteResponse).json()) as SiteData);
  previewStarted(startPreview(state.site));
  if (input.value.trim() !== "") find(); // typed while the site data was read: now with findIcon's answer
  performance.mark("catalogue:ready");
  document.documentElement.dataset.ready = "true";
}

main().catch((error: unknown) => {
  // The static lists stay; the reason is shown, not thrown at the console.
  const box = document.getElementById("find-answer");
  document.documentElement.dataset.ready = "failed";
  // Without the whole list, the static first page comes back, with its rows past the first screen, which are in
  // <noscript> (page.ts).
  restoreStatic?.();
  const more = document.getElementById("more-icons");
  if (more !== null) more.outerHTML = more.textContent ?? "";
  if (box !== null) {
    box.textContent = `The search could not load: ${error instanceof Error ? error.message : String(error)}.`;
    byId("find").hidden = false;
  }
});
