// bench/edge-hosts.mjs
// `npm run bench:edge`: what each edge host deploys for the request-time handler, per site: bytes and gzip bytes of
// the Netlify edge function (.netlify/v1/edge-functions, limit 20 MB compressed), the Vercel edge function
// (.vercel/output/functions/api.php.func, limit by plan: 1-4 MB compressed on Hobby/Pro) and Cloudflare's _worker.js
// (limit 3 MB compressed on Free, 10 MB on paid), at the demo, both real fixtures (when ../shared is present) and
// synthetic ×1 and ×100 (bench/generate-content.mjs). Writes bench/results/edge-hosts.{md,json} and prints the table.
//
// Usage: node bench/edge-hosts.mjs [--scales 1,100] [--fixtures <dir>]   (run `npm run build` first: it runs the
// built CLI)

import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { cachedContent } from "./generate-content.mjs";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BIN = path.join(REPO, "bin/build-index-site.js");
const args0 = process.argv.slice(2);
const fixturesAt = args0.indexOf("--fixtures");
/** The real fixtures: ../shared/fixtures from a checkout, or --fixtures <dir>. */
const FIXTURES = fixturesAt === -1 ? path.resolve(REPO, "../shared/fixtures") : path.resolve(args0[fixturesAt + 1]);
const RESULTS = path.join(REPO, "bench/results");
const args = process.argv.slice(2);
const at = args.indexOf("--scales");
const SCALES = (at === -1 ? "1,100" : args[at + 1]).split(",").map(Number);

/** Every file under a folder (or the file itself): total bytes and bytes after gzip -9 of each file. */
async function sizeOf(target) {
  const s = await stat(target).catch(() => null);
  if (s === null) return null;
  const files = s.isDirectory()
    ? (await readdir(target, { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile())
        .map((e) => path.join(e.parentPath, e.name))
    : [target];
  let bytes = 0;
  let gzip = 0;
  for (const f of files) {
    const data = await readFile(f);
    bytes += data.length;
    gzip += gzipSync(data, { level: 9 }).length;
  }
  return { bytes, gzip };
}

const HOSTS = [
  ["netlify", (base) => path.join(base, ".netlify/v1/edge-functions")],
  ["vercel", (base) => path.join(base, ".vercel/output/functions/api.php.func")],
  ["cloudflare", (base) => path.join(base, ".build-index-site/dist/hosts/cloudflare/worker/index.js")],
];

async function measure(name, content) {
  const base = await mkdtemp(path.join(os.tmpdir(), "bis-edge-bench-"));
  try {
    const started = performance.now();
    const run = spawnSync(
      process.execPath,
      [
        BIN,
        "build",
        "--content",
        content,
        "--out",
        path.join(base, "dist"),
        "--hosts",
        HOSTS.map(([h]) => h).join(","),
        "--force",
      ],
      { encoding: "utf8", env: { ...process.env, SOURCE_DATE_EPOCH: "1735689600" } },
    );
    const buildS = (performance.now() - started) / 1000;
    if (run.status !== 0) return { name, error: (run.stderr || run.stdout).trim().split("\n").slice(0, 3).join(" ") };
    const row = { name, buildS: Math.round(buildS * 10) / 10, hosts: {} };
    for (const [host, where] of HOSTS) row.hosts[host] = await sizeOf(where(base));
    return row;
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

const kb = (n) =>
  n === undefined ? "–" : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(2)} MB`;

async function main() {
  const sites = [["demo", path.join(REPO, "content")]];
  for (const f of ["indexer-1.1.15", "indexer-1.2.0-r2"]) {
    if (existsSync(path.join(FIXTURES, f, "manifest.json"))) sites.push([f, path.join(FIXTURES, f)]);
    else process.stderr.write(`${f}: skipped (${FIXTURES} is not present)\n`);
  }
  for (const scale of SCALES) sites.push([`synthetic-x${scale}`, await cachedContent(scale)]);
  const rows = [];
  for (const [name, content] of sites) {
    process.stderr.write(`${name} …\n`);
    rows.push(await measure(name, content));
  }
  const lines = [
    "# Edge hosts: deployed handler size per site",
    "",
    `${new Date().toISOString()}, Node ${process.version}. Bytes as written / gzip -9 per file (hosts limit compressed size).`,
    "",
    "| site | build | Netlify edge function | Vercel edge function | Cloudflare Worker |",
    "|---|---|---|---|---|",
    ...rows.map((r) =>
      r.error
        ? `| ${r.name} | failed: ${r.error} | | | |`
        : `| ${r.name} | ${r.buildS} s | ${HOSTS.map(([h]) => (r.hosts[h] ? `${kb(r.hosts[h].bytes)} / ${kb(r.hosts[h].gzip)}` : "not written")).join(" | ")} |`,
    ),
    "",
  ];
  await mkdir(RESULTS, { recursive: true });
  await writeFile(path.join(RESULTS, "edge-hosts.md"), lines.join("\n"));
  await writeFile(path.join(RESULTS, "edge-hosts.json"), `${JSON.stringify(rows, null, 2)}\n`);
  process.stdout.write(lines.join("\n"));
}

await main();
