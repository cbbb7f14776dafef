// bench/apache.mjs
// Apache (2.4, mpm_event, AllowOverride All) serving a build's Apache folder with its emitted .htaccess: the
// .htaccess size and the median request time of a plain file and of /api.php, N sequential requests each on a fresh
// loopback connection (Apache reads the .htaccess again on every request, so its size shows here).
// I/O: starts and stops apache2 in a temp folder; reads the build's records.
//
// Usage: node bench/apache.mjs [--requests 40] <out-dir>...     (each <out-dir> a build's --out with --hosts apache)
//        import { apacheRows } from "./apache.mjs"

import { spawn, spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { freePort, waitForPort } from "./ports.mjs";

const APACHE = "/usr/sbin/apache2";
const MODULES = "/usr/lib/apache2/modules";
const MODULE_LIST = ["mpm_event", "authz_core", "rewrite", "headers", "mime", "setenvif", "alias", "dir"];
/** The requests timed: a plain file of the same bytes at every scale, one that grows with the content, and an answer
 * through the .htaccess rules. */
export const APACHE_PATHS = ["/icons/text.png", "/config.json", "/api.php?action=findIcon&extension=php"];
/** The paths whose time must not grow with the site (the same bytes at every scale). */
export const FIXED_PATHS = ["/icons/text.png", "/api.php?action=findIcon&extension=php"];

/** Apache's own folder in the build's records (docs/layout.md): its document root. */
const hostDir = (site) => path.join(path.dirname(site), ".build-index-site", path.basename(site), "hosts", "apache");

/** One GET on a new connection: its status and wall time in ms. */
const timedGet = (url) =>
  new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    http
      .get(url, { agent: false }, (res) => {
        res.resume();
        res.once("end", () => resolve({ status: res.statusCode, ms: Number(process.hrtime.bigint() - start) / 1e6 }));
      })
      .once("error", reject);
  });

async function startApache(docroot) {
  const dir = await mkdtemp(path.join(os.tmpdir(), "bis-bench-apache-"));
  const port = await freePort();
  const conf = [
    `ServerRoot ${dir}`,
    "ServerName 127.0.0.1",
    `Listen 127.0.0.1:${port}`,
    `PidFile ${dir}/httpd.pid`,
    `ErrorLog ${dir}/error.log`,
    "LogLevel warn",
    ...MODULE_LIST.map((m) => `LoadModule ${m}_module ${MODULES}/mod_${m}.so`),
    "TypesConfig /etc/mime.types",
    `DocumentRoot "${docroot}"`,
    `<Directory "${docroot}">`,
    "  AllowOverride All",
    "  Require all granted",
    "</Directory>",
    "",
  ].join("\n");
  await writeFile(path.join(dir, "httpd.conf"), conf);
  const env = { ...process.env, APACHE_RUN_DIR: dir, APACHE_LOCK_DIR: dir, APACHE_LOG_DIR: dir };
  const child = spawn(APACHE, ["-f", path.join(dir, "httpd.conf"), "-DFOREGROUND"], { stdio: "ignore", env });
  await waitForPort(port, child, "apache2", () => readFile(path.join(dir, "error.log"), "utf8").catch(() => ""));
  return {
    url: `http://127.0.0.1:${port}`,
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

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** For each path, the median wall time of `requests` sequential GETs (after 3 unmeasured), each on a new connection. */
export async function sequentialMedians(base, paths, requests) {
  const rows = [];
  for (const p of paths) {
    for (let i = 0; i < 3; i++) await timedGet(base + p);
    const times = [];
    let non200 = 0;
    for (let i = 0; i < requests; i++) {
      const r = await timedGet(base + p);
      times.push(r.ms);
      if (r.status !== 200) non200++;
    }
    rows.push({ path: p, requests, medianMs: Math.round(median(times) * 100) / 100, non200 });
  }
  return rows;
}

/** The Apache rows for one built site (--out with --hosts apache), or { skipped: reason }. */
export async function apacheRows({ dir, requests = 40, log = () => {} }) {
  if (!existsSync(APACHE)) return { skipped: `${APACHE} is not installed (apt-get install -y apache2)` };
  const docroot = hostDir(path.resolve(dir));
  const htaccess = path.join(docroot, ".htaccess");
  if (!existsSync(htaccess)) return { skipped: "the build emitted no Apache folder (--hosts apache)" };
  const version = spawnSync(APACHE, ["-v"], { encoding: "utf8" }).stdout.split("\n")[0].trim();
  const server = await startApache(docroot);
  let rows;
  try {
    rows = await sequentialMedians(server.url, APACHE_PATHS, requests);
    for (const r of rows) log(`  apache ${r.path}: median ${r.medianMs} ms over ${requests} (${r.non200} not 200)`);
  } finally {
    await server.stop();
  }
  return {
    note: `${version}, mpm_event, AllowOverride All; ${requests} sequential GETs per path, each on a new loopback connection, after 3 unmeasured.`,
    htaccessBytes: statSync(htaccess).size,
    rows,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--requests");
  const requests = at === -1 ? 40 : Number(args.splice(at, 2)[1]);
  if (args.length === 0) {
    console.error("Usage: node bench/apache.mjs [--requests 40] <out-dir>...");
    process.exit(2);
  }
  for (const dir of args) {
    const r = await apacheRows({ dir, requests });
    console.log(JSON.stringify({ dir, ...r }));
  }
}
