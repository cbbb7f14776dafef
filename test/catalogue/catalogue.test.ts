// test/catalogue/catalogue.test.ts
// The catalogue in the build: written by default (index.html, catalogue/), left out by --no-catalogue, and replaced,
// with a warning, by the content's own index.html. Expected values come from the content folder. Needs `npm run build`.

import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { readBuild } from "../../src/layout/read-build.js";

const CONTENT = path.resolve(import.meta.dirname, "../../content");
const tmp = mkdtempSync(path.join(os.tmpdir(), "bis-catalogue-build-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const icons = readdirSync(path.join(CONTENT, "icons")).filter((n) => /\.(png|jpe?g|gif|svg|webp)$/i.test(n));
const iconMap = JSON.parse(readFileSync(path.join(CONTENT, "icons.json"), "utf8")) as Record<string, string>;

describe("the catalogue in the build", () => {
  it("is written by default: every icon on the root page, every mapping on its pages, in the site's manifest", async () => {
    const out = path.join(tmp, "a", "dist");
    const result = await build({ content: CONTENT, out, hosts: ["nginx"] });
    const html = readFileSync(path.join(out, "index.html"), "utf8");
    for (const name of icons) expect(html).toContain(`alt="${name}"`);
    expect(html).toContain(`<strong id="icon-count">${icons.length}</strong>`);
    expect(html).not.toMatch(/<script>|<style>|style="/); // nothing inline: the CSP allows none
    const mappings = readFileSync(path.join(out, "catalogue/mappings-1.html"), "utf8");
    for (const key of Object.keys(iconMap)) expect(mappings).toContain(`>${key}</a>`);
    const files = await (await readBuild(out)).siteFiles();
    // The catalogue's own files, every one in the site's manifest: the script, the style, the per-icon list the first
    // screen is drawn from, and the site data the search and the preview answer from.
    const own = ["catalogue/catalogue.css", "catalogue/catalogue.js", "catalogue/list.json", "catalogue/site.json"];
    expect(
      [...files.keys()]
        .filter((f) => f.startsWith("catalogue/") && !/^catalogue\/(icons|mappings)-\d+\.html$/.test(f))
        .sort(),
    ).toEqual(own);
    expect(
      readdirSync(path.join(out, "catalogue"))
        .filter((f) => !f.endsWith(".html"))
        .sort(),
    ).toEqual(own.map((f) => f.slice("catalogue/".length)));
    expect(files.has("index.html")).toBe(true);
    // The list: one entry per image file of icons/, in byte order, with its size and every icons.json key naming it.
    type List = { format: number; count: number; names: string[]; sizes: number[]; keys: string[] };
    const list = JSON.parse(readFileSync(path.join(out, "catalogue/list.json"), "utf8")) as List;
    const sorted = [...icons].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect(list.format).toBe(1);
    expect(list.count).toBe(icons.length);
    expect(list.names).toEqual(sorted);
    expect(list.sizes).toEqual(sorted.map((name) => statSync(path.join(CONTENT, "icons", name)).size));
    expect(list.keys).toEqual(
      sorted.map((name) =>
        Object.keys(iconMap)
          .filter((k) => iconMap[k] === name)
          .join("\n"),
      ),
    );
    // Its head is in the root page, a data block the script reads without a request (never run: type application/json).
    const block = /<script type="application\/json" id="list-head">([^<]*)<\/script>/.exec(html);
    expect(block).not.toBeNull();
    expect(JSON.parse(block![1]!)).toEqual(list); // the demo content has fewer icons than the head holds
    expect(result.diagnostics.filter((d) => d.code === "CATALOGUE_REPLACED")).toEqual([]);
  });

  it("is left out by --no-catalogue", async () => {
    const out = path.join(tmp, "b", "dist");
    await build({ content: CONTENT, out, hosts: ["nginx"], catalogue: false });
    expect(existsSync(path.join(out, "index.html"))).toBe(false);
    expect(existsSync(path.join(out, "catalogue"))).toBe(false);
  });

  it("gives way to the content's own index.html, with a warning (an error under --strict)", async () => {
    const content = path.join(tmp, "content-with-page");
    cpSync(CONTENT, content, { recursive: true });
    writeFileSync(path.join(content, "index.html"), "<!doctype html><title>Ours</title>\n");
    const out = path.join(tmp, "c", "dist");
    const result = await build({ content, out, hosts: ["nginx"] });
    expect(readFileSync(path.join(out, "index.html"), "utf8")).toBe("<!doctype html><title>Ours</title>\n");
    expect(existsSync(path.join(out, "catalogue"))).toBe(false);
    expect(result.diagnostics.filter((d) => d.code === "CATALOGUE_REPLACED").map((d) => d.severity)).toEqual([
      "warning",
    ]);
    await expect(
      build({ content, out: path.join(tmp, "d", "dist"), hosts: ["nginx"], strict: true }),
    ).rejects.toThrow();
  });
});
