// test/hosts/uploads.test.ts
// What each host uploads, for every combination of --hosts that users pick (the default, each host alone, the edge
// hosts alone, the static hosts alone): every file of an upload is one its host serves to clients (the content's
// files, the catalogue, the answer files the host's rules route to, the handler's data its function reads) or reads as
// config, and nothing the host uses is missing. The upload folders and what each host does with a file come from the
// hosts' documented behaviour (docs/layout.md's table; Netlify, Vercel and Cloudflare serve a publish folder's files
// at their paths, Apache and nginx their document root's), not from the code that plans the trees.

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { DEFAULT_HOSTS, type HostName } from "../../src/hosts/names.js";
import { DEMO_CONTENT, REPO, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

const EDGE: readonly HostName[] = ["netlify", "vercel", "cloudflare"];
const STATIC: readonly HostName[] = ["apache", "nginx", "netlify-static", "vercel-static"];
const COMBINATIONS: ReadonlyArray<readonly HostName[]> = [
  DEFAULT_HOSTS,
  ...[...EDGE, ...STATIC].map((h) => [h]),
  EDGE,
  STATIC,
];

interface Upload {
  /** The folder its deploy uploads, relative to the folder that holds --out (docs/layout.md). */
  dir: string;
  /** The sub-folder served at the site's root ("" for the folder itself). */
  served: string;
  /** Files the host reads as config and does not serve (relative to `dir`; a trailing "/" names a folder). */
  config: readonly string[];
  edge: boolean;
}

const records = ".build-index-site/dist";
const UPLOADS: Record<HostName, Upload[]> = {
  netlify: [
    { dir: `${records}/hosts/netlify`, served: "", config: [], edge: true },
    { dir: ".netlify/v1", served: "-", config: ["config.json", "edge-functions/"], edge: true },
  ],
  vercel: [{ dir: ".vercel/output", served: "static", config: ["config.json", "functions/"], edge: true }],
  cloudflare: [
    {
      dir: `${records}/hosts/cloudflare`,
      served: "public",
      // Cloudflare reads _headers; 404.html is the page it serves for a path that is no asset (and at /404.html).
      config: ["wrangler.json", "worker/", "public/_headers"],
      edge: true,
    },
  ],
  apache: [{ dir: `${records}/hosts/apache`, served: "", config: [".htaccess"], edge: false }],
  // nginx reads its two includes (copied with the folder), and serves root/.
  nginx: [{ dir: `${records}/hosts/nginx`, served: "root", config: ["nginx.conf", "nginx-http.conf"], edge: false }],
  "netlify-static": [
    { dir: `${records}/hosts/netlify-static`, served: "", config: ["_redirects", "_headers"], edge: false },
  ],
  "vercel-static": [{ dir: `${records}/hosts/vercel-static`, served: "", config: ["vercel.json"], edge: false }],
};

/** Every file under dir, relative, "/"-separated, sorted; [] when it is not there. */
function listFiles(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join("/"))
    .sort();
}

/** The content's files that the reference serves (its service does not serve manifest.json, the build's input). */
const contentFiles = listFiles(DEMO_CONTENT).filter((p) => p !== "manifest.json");
/** The catalogue's pages (README: dist/index.html and dist/catalogue/). */
const isCatalogue = (p: string): boolean => p === "index.html" || p.startsWith("catalogue/");

/** The answer files the route table routes /api.php to ("{name}" stands for any one path segment's value). */
function routedTargets(base: string): RegExp[] {
  const table = JSON.parse(readFileSync(path.join(base, records, "routes.json"), "utf8")) as {
    rules: Array<{ target: string }>;
  };
  const escape = (s: string): string => s.replace(/[.*+?^$()|[\]\\]/g, "\\$&");
  return [...new Set(table.rules.map((r) => r.target))].map(
    (t) =>
      new RegExp(
        `^${t
          .slice(1)
          .split(/\{[^}]+\}/)
          .map(escape)
          .join("[^/]+")}$`,
      ),
  );
}

/** What in one upload its host does not use, and what it uses that is missing. */
function checkUpload(base: string, upload: Upload): { unused: string[]; missing: string[] } {
  const files = listFiles(path.join(base, upload.dir));
  const isConfig = (p: string): boolean => upload.config.some((c) => (c.endsWith("/") ? p.startsWith(c) : p === c));
  const prefix = upload.served === "" ? "" : `${upload.served}/`;
  const targets = upload.edge ? [] : routedTargets(base);
  const servedFiles = files.filter((p) => !isConfig(p) && p.startsWith(prefix)).map((p) => p.slice(prefix.length));
  const unused = files.filter((p) => !isConfig(p) && !p.startsWith(prefix));
  for (const p of servedFiles) {
    const used =
      contentFiles.includes(p) ||
      isCatalogue(p) ||
      (upload.edge && p.startsWith("_edge-data/")) ||
      (!upload.edge && targets.some((t) => t.test(p))) ||
      (upload.dir.endsWith("cloudflare") && p === "404.html");
    if (!used) unused.push(`${prefix}${p}`);
  }
  const missing = upload.served === "-" ? [] : contentFiles.filter((p) => !servedFiles.includes(p));
  if (upload.served !== "-" && upload.edge && !servedFiles.includes("_edge-data/core.json"))
    missing.push("_edge-data/core.json");
  if (upload.served !== "-" && !upload.edge && !servedFiles.includes("api/config.json"))
    missing.push("api/config.json");
  return { unused, missing };
}

describe("each host's upload holds only what its host serves or reads as config", () => {
  for (const hosts of COMBINATIONS) {
    test(`--hosts ${hosts.join(",")}`, async () => {
      const base = await tmpDir("bis-uploads-");
      temps.push(base);
      await build({
        content: DEMO_CONTENT,
        out: path.join(base, "dist"),
        sourceDateEpoch: TEST_EPOCH,
        hosts: [...hosts],
      });
      const found: Record<string, { unused: string[]; missing: string[] }> = {};
      for (const host of hosts) {
        for (const upload of UPLOADS[host]) {
          const { unused, missing } = checkUpload(base, upload);
          found[upload.dir] = { unused: unused.slice(0, 5), missing: missing.slice(0, 5) };
        }
      }
      const expected = Object.fromEntries(Object.keys(found).map((dir) => [dir, { unused: [], missing: [] }]));
      expect(found).toEqual(expected);
    }, 60_000);
  }
});

/** A markdown table's row whose first cell starts with `first`: its cells. */
function row(file: string, first: string): string[] {
  const line = readFileSync(path.join(REPO, file), "utf8")
    .split("\n")
    .find((l) => l.startsWith(`| ${first}`));
  return line === undefined ? [] : line.split(" | ");
}

describe("the docs name each upload folder this suite checks", () => {
  const README_ROWS: Partial<Record<HostName, string>> = {
    netlify: "Netlify",
    vercel: "Vercel",
    cloudflare: "Cloudflare",
    apache: "Apache",
    nginx: "nginx",
  };
  test.each(Object.keys(UPLOADS) as HostName[])("%s", (host) => {
    for (const { dir } of UPLOADS[host]) {
      expect(row("docs/layout.md", `\`${host}\``)[1], "docs/layout.md").toContain(`\`${dir}/\``);
      const label = README_ROWS[host];
      if (label !== undefined) expect(row("README.md", label)[1], "README.md").toContain(`\`${dir}/\``);
    }
  });
});
