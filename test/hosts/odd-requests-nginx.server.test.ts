// test/hosts/odd-requests-nginx.server.test.ts
// Issue 27's differential table: every odd request of test/hosts/odd-requests.ts to `preview --as nginx` and to the
// real nginx with the emitted config, and to `preview --as apache` and the real Apache with the emitted `.htaccess`,
// over the same built folder: the same status, and for /api.php the same body and API headers (issue 52: the
// raw-query fallbacks). What the preview cannot do is listed below with what each side gives (docs/behaviour.md,
// "Odd requests"). Also: nginx and Apache revalidate with 304 and send the SVG policy.

import { chmod } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { NGINX_HTTP_FILE, NGINX_ROOT, NGINX_SERVER_FILE } from "../../src/hosts/nginx/render.js";
import { startPreview, type Preview } from "../../src/preview/server.js";
import { DEMO_CONTENT, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { canRun } from "../helpers/needs.js";
import { answerOf, describeCase, differences, ODD_CASES, rawRequest } from "./odd-requests.js";
import { startApache, startNginx, type RunningServer } from "./servers.js";
import { layoutOf } from "../../src/layout/paths.js";

const CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/** What `preview --as nginx` cannot do (docs/behaviour.md): case → the differences found. */
const KEPT: Record<string, string[]> = {};

let root = "";
let out = "";
let preview: Preview | undefined;
let apachePreview: Preview | undefined;
const servers: RunningServer[] = [];
let nginxUrl = "";
let apacheUrl = "";

beforeAll(async () => {
  root = await tmpDir("bis-odd-nginx-");
  out = path.join(root, "dist");
  await build({ content: DEMO_CONTENT, out, sourceDateEpoch: TEST_EPOCH });
  await chmod(root, 0o755);
  preview = await startPreview({ dir: out, port: 0, host: "127.0.0.1", as: "nginx" });
  apachePreview = await startPreview({ dir: out, port: 0, host: "127.0.0.1", as: "apache" });
  if (canRun("nginx")) {
    const hostDir = layoutOf(out).host("nginx");
    const s = await startNginx(
      path.join(hostDir, NGINX_ROOT),
      path.join(hostDir, NGINX_HTTP_FILE),
      path.join(hostDir, NGINX_SERVER_FILE),
    );
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
  await apachePreview?.close();
  for (const s of servers) await s.stop();
  await removeDir(root);
});

/** Every case to the preview and to the server: the cases that differ otherwise than `kept` lists. */
async function compare(previewUrl: string, serverUrl: string, kept: Record<string, string[]>): Promise<string[]> {
  const differ: string[] = [];
  for (const c of ODD_CASES) {
    const name = describeCase(c);
    const found = differences(c, await answerOf(previewUrl, c), await answerOf(serverUrl, c));
    if (found.join("; ") !== (kept[name] ?? []).join("; "))
      differ.push(`${name}: ${found.join("; ")} (preview / server)`);
  }
  return differ;
}

describe.skipIf(!canRun("nginx"))("odd requests: preview --as nginx against nginx", () => {
  test("every case gets the same answer (but what the preview cannot do)", async () => {
    expect(await compare(preview!.url, nginxUrl, KEPT)).toEqual([]);
    expect(ODD_CASES.length).toBeGreaterThan(170);
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

/** What `preview --as apache` cannot do (docs/behaviour.md): case → the differences found. */
const KEPT_APACHE: Record<string, string[]> = {};

describe.skipIf(!canRun("apache"))("odd requests: preview --as apache against Apache", () => {
  test("every case gets the same answer (but what the preview cannot do)", async () => {
    expect(await compare(apachePreview!.url, apacheUrl, KEPT_APACHE)).toEqual([]);
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
