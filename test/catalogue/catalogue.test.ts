// test/catalogue/catalogue.test.ts
// The catalogue in the build: written by default (index.html, catalogue/), left out by --no-catalogue, and replaced,
// with a warning, by the content's own index.html. Expected values come from the content folder. Needs `npm run build`.

import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../../src/build.js";
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
    for (const f of ["index.html", "catalogue/catalogue.js", "catalogue/catalogue.css", "catalogue/site.json", "catalogue/icons.json"]) {
      expect(files.has(f), f).toBe(true);
    }
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
    expect(result.diagnostics.filter((d) => d.code === "CATALOGUE_REPLACED").map((d) => d.severity)).toEqual(["warning"]);
    await expect(build({ content, out: path.join(tmp, "d", "dist"), hosts: ["nginx"], strict: true })).rejects.toThrow();
  });
});
