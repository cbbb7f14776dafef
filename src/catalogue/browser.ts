// src/catalogue/browser.ts
// The catalogue's script (dist/catalogue/catalogue.js, bundled by esbuild: `npm run build:catalogue`). It loads the
// edge handler's site data and answers from it with the same code as the API (src/api through fromSiteData and
// phpRespond): the search asks findIcon, the preview any query. The icon list is virtualised: only the rows on
// screen are in the DOM, so 49,000 icons stay usable. Without it, the page is its static lists.

import { phpRespond } from "../api/php-request.js";
import { fromSiteData, type SiteData } from "../model/site-data.js";
import type { SiteModel } from "../model/types.js";
import { ICON_DATA_FILE, SITE_DATA_FILE } from "./page.js";
import { esc, iconRowHtml, type IconEntry } from "./rows.js";
import { ROW_HEIGHT } from "./style.js";

const OVERSCAN = 6;

const byId = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`The catalogue page has no #${id}.`);
  return el as T;
};

async function fetchJson<T>(file: string): Promise<T> {
  const response = await fetch(file);
  if (!response.ok) throw new Error(`${file}: ${response.status}`);
  return (await response.json()) as T;
}

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

/** The virtualised list: a scrolling viewport, a spacer as tall as every row, and the rows on screen. */
class VirtualList {
  private items: readonly IconEntry[] = [];
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

  show(items: readonly IconEntry[], chosen: string | null): void {
    this.items = items;
    this.chosen = chosen;
    this.viewport.scrollTop = 0;
    this.spacer.style.height = `${items.length * ROW_HEIGHT}px`;
    this.viewport.setAttribute("aria-rowcount", String(items.length));
    this.render();
  }

  private schedule(): void {
    if (this.frame === 0) this.frame = requestAnimationFrame(() => { this.frame = 0; this.render(); });
  }

  render(): void {
    const top = this.viewport.scrollTop;
    const height = this.viewport.clientHeight || window.innerHeight;
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(this.items.length, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN);
    const rows: HTMLElement[] = [];
    for (let i = first; i < last; i++) {
      const icon = this.items[i]!;
      const row = document.createElement("div");
      row.className = icon.name === this.chosen ? "row chosen" : "row";
      row.setAttribute("role", "listitem");
      row.setAttribute("aria-posinset", String(i + 1));
      row.setAttribute("aria-setsize", String(this.items.length));
      row.dataset.icon = icon.name;
      row.style.top = `${i * ROW_HEIGHT}px`;
      row.innerHTML = iconRowHtml(icon, "");
      rows.push(row);
    }
    this.viewport.replaceChildren(this.spacer, ...rows);
  }
}

