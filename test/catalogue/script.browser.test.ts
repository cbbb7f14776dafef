// test/catalogue/script.browser.test.ts
// The catalogue in a real browser: Debian's chromium driven by playwright-core (nothing is downloaded). The expected
// values come from the content's own files (icons.json, icons/) and from the preview's /api.php, never from the
// catalogue's code. Needs `npm run build` (the script bundle in lib/catalogue). Skipped outside CI without chromium.

import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { build } from "../../src/pipeline/pipeline.js";
import { startPreview, type Preview } from "../../src/preview/server.js";
import { CHROMIUM, skipReason } from "../helpers/needs.js";
import { requireRuntime } from "../runtimes/locate.mjs";
// @ts-expect-error: a plain ES module of the bench, without types
import { generateContent } from "../../bench/generate-content.mjs";

const REPO = path.resolve(import.meta.dirname, "../..");
const CONTENT = path.join(REPO, "content");
const OUTPUT = path.join(REPO, "test-results");
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

const reason = skipReason("chromium") ?? skipReason("playwright");
if (reason !== undefined) process.stdout.write(`${reason}\n`);

/** The image files directly in a content's icons/ (what the icons action lists), read from the folder itself. */
function contentIcons(content: string): string[] {
  const dir = path.join(content, "icons");
  return readdirSync(dir)
    .filter((name) => /\.(png|jpe?g|gif|svg|webp)$/i.test(name) && statSync(path.join(dir, name)).isFile())
    .sort();
}

/** The icon findIcon answers for an extension, from icons.json and icons/ alone: the mapped file if it exists, else text.png. */
function expectedIcon(content: string, extension: string): string {
  const map = JSON.parse(readFileSync(path.join(content, "icons.json"), "utf8")) as Record<string, string>;
  const mapped = Object.hasOwn(map, extension.toLowerCase()) ? map[extension.toLowerCase()] : undefined;
  return mapped !== undefined && existsSync(path.join(content, "icons", mapped)) ? mapped : "text.png";
}

const withoutTimestamps = (text: string): string => text.replace(/"timestamp":"[^"]*"/g, '"timestamp":"…"');

/** A built site, served by both previews: static semantics (the route table) and edge semantics (the handler). */
interface Site {
  dir: string;
  preview: Preview;
  edge: Preview;
}

async function serve(content: string): Promise<Site> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "bis-catalogue-"));
  await build({ content, out: path.join(dir, "dist"), hosts: ["nginx", "cloudflare"], nowMs: Date.UTC(2025, 0, 1) });
  const preview = await startPreview({ dir: path.join(dir, "dist"), port: 0, host: "127.0.0.1" });
  const edge = await startPreview({ dir: path.join(dir, "dist"), port: 0, host: "127.0.0.1", edge: true });
  return { dir, preview, edge };
}

/**
 * Every console error, uncaught exception, failed request and error status of a page, as lines. A request the browser
 * itself cancels (net::ERR_ABORTED: the test navigated on while a lazy image or the favicon was still loading) is not
 * the site's failure; one the server fails shows as an error status or another network error.
 */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`exception: ${e.message}`));
  page.on("requestfailed", (r) => {
    const reason = r.failure()?.errorText ?? "";
    if (reason !== "net::ERR_ABORTED") problems.push(`failed: ${r.url()} ${reason}`);
  });
  page.on("response", (r) => {
    if (r.status() >= 400) problems.push(`status ${r.status()}: ${r.url()}`);
  });
  return problems;
}

