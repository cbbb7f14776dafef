// bench/verify-nginx.mjs
// `verify` against nginx with the emitted configs (root = hosts/nginx/root, hosts/nginx/*.conf included; one worker, access log
// off), run as the CLI in a child process of its own: its time (the report's, without Node's start-up) and its peak
// RSS (the child's own, from process.resourceUsage at exit).
// - default: the real fixture's whole domain (../shared/fixtures/indexer-1.2.0-r2). Target: under 3 s on 2 cores.
// - --scale N --sample S: the synthetic generator's content at ×N (bench/generate-content.mjs, cached), a sample of S
//   requests. Target: ×100 with --sample 20000, peak RSS under 200 MB.
// Prints one line per run. Needs `npm run build`, nginx, and ../shared for the default.
//
//   node bench/verify-nginx.mjs [--runs 3] [--concurrency 8] [--scale 100 --sample 20000]

import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, waitForPort } from "./ports.mjs";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BIN = path.join(repo, "bin/build-index-site.js");
const NGINX = "/usr/sbin/nginx";
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const scale = arg("--scale", undefined);
const sampleSize = arg("--sample", undefined);
const runs = arg("--runs", scale === undefined ? 3 : 1);
const concurrency = arg("--concurrency", 8);
const fixture = path.resolve(repo, "../shared/fixtures/indexer-1.2.0-r2");
const needs = [
  [NGINX, "nginx is not installed"],
  [path.join(repo, "lib/verify/run.js"), "run npm run build first"],
];
if (scale === undefined) needs.push([fixture, "../shared/fixtures is not there"]);
for (const [need, why] of needs) {
  if (!existsSync(need)) {
    console.log(`verify-nginx: skipped (${why}).`);
    process.exit(0);
  }
}
const content = scale === undefined ? fixture : await (await import("./generate-content.mjs")).cachedContent(scale);
const name =
  scale === undefined
    ? "real fixture, whole domain"
    : `×${scale}${sampleSize === undefined ? "" : `, --sample ${sampleSize}`}`;
const { layoutOf } = await import(path.join(repo, "lib/layout/paths.js"));

/** Reports the child's peak RSS (KB on Linux) on stderr as it exits. */
const RSS_HOOK = `data:text/javascript,${encodeURIComponent(
  'process.on("exit", () => process.stderr.write(`\\nbench-maxrss ${process.resourceUsage().maxRSS}\\n`));',
)}`;

const work = await mkdtemp(path.join(os.tmpdir(), "bis-bench-verify-"));
await chmod(work, 0o755);
const out = path.join(work, "dist");
let nginx;
try {
  // The build in a process of its own, as the CLI runs it (not counted in verify's RSS).
  const built = performance.now();
  execFileSync(
    process.execPath,
    [BIN, "build", "--content", content, "--out", out, "--hosts", "nginx,cloudflare", "--quiet"],
    { stdio: "inherit" },
  );
  console.log(`verify-nginx (${name}): built in ${((performance.now() - built) / 1000).toFixed(1)} s`);
  const port = await freePort();
  const dir = path.join(work, "nginx");
  await mkdir(dir);
  const hosts = layoutOf(out).host("nginx");
  await writeFile(
    path.join(dir, "nginx.conf"),
    [
      "worker_processes 1;",
      "daemon off;",
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log warn;`,
      "events { worker_connections 1024; }",
      "http {",
      "  access_log off;",
      `  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi;`,
      `  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;`,
      "  include /etc/nginx/mime.types;",
      `  include ${hosts}/nginx-http.conf;`,
      "  server {",
      `    listen 127.0.0.1:${port};`,
      `    root ${hosts}/root;`,
      `    include ${hosts}/nginx.conf;`,
      "  }",
      "}",
      "",
    ].join("\n"),
  );
  const test = spawnSync(NGINX, ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-t"], { encoding: "utf8" });
  if (test.status !== 0) throw new Error(test.stderr);
  nginx = spawn(NGINX, ["-p", dir, "-c", path.join(dir, "nginx.conf")], { stdio: "ignore" });
  await waitForPort(port, nginx, "nginx");
  for (let run = 1; run <= runs; run += 1) {
    const args = [
      "--import",
      RSS_HOOK,
      BIN,
      "verify",
      `http://127.0.0.1:${port}/`,
      "--dir",
      out,
      "--json",
      "--concurrency",
      String(concurrency),
      ...(sampleSize === undefined ? [] : ["--sample", String(sampleSize)]),
    ];
    const started = performance.now();
    const child = spawnSync(process.execPath, args, { encoding: "utf8", maxBuffer: 512 * 1024 * 1024 });
    const wall = performance.now() - started;
    const rss = Number(/bench-maxrss (\d+)/.exec(child.stderr)?.[1] ?? NaN) / 1024;
    let report;
    try {
      report = JSON.parse(child.stdout);
    } catch {
      throw new Error(`verify exited ${child.status} without a report:\n${child.stderr}`);
    }
    console.log(
      `verify-nginx (${name}) run ${run}: ${report.checked} requests in ${(report.ms / 1000).toFixed(2)} s ` +
        `(process ${(wall / 1000).toFixed(2)} s; exit ${child.status}, ${report.differences.length} differences), peak RSS ${rss.toFixed(0)} MB`,
    );
  }
} finally {
  if (nginx !== undefined && nginx.exitCode === null) {
    await new Promise((resolve) => {
      nginx.once("exit", resolve);
      nginx.kill("SIGTERM");
    });
  }
  await rm(work, { recursive: true, force: true });
}
