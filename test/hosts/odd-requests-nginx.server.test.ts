// test/hosts/odd-requests-nginx.server.test.ts
// Issue 27's differential table: every odd request of test/hosts/odd-requests.ts to the preview with the static rules
// and to the real nginx with the emitted config, over the same built folder: the same status. The differences kept
// on purpose (docs/behaviour.md, "Odd requests") are listed below with the status each side gives. Also: nginx and
// Apache revalidate with 304 and send the SVG policy.

import { chmod } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { NGINX_HTTP_FILE, NGINX_SERVER_FILE } from "../../src/hosts/nginx/render.js";
import { startPreview, type Preview } from "../../src/preview/server.js";
import { DEMO_CONTENT, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { canRun } from "../helpers/needs.js";
import { describeCase, ODD_CASES, rawRequest, statusOf } from "./odd-requests.js";
import { startApache, startNginx, type RunningServer } from "./servers.js";
import { layoutOf } from "../../src/layout/paths.js";

const CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/** Kept on purpose (docs/behaviour.md): case → [preview, nginx]. */
const KEPT: Record<string, [number, number]> = {
  // (A folder with an index.html, the root with the catalogue, is that page on both: 200.)
  // A Range that is not a ranges-specifier: RFC 9110 §14.2 has it ignored (200); nginx answers 416.
  'GET /config.json {"Range":"bytes=abc"}': [200, 416],
  'GET /config.json {"Range":"bytes=--1"}': [200, 416],
};

let root = "";
let out = "";
let preview: Preview | undefined;
const servers: RunningServer[] = [];
let nginxUrl = "";
let apacheUrl = "";

beforeAll(async () => {
  root = await tmpDir("bis-odd-nginx-");
  out = path.join(root, "dist");
  await build({ content: DEMO_CONTENT, out, sourceDateEpoch: TEST_EPOCH });
  await chmod(root, 0o755);
  preview = await startPreview({ dir: out, port: 0, host: "127.0.0.1", semantics: "static" }); // the static rules, as nginx
  if (canRun("nginx")) {
    const hostDir = layoutOf(out).host("nginx");
    const s = await startNginx(out, path.join(hostDir, NGINX_HTTP_FILE), path.join(hostDir, NGINX_SERVER_FILE));
    servers.push(s);
    nginxUrl = s.url;
  }
  if (canRun("apache")) {
    const s = await startApache(layoutOf(out).host("apache"));
    servers.push(s);
    apacheUrl = s.url;
  }
}, 60_000);

afterAll(async () => {
  await preview?.close();
  for (const s of servers) await s.stop();
  await removeDir(root);
});

describe.skipIf(!canRun("nginx"))("odd requests: the static preview against nginx", () => {
  test("every case gets the same status (but the differences kept on purpose)", async () => {
    const differ: string[] = [];
    for (const c of ODD_CASES) {
      const name = describeCase(c);
      const got = [await statusOf(preview!.url, c), await statusOf(nginxUrl, c)] as [number, number];
      const kept = KEPT[name];
      if (kept !== undefined ? kept.join() !== got.join() : got[0] !== got[1])
        differ.push(`${name}: preview ${got[0]}, nginx ${got[1]}`);
    }
    expect(differ).toEqual([]);
    expect(ODD_CASES.length).toBeGreaterThan(120);
  });

  test("nginx revalidates with 304 (ETag, and If-Modified-Since `before`) and sends the SVG policy", async () => {
    const first = await rawRequest(nginxUrl, "GET", "/icons/php.png");
    expect(
      (await rawRequest(nginxUrl, "GET", "/icons/php.png", { "If-None-Match": first.headers.get("etag")! })).status,
    ).toBe(304);
    // A date after Last-Modified: nginx's default (`exact`) answers 200, RFC 9110 and `before` 304.
    expect(
      (await rawRequest(nginxUrl, "GET", "/icons/php.png", { "If-Modified-Since": "Fri, 01 Jan 2100 00:00:00 GMT" }))
        .status,
    ).toBe(304);
    const svg = await rawRequest(nginxUrl, "GET", "/icons/css.svg");
    expect([svg.status, svg.headers.get("content-security-policy")]).toEqual([200, CSP]);
    expect((await rawRequest(nginxUrl, "GET", "/icons/php.png")).headers.has("content-security-policy")).toBe(false);
  });
});

/** Kept on purpose (docs/behaviour.md): case → [preview, Apache]. */
const KEPT_APACHE: Record<string, [number, number]> = {
  // Apache refuses an encoded slash in a path (AllowEncodedSlashes Off, its default): 404.
  "GET /icons%2fphp.png": [200, 404],
  "GET /icons/..%2fconfig.json": [200, 404],
  "GET /icons/%2E%2E%2Fconfig.json": [200, 404],
  "GET /%2e%2e%2f%2e%2e%2fetc/passwd": [400, 404],
  // A NUL byte in a path: the preview refuses the request (400), Apache finds no such file (404).
  "GET /icons/%00.png": [400, 404],
  "GET /icons/php.png%00.txt": [400, 404],
  // Apache's core answers OPTIONS and POST on a plain file (200); the preview refuses them (405).
  "OPTIONS /config.json": [405, 200],
  "POST /config.json": [405, 200],
  "OPTIONS *": [400, 200],
  // Apache ignores a Range it finds unsatisfiable or malformed in these ways (200); the preview follows RFC 9110.
  'GET /config.json {"Range":"bytes=-0"}': [416, 200],
  'GET /config.json {"Range":"bytes=5-1"}': [416, 200],
  'GET /config.json {"Range":"bytes= 0-3"}': [206, 200],
  'GET /config.json {"Range":"bytes=0-3 ,5-6"}': [206, 200],
  // Apache's If-Modified-Since is exact-date by default: a later date than Last-Modified gets 200.
  'GET /config.json {"If-Modified-Since":"Fri, 01 Jan 2100 00:00:00 GMT"}': [304, 200],
};

describe.skipIf(!canRun("apache"))("odd requests: the static preview against Apache", () => {
  test("every case gets the same status (but the differences kept on purpose)", async () => {
    const differ: string[] = [];
    for (const c of ODD_CASES) {
      const name = describeCase(c);
      const got = [await statusOf(preview!.url, c), await statusOf(apacheUrl, c)] as [number, number];
      const kept = KEPT_APACHE[name];
      if (kept !== undefined ? kept.join() !== got.join() : got[0] !== got[1])
        differ.push(`${name}: preview ${got[0]}, Apache ${got[1]}`);
    }
    expect(differ).toEqual([]);
  });
});

describe.skipIf(!canRun("apache"))("Apache with the emitted .htaccess", () => {
  test("revalidates with 304 and sends the SVG policy", async () => {
    const first = await rawRequest(apacheUrl, "GET", "/icons/php.png");
    expect(
      (await rawRequest(apacheUrl, "GET", "/icons/php.png", { "If-None-Match": first.headers.get("etag")! })).status,
    ).toBe(304);
    expect(
      (
        await rawRequest(apacheUrl, "GET", "/icons/php.png", {
          "If-Modified-Since": first.headers.get("last-modified")!,
        })
      ).status,
    ).toBe(304);
    const svg = await rawRequest(apacheUrl, "GET", "/icons/css.svg");
    expect([svg.status, svg.headers.get("content-security-policy")]).toEqual([200, CSP]);
  });
});