async function main(): Promise<void> {
  const [data, extra] = await Promise.all([
    fetchJson<SiteData>(SITE_DATA_FILE),
    fetchJson<{ icons: Array<[string, number | null, number | null]> }>(ICON_DATA_FILE),
  ]);
  const site = fromSiteData(data);
  const keysByIcon = new Map<string, string[]>();
  for (const [key, icon] of site.iconMap.entries) {
    const list = keysByIcon.get(icon);
    if (list === undefined) keysByIcon.set(icon, [key]);
    else list.push(key);
  }
  const icons: IconEntry[] = extra.icons.map(([name, width, height]) => ({
    name, width, height, size: site.iconDirFiles.get(name)?.size ?? 0, keys: keysByIcon.get(name) ?? [],
  }));
  // What the search matches: the icon's name and every key that maps to it, lower-cased once.
  const haystacks = icons.map((i) => [i.name, ...i.keys].join("\n").toLowerCase());
  const byName = new Map(icons.map((icon, i) => [icon.name, i]));

  // The static first page gives way to the virtualised list of every icon.
  const viewport = document.createElement("div");
  viewport.id = "icon-view";
  viewport.className = "viewport";
  viewport.tabIndex = 0;
  viewport.setAttribute("role", "list");
  viewport.setAttribute("aria-label", "Icons (scroll for more)");
  byId("static-icons").replaceWith(viewport);
  const list = new VirtualList(viewport);
  const summary = byId("icon-summary");
  const total = summary.innerHTML;

  const input = byId<HTMLInputElement>("find-input");
  const answerBox = byId("find-answer");
  const find = (): void => {
    const text = input.value.trim();
    if (text === "") {
      answerBox.replaceChildren();
      summary.innerHTML = total;
      list.show(icons, null);
      return;
    }
    const folder = text.endsWith("/");
    const extension = folder ? "" : extensionFor(site, text);
    const query = folder ? "action=findIcon&type=folder" : `action=findIcon&extension=${encodeURIComponent(extension)}`;
    const answer = answerOf(site, query);
    let chosen: string | null = null;
    if (answer.status === 200 && answer.body !== "") {
      const body = JSON.parse(answer.body) as { icon: { filename: string } };
      chosen = body.icon.filename;
      const what = folder ? "A folder" : `${esc(text)} (extension <code>${esc(extension)}</code>)`;
      answerBox.innerHTML = `<img src="icons/${esc(encodeURIComponent(chosen))}" alt="${esc(chosen)}"> `
        + `<span>${what} gets <strong id="find-icon" data-icon="${esc(chosen)}">${esc(chosen)}</strong> `
        + `(<a href="${esc(`api.php?${query}`)}">findIcon</a>).</span>`;
    } else {
      answerBox.innerHTML = `<span>findIcon answers ${answer.status} for <code>${esc(extension)}</code> (<a href="${esc(`api.php?${query}`)}">findIcon</a>).</span>`;
    }
    const needle = text.toLowerCase();
    const matches: IconEntry[] = [];
    const first = chosen === null ? undefined : byName.get(chosen);
    if (first !== undefined) matches.push(icons[first]!);
    for (let i = 0; i < icons.length; i++) if (i !== first && haystacks[i]!.includes(needle)) matches.push(icons[i]!);
    summary.textContent = `${matches.length} of ${icons.length} icons match “${text}”${first !== undefined ? `; ${chosen} (findIcon's answer) comes first` : ""}.`;
    list.show(matches, chosen);
  };
  input.addEventListener("input", find);
  byId("find-form").addEventListener("submit", (event) => { event.preventDefault(); find(); });

  const previewInput = byId<HTMLInputElement>("preview-input");
  const status = byId("preview-status");
  const output = byId("preview-output");
  const preview = (): void => {
    // A whole URL, "/api.php?…", "?…" or the bare query: what follows the "?".
    const raw = previewInput.value.trim();
    const q = raw.includes("?") ? raw.slice(raw.indexOf("?") + 1) : raw;
    const answer = answerOf(site, q.split("#")[0]!);
    status.innerHTML = `Status ${answer.status}${answer.body === "" ? ", empty body" : ""}. `
      + `<a id="preview-live" href="${esc(`api.php${q === "" ? "" : `?${q}`}`)}">Open the live answer</a> `
      + `(<a href="${esc(`${site.baseUrl}/api.php${q === "" ? "" : `?${q}`}`)}">at ${esc(site.baseUrl)}</a>)`;
    output.textContent = answer.body;
  };
  previewInput.addEventListener("input", preview);
  byId("preview-form").addEventListener("submit", (event) => { event.preventDefault(); preview(); });

  byId("find").hidden = false;
  byId("preview").hidden = false;
  list.show(icons, null);
  preview();
  document.documentElement.dataset.ready = "true";
}

main().catch((error: unknown) => {
  // The static lists stay; the reason is shown, not thrown at the console.
  const box = document.getElementById("find-answer");
  document.documentElement.dataset.ready = "failed";
  if (box !== null) {
    box.textContent = `The search could not load: ${error instanceof Error ? error.message : String(error)}.`;
    byId("find").hidden = false;
  }
});