describe.skipIf(reason !== undefined)("the catalogue in chromium", () => {
  let browser: Browser;
  let site: Site;
  let big: Site;
  let bigContent: string;

  beforeAll(async () => {
    const { chromium } = requireRuntime("playwright-core") as typeof import("playwright-core");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    site = await serve(CONTENT);
    // More than one page of icons and of mappings (1,000 each): synthetic content at scale 3 (~1,470 icons).
    bigContent = await mkdtemp(path.join(os.tmpdir(), "bis-catalogue-content-"));
    await generateContent(bigContent, 3);
    big = await serve(bigContent);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    for (const s of [site, big]) {
      await s?.preview.close();
      await s?.edge.close();
      if (s !== undefined) await rm(s.dir, { recursive: true, force: true });
    }
    if (bigContent !== undefined) await rm(bigContent, { recursive: true, force: true });
  });

  it("loads without errors, shows every icon's count, decodes the first screen, and answers as the API", async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const problems = watch(page);
    const response = await page.goto(site.preview.url);
    expect(response?.status()).toBe(200);
    expect(response?.headers()["content-security-policy"]).toMatch(/script-src 'self'/);
    await page.waitForSelector("html[data-ready=true]");

    // The count shown is the number of image files in content/icons.
    expect(Number(await page.textContent("#icon-count"))).toBe(contentIcons(CONTENT).length);

    // Every image on the first screen decodes.
    const firstScreen = await page.evaluate(async () => {
      // (The test is type-checked without the DOM library: the page's globals through `any`.)
      const w = globalThis as any; // eslint-disable-line @typescript-eslint/no-explicit-any
      const images = [...(w.document.images as any[])].filter((img) => {
        const r = img.getBoundingClientRect();
        return r.bottom > 0 && r.top < w.innerHeight && r.width > 0;
      });
      await Promise.all(images.map((img) => img.decode().catch(() => undefined)));
      return images.map((img) => ({ src: img.src as string, width: img.naturalWidth as number }));
    });
    expect(firstScreen.length).toBeGreaterThan(0);
    for (const img of firstScreen) expect(img, img.src).toMatchObject({ width: expect.any(Number) as number });
    expect(firstScreen.filter((img) => img.width === 0)).toEqual([]);

    // Searching php shows the icon findIcon&extension=php returns; the list shows it first.
    await page.fill("#find-input", "php");
    const php = expectedIcon(CONTENT, "php");
    expect(await page.getAttribute("#find-icon", "data-icon")).toBe(php);
    expect(await page.getAttribute("#icon-view .row >> nth=0", "data-icon")).toBe(php);
    // An unmapped extension gets the default icon, as the API answers.
    await page.fill("#find-input", "notes.zzqx");
    expect(expectedIcon(CONTENT, "zzqx")).toBe("text.png");
    expect(await page.getAttribute("#find-icon", "data-icon")).toBe("text.png");
    const apiPhp = (await (await fetch(`${site.preview.url}api.php?action=findIcon&extension=php`)).json()) as {
      icon: { filename: string };
    };
    expect(apiPhp.icon.filename).toBe(php);

    // The answer preview shows exactly what /api.php answers, for queries over every action: the edge preview (the
    // request-time handler) for every query; the static preview (the route table) too, except where a static host can
    // only give a fallback (docs/behaviour.md "outside it"): a version outside the manifest is echoed as "", and a name
    // that is neither a file of icons/ nor an icon name gets 404 where the reference says 400 (Invalid icon file type),
    // an unmapped extension is echoed as "".
    const queries = [
      "",
      "action=nothing",
      "action=versionCheck&current_version=1.0",
      "action=versionCheck&current_version=9.9.9",
      "action=versionCheck",
      "action=config",
      "action=icons",
      "action=icon&name=php.png",
      "action=icon&name=nope.png",
      "action=icon&name=readme.txt",
      "action=icon",
      "action=findIcon&type=file&extension=tsx",
      "action=findIcon&extension=PHP",
      "action=findIcon&type=folder",
      "action=findIcon",
      "action=iconMappings",
      "action=extensionMappings",
      "action=extensionMappings&type=viewing",
      "action=extensionMappings&type=indexing",
      "action=getExtensionSetting&extension=php&type=viewing",
      "action=getExtensionSetting&extension=js",
      "action=getExtensionSetting",
      "action=configReference",
      "action=status",
      "action[]=icons",
      "action=findIcon&extension=%E2%82%AC",
    ];
    const staticFallbacks = new Set([
      "action=versionCheck&current_version=9.9.9",
      "action=icon&name=readme.txt",
      "action=findIcon&type=file&extension=tsx",
      "action=findIcon&extension=%E2%82%AC",
    ]);
    for (const q of queries) {
      await page.fill("#preview-input", q);
      const shown = withoutTimestamps((await page.textContent("#preview-output")) ?? "");
      const status = await page.textContent("#preview-status");
      for (const [name, server] of [
        ["edge", site.edge],
        ["static", site.preview],
      ] as const) {
        if (name === "static" && staticFallbacks.has(q)) continue;
        const live = await fetch(`${server.url}api.php${q === "" ? "" : `?${q}`}`);
        expect(shown, `${name} ${q}`).toBe(withoutTimestamps(await live.text()));
        expect(status, `${name} ${q}`).toContain(`Status ${live.status}`);
      }
      expect(await page.getAttribute("#preview-live", "href"), q).toBe(`api.php${q === "" ? "" : `?${q}`}`);
    }

    await page.fill("#preview-input", "action=findIcon&type=file&extension=php");
    await page.fill("#find-input", "js");
    await page.evaluate(() => (globalThis as any).scrollTo(0, 0)); // eslint-disable-line @typescript-eslint/no-explicit-any
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: path.join(OUTPUT, "catalogue.png"), fullPage: false });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("keeps only the rows on screen in the DOM (×3 content: ~1,470 icons)", async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const problems = watch(page);
    await page.goto(big.preview.url);
    await page.waitForSelector("html[data-ready=true]");
    const icons = contentIcons(bigContent);
    expect(Number(await page.textContent("#icon-count"))).toBe(icons.length);
    const rows = await page.locator("#icon-view .row").count();
    expect(rows).toBeGreaterThan(5);
    expect(rows).toBeLessThan(60);
    // Scrolled to the end, the last icon is on screen.
    await page.locator("#icon-view").evaluate((v) => {
      v.scrollTop = v.scrollHeight;
    });
    await page.locator(`#icon-view .row[data-icon="${[...icons].sort(byBytes).at(-1)}"]`).waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });

  it("draws the first screen before its data files are read: the list's head is in the page (×3 content)", async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const problems = watch(page);
    // Hold back the per-icon list and the site data until the first screen has been checked.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const asked: string[] = [];
    await page.route(/\/catalogue\/(list|site)\.json$/, async (route) => {
      asked.push(new URL(route.request().url()).pathname);
      await held;
      await route.continue();
    });
    await page.goto(big.preview.url);
    await page.waitForSelector("html[data-list=true]");
    const icons = [...contentIcons(bigContent)].sort(byBytes);
    const shown = await page
      .locator("#icon-view .row")
      .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-icon")));
    expect(shown.length).toBeGreaterThan(5);
    expect(shown).toEqual(icons.slice(0, shown.length)); // real rows, not placeholders: the first icons in order
    expect(await page.getAttribute("#icon-view", "aria-rowcount")).toBe(String(icons.length));
    expect(await page.getAttribute("html", "data-ready")).toBeNull();
    // A search typed now waits for the data, then answers as the API does.
    await page.fill("#find-input", "php");
    release();
    await page.waitForSelector("html[data-ready=true]");
    expect(await page.getAttribute("#find-icon", "data-icon")).toBe(expectedIcon(bigContent, "php"));
    expect(asked.sort()).toEqual(["/catalogue/list.json", "/catalogue/site.json"]); // each once (the preload is used)
    await page.unrouteAll();
    expect(problems).toEqual([]);
    await page.close();
  });

  it("when the list cannot be read, the static first page comes back whole (×3 content)", async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const problems = watch(page);
    await page.route(/\/catalogue\/list\.json$/, (route) => route.fulfill({ status: 404, body: "gone" }));
    await page.goto(big.preview.url);
    await page.waitForSelector("html[data-ready=failed]");
    // The first 1,000 icons as the static page has them (those past the first screen were in <noscript>), and why.
    const icons = [...contentIcons(bigContent)].sort(byBytes);
    const shown = await page.locator(".rows.icons img").evaluateAll((imgs) => imgs.map((i) => i.getAttribute("alt")));
    expect(shown).toEqual(icons.slice(0, 1000));
    expect(await page.locator("#icon-view").count()).toBe(0);
    expect(await page.textContent("#find-answer")).toContain("could not load");
    // The 404 itself is the only problem (its status line, and the console's "Failed to load resource" for it).
    expect(problems.filter((p) => !p.includes("/catalogue/list.json") && !p.includes("status of 404"))).toEqual([]);
    await page.close();
  });

  it("without JavaScript, lists every icon and every mapping across its static pages", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const problems = watch(page);
    const crawl = async (start: string, selector: string): Promise<string[]> => {
      const seen: string[] = [];
      const queue = [start];
      const visited = new Set<string>();
      while (queue.length > 0) {
        const url = queue.shift()!.replace(/\/index\.html$/, "/");
        if (visited.has(url)) continue;
        visited.add(url);
        await page.goto(url);
        seen.push(
          ...(await page
            .locator(selector)
            .evaluateAll((els) => els.map((e) => e.getAttribute("alt") ?? e.textContent ?? ""))),
        );
        const next = await page
          .locator("nav.pager a")
          .evaluateAll((links) => links.map((a) => (a as unknown as { href: string }).href));
        queue.push(...next);
      }
      return seen;
    };
    // The search and the preview need the script: hidden without it.
    await page.goto(big.preview.url);
    expect(await page.isVisible("#find")).toBe(false);
    const icons = await crawl(big.preview.url, ".rows.icons img");
    expect(icons.length).toBe(contentIcons(bigContent).length);
    expect([...icons].sort()).toEqual(contentIcons(bigContent));
    const map = JSON.parse(readFileSync(path.join(bigContent, "icons.json"), "utf8")) as Record<string, string>;
    expect(Object.keys(map).length).toBeGreaterThan(1000);
    await page.goto(big.preview.url);
    const mappingsStart = await page
      .locator("#mappings a")
      .first()
      .evaluate((a) => (a as unknown as { href: string }).href);
    const keys = await crawl(mappingsStart, ".rows.mappings .key");
    expect([...keys].sort()).toEqual(Object.keys(map).sort());
    expect(problems).toEqual([]);
    await context.close();
  });
});

/** UTF-8 byte order (the icons action's order). */
function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
