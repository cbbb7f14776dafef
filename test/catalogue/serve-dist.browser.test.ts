// test/catalogue/serve-dist.browser.test.ts
// The catalogue served by `npx serve dist` (the real `serve` package), which does not route /api.php: its API links
// open the page's answer preview with their query, with a note saying why, where serve would show its 404 page. Served
// by `build-index-site preview`, which routes it, a link still opens the live answer. The answers expected are the
// request-time handler's (the edge preview), never the catalogue's own. Needs `npm run build` (lib/catalogue).

import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { build } from "../../src/pipeline/pipeline.js";
import { startPreview, type Preview } from "../../src/preview/server.js";
import { CHROMIUM, skipReason } from "../helpers/needs.js";
import type { RunningServer } from "../hosts/servers.js";
import { startServe } from "../hosts/serve-static.js";

const CONTENT = path.resolve(import.meta.dirname, "../../content");
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"];
const reason = skipReason("chromium");
const FIND_ICON = 'a[href^="api.php?action=findIcon"]';

const withoutTimestamps = (text: string): string => text.replace(/"timestamp":"[^"]*"/g, '"timestamp":"…"');

describe.skipIf(reason !== undefined)("the catalogue's API links on a server that does not route /api.php", () => {
  let browser: Browser;
  let dir: string;
  let serve: RunningServer;
  let edge: Preview;

  beforeAll(async () => {
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    dir = await mkdtemp(path.join(os.tmpdir(), "bis-serve-dist-"));
    await build({ content: CONTENT, out: path.join(dir, "dist"), hosts: ["nginx", "cloudflare"] });
    serve = await startServe(path.join(dir, "dist"));
    edge = await startPreview({ dir: path.join(dir, "dist"), port: 0, host: "127.0.0.1", edge: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    await edge?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  const ready = async (url: string): Promise<Page> => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(url);
    await page.waitForSelector("html[data-ready=true]");
    return page;
  };

  it("serve answers /api.php with its own 404 page", async () => {
    const response = await fetch(`${serve.url}api.php?action=info`);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/text\/html/);
  });

  it("a link opens the answer preview with its query, answered as the API, and says why", async () => {
    const page = await ready(serve.url);
    const href = (await page.getAttribute(FIND_ICON, "href"))!;
    const query = href.slice(href.indexOf("?") + 1);
    await page.click(FIND_ICON);
    await page.waitForSelector("#preview-note", { timeout: 10_000 });
    expect(new URL(page.url()).pathname).toBe("/");
    expect(await page.textContent("#preview-note")).toContain("does not route /api.php");
    expect(await page.inputValue("#preview-input")).toBe(query);
    const live = await fetch(`${edge.url}api.php?${query}`);
    expect(live.status).toBe(200);
    expect(withoutTimestamps((await page.textContent("#preview-output")) ?? "")).toBe(
      withoutTimestamps(await live.text()),
    );
    // The endpoints' list, a link without a query, too.
    await page.click('#api a[href="api.php"]');
    await page.waitForFunction(() => (globalThis as any).document.querySelector("#preview-input").value === ""); // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(withoutTimestamps((await page.textContent("#preview-output")) ?? "")).toBe(
      withoutTimestamps(await (await fetch(`${edge.url}api.php`)).text()),
    );
    await page.close();
  });

  it("where /api.php is routed (the preview), a link opens the live answer", async () => {
    const page = await ready(edge.url);
    const href = (await page.getAttribute(FIND_ICON, "href"))!;
    await Promise.all([page.waitForURL(/api\.php\?/), page.click(FIND_ICON)]);
    expect(page.url()).toBe(new URL(href, edge.url).href);
    expect(JSON.parse((await page.textContent("body")) ?? "")).toMatchObject({ success: true });
    await page.close();
  });
});
