// test/hosts/nginx-apache-limits.server.test.ts
// The emitted nginx and Apache configs load for the longest names the content may hold, and publish nothing
// internal (issue 8, points 11 and 12), checked with the real servers (`nginx -t` runs in startNginx).

import { spawnSync } from "node:child_process";
import { chmod, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { mapHashSizing } from "../../src/hosts/nginx/hash-sizing.js";
import { NGINX_HTTP_FILE, NGINX_ROOT, NGINX_SERVER_FILE } from "../../src/hosts/nginx/render.js";
import { INTERNAL_FILES } from "../../src/routes/internal-files.js";
import { removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { canRun } from "../helpers/needs.js";
import { edit, PNG, writeBase } from "../helpers/base-content.js";
import { NGINX_BIN, startApache, startNginx, type RunningServer } from "./servers.js";
import { layoutOf } from "../../src/layout/paths.js";

// Answer files are named after the key or icon name ("<name>.json"): 250 characters is the longest a file name of at
// most 255 bytes allows, and nginx failed from 46 on.
const LONG_KEY = `k${"x".repeat(248)}z`;
const LONG_ICON = `${"i".repeat(246)}.png`;

let root = "";
let content = "";
let out = "";
const servers: RunningServer[] = [];

beforeAll(async () => {
  root = await tmpDir("bis-limits-");
  content = await writeBase();
  await edit(content, "icons.json", '"txt": "text.png",', `"txt": "text.png",\n  "${LONG_KEY}": "${LONG_ICON}",`);
  await writeFile(path.join(content, "icons", LONG_ICON), PNG);
  out = path.join(root, "dist");
  await build({ content, out, sourceDateEpoch: TEST_EPOCH });
  await chmod(root, 0o755);
}, 60_000);

afterAll(async () => {
  for (const s of servers) await s.stop();
  await removeDir(root);
  await removeDir(content);
});

async function get(url: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { redirect: "manual" });
  return { status: res.status, body: await res.text() };
}

async function longNamesAnswered(server: RunningServer): Promise<void> {
  const found = await get(`${server.url}/api.php?action=findIcon&extension=${LONG_KEY}`);
  expect(found.status).toBe(200);
  expect(found.body).toContain(LONG_ICON);
  // Another spelling takes the slow path (regexes), and the fast path's hash keys hold the long name too.
  const upper = await get(`${server.url}/api.php?action=findIcon&extension=${LONG_KEY.toUpperCase()}&x=%41`);
  expect(upper.status).toBe(200);
  const icon = await get(`${server.url}/api.php?action=icon&name=${LONG_ICON}`);
  expect(icon.status).toBe(200);
  expect(icon.body).toContain(LONG_ICON);
}

async function internalFilesHidden(server: RunningServer): Promise<void> {
  for (const file of INTERNAL_FILES) {
    expect({ file, status: (await get(`${server.url}/${file}`)).status }).toEqual({ file, status: 404 });
    expect({ file, status: (await get(`${server.url}/%2F${file}`)).status }).not.toEqual({ file, status: 200 });
  }
  // The site's own files are still served.
  expect((await get(`${server.url}/config.json`)).status).toBe(200);
}

describe.skipIf(!canRun("nginx"))("nginx", () => {
  let nginx: RunningServer;
  beforeAll(async () => {
    nginx = await startNginx(
      path.join(layoutOf(out).host("nginx"), NGINX_ROOT),
      path.join(layoutOf(out).host("nginx"), NGINX_HTTP_FILE),
      path.join(layoutOf(out).host("nginx"), NGINX_SERVER_FILE),
    );
    servers.push(nginx);
  }, 30_000);

  test("a key or icon name of 46+ characters made nginx -t fail with 'could not build map_hash'", async () => {
    await longNamesAnswered(nginx);
  });

  test("nginx served the build's internal files (/routes.json, /nginx.conf, /.htaccess, …)", async () => {
    await internalFilesHidden(nginx);
  });
});

describe.skipIf(!canRun("apache"))("apache", () => {
  let apache: RunningServer;
  beforeAll(async () => {
    apache = await startApache(layoutOf(out).host("apache"));
    servers.push(apache);
  }, 30_000);

  test("the longest names the content allows are answered by Apache", async () => {
    await longNamesAnswered(apache);
  });

  test("Apache served the build's internal files (/routes.json, /nginx.conf, /_worker.js, …)", async () => {
    await internalFilesHidden(apache);
  });
});

describe.skipIf(!canRun("nginx"))("nginx map sizing", () => {
  test("maps of many long keys loaded only with a 'could not build map_hash' error or warning", async () => {
    const dir = await tmpDir("bis-maphash-");
    try {
      const keys = [
        ...Array.from({ length: 20_000 }, (_, i) => `=${String(i).padStart(6, "0")}${"k".repeat(i % 244)}`),
        ...Array.from({ length: 20_000 }, (_, i) => `=s${i}`),
      ];
      const maps = ["map =$arg_x $bis_x {", "    default c0;", ...keys.map((k, i) => `    ${k} c${i % 7};`), "}"];
      await writeFile(path.join(dir, "http.conf"), [...mapHashSizing(maps), ...maps, ""].join("\n"));
      await writeFile(
        path.join(dir, "nginx.conf"),
        [
          "daemon off;",
          `pid ${dir}/nginx.pid;`,
          `error_log ${dir}/error.log warn;`,
          "events { }",
          `http { access_log off; include ${dir}/http.conf; server { listen 127.0.0.1:1; return 200 $bis_x; } }`,
          "",
        ].join("\n"),
      );
      const t = spawnSync(NGINX_BIN, ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-t"], { encoding: "utf8" });
      expect(t.stderr).not.toContain("map_hash");
      expect(t.status).toBe(0);
    } finally {
      await removeDir(dir);
    }
  });
});
