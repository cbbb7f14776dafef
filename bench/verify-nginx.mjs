// bench/verify-nginx.mjs
// `verify` over the real fixture's whole domain (../shared/fixtures/indexer-1.2.0-r2) against nginx with the emitted
// configs (root = dist, hosts/nginx/*.conf included; one worker, access log off). Target: under 3 s on 2 cores.
// Prints one line per run (wall time, requests, peak RSS of this process). Needs `npm run build`, nginx, ../shared.
//
//   node bench/verify-nginx.mjs [--runs 3] [--concurrency 8]

import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const fixture = path.resolve(repo, "../shared/fixtures/indexer-1.2.0-r2");
const NGINX = "/usr/sbin/nginx";
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
for (const [need, why] of [[NGINX, "nginx is not installed"], [fixture, "../shared/fixtures is not there"], [path.join(repo, "lib/verify/run.js"), "run npm run build first"]]) {
  if (!existsSync(need)) {
    console.log(`verify-nginx: skipped (${why}).`);
    process.exit(0);
  }
}
const { build } = await import(path.join(repo, "lib/build.js"));
const { verify } = await import(path.join(repo, "lib/verify/run.js"));
const { layoutOf } = await import(path.join(repo, "lib/layout/paths.js"));

const work = await mkdtemp(path.join(os.tmpdir(), "bis-bench-verify-"));
await chmod(work, 0o755);
const out = path.join(work, "dist");
let nginx;
try {
  await build({ content: fixture, out, hosts: ["nginx", "cloudflare"] });
  const port = await new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port: p } = s.address();
      s.close(() => resolve(p));
    });
  });
  const dir = path.join(work, "nginx");
  await mkdir(dir);
  const hosts = layoutOf(out).host("nginx");
  await writeFile(path.join(dir, "nginx.conf"), [
    "worker_processes 1;", "daemon off;", `pid ${dir}/nginx.pid;`, `error_log ${dir}/error.log warn;`,
    "events { worker_connections 1024; }", "http {", "  access_log off;",
    `  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi;`,
    `  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;`,
    "  include /etc/nginx/mime.types;", `  include ${hosts}/nginx-http.conf;`,
    "  server {", `    listen 127.0.0.1:${port};`, `    root ${out};`, `    include ${hosts}/nginx.conf;`, "  }", "}", "",
  ].join("\n"));
  const test = spawnSync(NGINX, ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-t"], { encoding: "utf8" });
  if (test.status !== 0) throw new Error(test.stderr);
  nginx = spawn(NGINX, ["-p", dir, "-c", path.join(dir, "nginx.conf")], { stdio: "ignore" });
  for (let i = 0; i < 300; i += 1) {
    const ok = await new Promise((resolve) => {
      const s = net.connect(port, "127.0.0.1");
      s.once("connect", () => { s.destroy(); resolve(true); });
      s.once("error", () => resolve(false));
    });
    if (ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const runs = arg("--runs", 3);
  for (let run = 1; run <= runs; run += 1) {
    const started = performance.now();
    const report = await verify({ dir: out, target: new URL(`http://127.0.0.1:${port}/`), concurrency: arg("--concurrency", 8) });
    const ms = performance.now() - started;
    const rss = process.resourceUsage().maxRSS / 1024;
    console.log(`verify-nginx run ${run}: ${report.checked} requests in ${(ms / 1000).toFixed(2)} s (exit ${report.exitCode}, `
      + `${report.differences.length} differences), peak RSS ${rss.toFixed(0)} MB`);
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
