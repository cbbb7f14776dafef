// bench/nginx.mjs
// nginx answering the /api.php mix with the emitted config (hosts/nginx/nginx-http.conf in http {},
// hosts/nginx/nginx.conf in server {}, root hosts/nginx/root), next to nginx serving the same files by path with a plain
// server block. Both: one worker, access log off, 127.0.0.1 only. Skipped (with the reason) when nginx is not
// installed or the site has no nginx config. `nginxRequestRows`: the median time of single requests, as apache.mjs's.

import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { sequentialMedians } from "./apache.mjs";
import { freePort, waitForPort } from "./ports.mjs";

const NGINX = "/usr/sbin/nginx";
/** nginx's own folder in the build's records (docs/layout.md). */
const hostDir = (site) => path.join(path.dirname(site), ".build-index-site", path.basename(site), "hosts", "nginx");

async function startNginx(work, name, site, withConfig) {
  const dir = path.join(work, `nginx-${name}`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const port = await freePort();
  const conf = [
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
    ...(withConfig ? [`  include ${path.join(hostDir(site), "nginx-http.conf")};`] : []),
    "  server {",
    `    listen 127.0.0.1:${port};`,
    `    root ${path.join(hostDir(site), "root")};`,
    ...(withConfig ? [`    include ${path.join(hostDir(site), "nginx.conf")};`] : []),
    "  }",
    "}",
    "",
  ].join("\n");
  await writeFile(path.join(dir, "nginx.conf"), conf);
  const test = spawnSync(NGINX, ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-t"], { encoding: "utf8" });
  if (test.status !== 0) throw new Error(`nginx -t failed:\n${test.stderr}`);
  const child = spawn(NGINX, ["-p", dir, "-c", path.join(dir, "nginx.conf")], { stdio: "ignore" });
  await waitForPort(port, child, "nginx");
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: async () => {
      if (child.exitCode === null) {
        await new Promise((resolve) => {
          child.once("exit", resolve);
          child.kill("SIGTERM");
          setTimeout(() => child.exitCode === null && child.kill("SIGKILL"), 5000).unref();
        });
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** nginx with the emitted config: the median time of N sequential requests per path (apache.mjs's method). */
export async function nginxRequestRows({ dir, paths, requests = 40, work, log = () => {} }) {
  if (!existsSync(NGINX)) return { skipped: `${NGINX} is not installed (apt-get install -y nginx)` };
  const site = path.resolve(dir);
  if (!existsSync(path.join(hostDir(site), "nginx.conf"))) return { skipped: "the build emitted no nginx config" };
  const server = await startNginx(work, "requests", site, true);
  try {
    const rows = await sequentialMedians(server.url.replace(/\/$/, ""), paths, requests);
    for (const r of rows) log(`  nginx ${r.path}: median ${r.medianMs} ms over ${requests} (${r.non200} not 200)`);
    return { rows };
  } finally {
    await server.stop();
  }
}

/** The nginx rows of the benchmark, or { skipped: reason }. */
export async function nginxRows({ dir, mix, load, work, log }) {
  if (!existsSync(NGINX)) return { skipped: `${NGINX} is not installed (apt-get install -y nginx)` };
  if (!existsSync(path.join(hostDir(dir), "nginx-http.conf")) || !existsSync(path.join(hostDir(dir), "nginx.conf"))) {
    return { skipped: "the build emitted no nginx config (nginx-http.conf, nginx.conf)" };
  }
  const version = spawnSync(NGINX, ["-v"], { encoding: "utf8" }).stderr.trim();
  const rows = [];
  for (const [label, withConfig, paths] of [
    ["nginx + emitted config, /api.php mix", true, mix.map((m) => m.api)],
    ["nginx plain, same files by path", false, mix.map((m) => m.file)],
    ["nginx + emitted config, same files by path", true, mix.map((m) => m.file)],
  ]) {
    const server = await startNginx(work, withConfig ? "routed" : "plain", dir, withConfig);
    try {
      await load(server.url, paths.slice(0, 5));
      const r = await load(server.url, paths);
      rows.push({ server: label, ...r });
      log(`  ${label}: ${r.rps} req/s, p99 ${r.p99Ms} ms (${r.non2xx} non-2xx of ${r.requests})`);
    } finally {
      await server.stop();
    }
  }
  return {
    note: `${version}, one worker, access log off; the same request mix and load generator (autocannon, one process) as the preview rows.`,
    rows,
    ratio: Math.round((rows[0].rps / rows[1].rps) * 100) / 100,
  };
}
