// test/layout/link-trees.test.ts
// The hosts' copies of the site in the records (hosts/apache/, hosts/nginx/root/, hosts/netlify/,
// hosts/cloudflare/public/): hard links to --out's
// files that the records' manifest does not list (src/layout/link-trees.ts). The expected trees come from --out as
// it lies on disk and the rules docs/layout.md gives (Apache's and nginx's document roots: the site without the
// handler's data; Netlify's publish folder and Cloudflare's assets: the site without the answers), never from the code
// that plans them.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { rm, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build, buildIfChanged } from "../../src/pipeline/pipeline.js";
import type { BuildOptions } from "../../src/pipeline/options.js";
import { layoutOf } from "../../src/layout/paths.js";
import { copyContent, DEMO_CONTENT, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

/** Every file under dir, relative, "/"-separated, sorted. */
function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join("/"))
    .sort();
}

/** The trees as docs/layout.md gives them, from --out on disk: tree folder → the site paths it links. */
function expectedTrees(out: string): Map<string, string[]> {
  const site = listFiles(out);
  const staticRoot = site.filter((p) => !p.startsWith("_edge-data/"));
  const edgeRoot = site.filter((p) => !p.toLowerCase().startsWith("api/"));
  return new Map([
    ["hosts/apache", staticRoot],
    ["hosts/nginx/root", staticRoot],
    ["hosts/netlify", edgeRoot],
    ["hosts/cloudflare/public", edgeRoot],
  ]);
}

/** Checks each tree: exactly the expected links (each the same file as --out's), plus the host's own files. */
function checkTrees(out: string): void {
  const records = layoutOf(out).records;
  const own: Record<string, string[]> = {
    "hosts/apache": [".htaccess"],
    "hosts/nginx/root": [],
    "hosts/netlify": [],
    "hosts/cloudflare/public": ["404.html", "_headers"],
  };
  for (const [tree, linked] of expectedTrees(out)) {
    expect(listFiles(path.join(records, tree)), tree).toEqual([...linked, ...own[tree]!].sort());
    for (const p of linked)
      expect(statSync(path.join(records, tree, p)).ino, `${tree}/${p}`).toBe(statSync(path.join(out, p)).ino);
  }
}

/** The paths the records' manifest lists. */
const listed = (out: string): string[] =>
  readFileSync(path.join(layoutOf(out).records, ".build-manifest"), "utf8")
    .split("\n")
    .slice(2)
    .filter((l) => l !== "")
    .map((l) => l.split(" ").slice(2).join(" "));

describe("the hosts' copies of the site in the records", () => {
  let options: BuildOptions;

  beforeAll(async () => {
    const content = await copyContent(DEMO_CONTENT);
    const root = await tmpDir("bis-trees-");
    temps.push(content, root);
    options = {
      content,
      out: path.join(root, "dist"),
      sourceDateEpoch: TEST_EPOCH,
      hosts: ["apache", "cloudflare", "nginx", "netlify"],
    };
    await build(options);
  });

  it("hold every file of their host's document root as a link to --out's, and the records' manifest lists none", () => {
    checkTrees(options.out);
    const paths = listed(options.out);
    expect(paths).toContain("hosts/apache/.htaccess");
    expect(paths).toContain("hosts/cloudflare/public/_headers");
    expect(paths).toContain("site.manifest");
    const trees = ["hosts/apache/", "hosts/nginx/root/", "hosts/netlify/", "hosts/cloudflare/public/"];
    const links = paths.filter((p) => trees.some((t) => p.startsWith(t))).sort();
    expect(links).toEqual([
      "hosts/apache/.htaccess",
      "hosts/cloudflare/public/404.html",
      "hosts/cloudflare/public/_headers",
    ]);
  });

  it("follow --out in place: an icon removed takes its links with it, an icon added brings them", async () => {
    const icon = path.join(options.content, "icons/php.png");
    const bytes = readFileSync(icon);
    await unlink(icon);
    const removed = await build(options);
    expect(removed.changes.mode).toBe("in place");
    expect(listFiles(options.out)).not.toContain("icons/php.png");
    checkTrees(options.out);

    await writeFile(path.join(options.content, "icons/zz-new.png"), bytes);
    await writeFile(icon, bytes);
    const added = await build(options);
    expect(added.changes.mode).toBe("in place");
    expect(listFiles(options.out)).toEqual(expect.arrayContaining(["icons/php.png", "icons/zz-new.png"]));
    checkTrees(options.out);
  });

  it("are checked by the up-to-date check: a link removed by hand is put back", async () => {
    await buildIfChanged(options);
    expect("model" in (await buildIfChanged(options))).toBe(false);
    const records = layoutOf(options.out).records;
    await rm(path.join(records, "hosts/apache/icons.json"));
    await rm(path.join(records, "hosts/cloudflare/public/index.html"));
    await rm(path.join(records, "hosts/nginx/root/icons.json"));
    await rm(path.join(records, "hosts/netlify/config.json"));
    expect("model" in (await buildIfChanged(options))).toBe(true);
    checkTrees(options.out);
  });

  it("without the hosts' record that implies them, the next build is written in full", async () => {
    await writeFile(path.join(layoutOf(options.out).records, "hosts.json"), "{}\n");
    await writeFile(
      path.join(options.content, "icons/zz-other.png"),
      readFileSync(path.join(options.content, "icons/php.png")),
    );
    const result = await build(options);
    expect(result.changes.mode).toBe("full");
    checkTrees(options.out);
  });
});
