// bench/host-uploads.mjs
// The hosts at scale (issue 53): Apache's and nginx's request time with the emitted configs, for a plain file and for
// /api.php, at ×1, ×10 and ×100 (synthetic content, default hosts), and each host's upload: its file count against the
// plan rows that limit it (src/hosts/<host>/preset.ts). Target: Apache's median at ×100 within 1.5× of ×1's.
// I/O: builds under $TMPDIR/build-index-site-bench/work/host-uploads/ (removed after each scale), starts apache2 and
// nginx, writes bench/results/host-uploads.{md,json}.
//
// Usage: node bench/host-uploads.mjs [--scales 1,10,100] [--requests 100]

import { readdirSync, statSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { apacheRows, APACHE_PATHS, FIXED_PATHS } from "./apache.mjs";
import { log, round } from "./common.mjs";
import { removeDir } from "./disk.mjs";
import { cachedContent } from "./generate-content.mjs";
import { nginxRequestRows } from "./nginx.mjs";
import { REPO, RESULTS, WORK } from "./paths.mjs";
import { buildCmd } from "./timed-run.mjs";

const { PLAN_LIMITS } = await import(path.join(REPO, "lib/hosts/limits.js"));
const { DEFAULT_HOSTS } = await import(path.join(REPO, "lib/hosts/names.js"));

/** Each host's upload folders, relative to the folder that holds --out (docs/layout.md). */
const UPLOADS = {
  netlify: [".build-index-site/dist/hosts/netlify", ".netlify/v1"],
  vercel: [".vercel/output"],
  cloudflare: [".build-index-site/dist/hosts/cloudflare/public"],
  apache: [".build-index-site/dist/hosts/apache"],
  nginx: [".build-index-site/dist/hosts/nginx/root"],
};

/** Files under dir (recursive), without building a list of them. */
function countFiles(dir) {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) n += countFiles(path.join(dir, e.name));
    else n++;
  }
  return n;
}

/** Each default host's upload: its files, and each plan row that limits its files. */
function uploadRows(base, scale) {
  // --out itself, which Netlify published and nginx served before layout format 3.
  const before = {
    scale,
    host: "dist/ (Netlify's and nginx's upload before)",
    files: countFiles(path.join(base, "dist")),
  };
  return [
    before,
    ...DEFAULT_HOSTS.map((host) => {
      const files = UPLOADS[host].reduce((n, dir) => n + countFiles(path.join(base, dir)), 0);
      const limit = PLAN_LIMITS.find((l) => l.host === host && l.measure === "files");
      const within = limit === undefined ? null : { free: files <= limit.free, paid: files <= limit.paid };
      return { scale, host, files, ...(limit === undefined ? {} : { free: limit.free, paid: limit.paid, within }) };
    }),
  ];
}

async function measureScale(scale, requests) {
  const root = path.join(WORK, "host-uploads", `x${scale}`);
  const out = path.join(root, "dist");
  await removeDir(root);
  await mkdir(root, { recursive: true });
  const content = await cachedContent(scale);
  log(`×${scale}: building (default hosts)…`);
  await buildCmd(content, out);
  try {
    const uploads = uploadRows(root, scale);
    const configBytes = statSync(path.join(out, "config.json")).size;
    for (const u of uploads) log(`  ${u.host}: ${u.files} files in its upload`);
    const apache = await apacheRows({ dir: out, requests, log });
    const nginx = await nginxRequestRows({ dir: out, paths: APACHE_PATHS, requests, work: root, log });
    return { scale, configBytes, uploads, apache, nginx };
  } finally {
    await removeDir(root);
  }
}

const count = (n) => n.toLocaleString("en-US");

function markdown(result) {
  const lines = [
    `# Hosts at scale: Apache and nginx request time, upload sizes (${result.date.slice(0, 16).replace("T", " ")} UTC)`,
    "",
    `\`${result.command}\`; ${result.cpus} CPUs (${result.cpuModel}), load average before ${result.loadBefore.join(", ")}. ${result.apacheNote ?? ""}`,
    "",
    "| scale | server | path | median ms | × the ×1 median |",
    "|---|---|---|---|---|",
  ];
  const first = {};
  for (const s of result.scales) {
    for (const [server, part] of [
      ["Apache", s.apache],
      ["nginx", s.nginx],
    ]) {
      if (part.rows === undefined) {
        lines.push(`| ×${s.scale} | ${server} | (skipped: ${part.skipped}) | | |`);
        continue;
      }
      for (const r of part.rows) {
        const key = `${server} ${r.path}`;
        first[key] ??= r.medianMs;
        const ratio = round(r.medianMs / first[key], 2);
        lines.push(`| ×${s.scale} | ${server} | \`${r.path}\` | ${r.medianMs} | ${ratio}× |`);
      }
    }
  }
  lines.push("", "| scale | host | files uploaded | plan limit (free / paid) | within |", "|---|---|---|---|---|");
  for (const s of result.scales) {
    for (const u of s.uploads) {
      const limit = u.free === undefined ? "no files row" : `${count(u.free)} / ${count(u.paid)}`;
      const within =
        u.within === undefined ? "" : `${u.within.free ? "free" : "not free"}, ${u.within.paid ? "paid" : "not paid"}`;
      lines.push(`| ×${s.scale} | ${u.host} | ${count(u.files)} | ${limit} | ${within} |`);
    }
  }
  const t = result.target;
  if (t !== undefined)
    lines.push(
      "",
      `Target: Apache's median at ×100 within 1.5× of ×1's, for a plain file of the same bytes (${FIXED_PATHS[0]}) and for /api.php: ${t.ratios.join("×, ")}× — ${t.met ? "met" : "**not met**"}. (/config.json grows with the content: ${(result.configBytes ?? []).join(", ")} bytes.)`,
    );
  return `${lines.join("\n")}\n`;
}

async function main() {
  const { values } = parseArgs({
    options: { scales: { type: "string", default: "1,10,100" }, requests: { type: "string", default: "100" } },
    strict: true,
  });
  const scales = values.scales.split(",").map(Number);
  const requests = Number(values.requests);
  if (scales.some((s) => !Number.isInteger(s) || s < 1) || !Number.isInteger(requests) || requests < 1) {
    console.error("Usage: node bench/host-uploads.mjs [--scales 1,10,100] [--requests 100]");
    process.exit(2);
  }
  const result = {
    date: new Date().toISOString(),
    command: `node bench/host-uploads.mjs --scales ${scales.join(",")} --requests ${requests}`,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "?",
    loadBefore: os.loadavg().map((x) => round(x, 2)),
    scales: [],
  };
  for (const scale of scales) result.scales.push(await measureScale(scale, requests));
  result.apacheNote = result.scales.find((s) => s.apache.note)?.apache.note;
  result.configBytes = result.scales.map((s) => `×${s.scale} ${count(s.configBytes)}`);
  const at = (scale) => result.scales.find((s) => s.scale === scale)?.apache.rows;
  if (at(1) !== undefined && at(100) !== undefined) {
    const ratio = (p) =>
      round(at(100).find((r) => r.path === p).medianMs / at(1).find((r) => r.path === p).medianMs, 2);
    const ratios = FIXED_PATHS.map(ratio);
    result.target = { ratios, met: ratios.every((r) => r <= 1.5) };
  }
  result.loadAfter = os.loadavg().map((x) => round(x, 2));
  await mkdir(RESULTS, { recursive: true });
  const md = markdown(result);
  await writeFile(path.join(RESULTS, "host-uploads.json"), `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(path.join(RESULTS, "host-uploads.md"), md);
  process.stdout.write(md);
}

await main();
