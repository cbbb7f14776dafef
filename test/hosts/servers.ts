// test/hosts/servers.ts
// Starts the real Apache and nginx (Debian packages) on 127.0.0.1 with a built site as document root, each from a
// temporary config of its own; in CI a server that cannot start fails the test instead of skipping it.

import { spawnSync, type ChildProcess } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { removeDir, tmpDir } from "../helpers/fixtures.js";
import { inCI, installed } from "../helpers/needs.js";
import { spawnServer, stopServer } from "../helpers/processes.js";

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

export const APACHE_BIN = "/usr/sbin/apache2";
export const APACHE_MODULES = "/usr/lib/apache2/modules";
export const NGINX_BIN = "/usr/sbin/nginx";

// Installed (test/helpers/needs.ts; BIS_TEST_PRETEND_MISSING=apache,nginx tries the skip path).
export const haveApache = installed("apache");
export const haveNginx = installed("nginx");
/** In CI a missing server is a failure, not a skip. */
export const mustRunServers = inCI;
/** What the parity suite reports for a host that it did not run (outside CI, when its server is not installed). */
export const notInstalled: Record<string, string | undefined> = {
  apache: haveApache || mustRunServers ? undefined : "apache2 is not installed",
  nginx: haveNginx || mustRunServers ? undefined : "nginx is not installed",
};

// Ports are drawn below the kernel's ephemeral range (/proc/sys/net/ipv4/ip_local_port_range, 32768 and up on Linux):
// a port that the kernel hands out by itself (listen(0), or the local end of any outbound connection, which the suites
// running beside each other make by the thousand) can be taken again between our check and the server's bind.
const PORTS = { low: 20_000, high: 32_767 };

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A port on 127.0.0.1 that nothing listens on, outside the range the kernel picks from for itself. */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 200; tries++) {
    const port = PORTS.low + Math.floor(Math.random() * (PORTS.high - PORTS.low + 1));
    if (await canListen(port)) return port;
  }
  throw new Error(`No free port between ${PORTS.low} and ${PORTS.high} after 200 tries`);
}

async function waitForPort(port: number, child: ChildProcess, log: () => Promise<string>): Promise<void> {
  const deadline = Date.now() + 15_000;
  let exited = false;
  child.once("exit", () => {
    exited = true;
  });
  while (Date.now() < deadline) {
    if (exited) throw new Error(`The server exited before listening:\n${await log()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`The server did not listen on ${port} within 15 s:\n${await log()}`);
}

const APACHE_MODULE_LIST = ["mpm_event", "authz_core", "rewrite", "headers", "mime", "setenvif", "alias", "dir"];

/** Apache in the foreground (-DFOREGROUND) with the site as document root and AllowOverride All; `extra` lines are
 * added to its config (an Alias). */
export async function startApache(siteDir: string, extra: readonly string[] = []): Promise<RunningServer> {
  const dir = await tmpDir("bis-apache-");
  const port = await freePort();
  const docroot = path.resolve(siteDir);
  const conf = [
    `ServerRoot ${dir}`,
    `ServerName 127.0.0.1`,
    `Listen 127.0.0.1:${port}`,
    `PidFile ${dir}/httpd.pid`,
    `ErrorLog ${dir}/error.log`,
    "LogLevel warn",
    ...APACHE_MODULE_LIST.map((m) => `LoadModule ${m}_module ${APACHE_MODULES}/mod_${m}.so`),
    "TypesConfig /etc/mime.types",
    `DocumentRoot "${docroot}"`,
    `<Directory "${docroot}">`,
    "  AllowOverride All",
    "  Require all granted",
    "</Directory>",
    ...extra,
    "",
  ].join("\n");
  await writeFile(path.join(dir, "httpd.conf"), conf);
  const child = spawnServer(APACHE_BIN, ["-f", path.join(dir, "httpd.conf"), "-DFOREGROUND"], {
    env: { ...process.env, APACHE_RUN_DIR: dir, APACHE_LOCK_DIR: dir, APACHE_LOG_DIR: dir },
  });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    output += d.toString();
  });
  return supervise(child, () => output, dir, port);
}

/** nginx in the foreground: our http-level file inside http {}, our server-level file inside a server {}. */
export async function startNginx(siteDir: string, httpConf: string, serverConf: string): Promise<RunningServer> {
  const dir = await tmpDir("bis-nginx-");
  const port = await freePort();
  await mkdir(path.join(dir, "logs"), { recursive: true });
  const conf = [
    "worker_processes 1;",
    "daemon off;",
    `pid ${dir}/nginx.pid;`,
    `error_log ${dir}/error.log warn;`,
    "events { worker_connections 256; }",
    "http {",
    "  access_log off;",
    `  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi;`,
    `  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;`,
    "  include /etc/nginx/mime.types;",
    `  include ${path.resolve(httpConf)};`,
    "  server {",
    `    listen 127.0.0.1:${port};`,
    `    root ${path.resolve(siteDir)};`,
    // What a PHP site's server block typically has: our exact location must win over it.
    "    location ~ \\.php$ { return 418; }",
    `    include ${path.resolve(serverConf)};`,
    "  }",
    "}",
    "",
  ].join("\n");
  await writeFile(path.join(dir, "nginx.conf"), conf);
  const test = spawnSync(NGINX_BIN, ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-t"], { encoding: "utf8" });
  if (test.status !== 0) throw new Error(`nginx -t failed:\n${test.stderr}`);
  const child = spawnServer(NGINX_BIN, ["-p", dir, "-c", path.join(dir, "nginx.conf")]);
  let output = "";
  child.stderr?.on("data", (d: Buffer) => {
    output += d.toString();
  });
  return supervise(child, () => output, dir, port);
}

/** Waits until a started server listens (its output and error.log explain a failure), and how to stop it. */
async function supervise(child: ChildProcess, output: () => string, dir: string, port: number): Promise<RunningServer> {
  const log = async (): Promise<string> =>
    `${output()}${await readFile(path.join(dir, "error.log"), "utf8").catch(() => "")}`;
  try {
    await waitForPort(port, child, log);
  } catch (error) {
    await stopServer(child);
    await removeDir(dir);
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      await stopServer(child);
      await removeDir(dir);
    },
  };
}
