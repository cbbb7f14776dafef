// test/integration/serve.test.ts
// `npx serve dist` reads dist/serve.json and hands it to serve-handler: plain files and the static /api/ paths
// must come with the API's headers there too (the query string is never routed by serve).

import { readFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import handler from "serve-handler";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../src/build.js";
import { mimeTypesTable } from "../../src/output/serve-config.js";
import { DEMO_CONTENT, removeDir, REPO, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";

describe("serve dist (serve-handler with dist/serve.json)", () => {
  let root: string;
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    root = await tmpDir();
    const out = path.join(root, "dist");
    await build({ content: DEMO_CONTENT, out, sourceDateEpoch: TEST_EPOCH });
    const config = JSON.parse(await readFile(path.join(out, "serve.json"), "utf8")) as object;
    server = http.createServer((req, res) => void handler(req, res, { ...config, public: out }));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await removeDir(root);
  });

  it("serves the static answer paths with the API's headers", async () => {
    const res = await fetch(`${base}/api/findIcon/file/php.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect((await fetch(`${base}/api/config.json`)).headers.get("cache-control")).toBe("public, max-age=3600");
    expect((await fetch(`${base}/api/versionCheck/1.1.json`)).headers.get("cache-control")).toBe("public, max-age=900");
    expect((await fetch(`${base}/api/status.json`)).headers.get("cache-control")).toBeNull();
    expect((await fetch(`${base}/api/errors/icon-not-found.json`)).headers.get("cache-control")).toBeNull();
  });

  it("serves plain files, and cannot route /api.php queries", async () => {
    expect((await fetch(`${base}/icons/php.png`)).headers.get("content-type")).toBe("image/png");
    expect((await fetch(`${base}/config.json`)).status).toBe(200);
    expect((await fetch(`${base}/api.php?action=config`)).status).toBe(404);
  });
});

describe("the Content-Type table the package ships (lib/output/content-types.generated.json)", () => {
  it("is what mime-types gives every extension, and only that", async () => {
    const shipped = JSON.parse(await readFile(path.join(REPO, "lib/output/content-types.generated.json"), "utf8")) as Record<string, string>;
    const mime = (await import("mime-types")).default;
    expect(Object.keys(shipped).sort()).toEqual(Object.keys(mime.types).filter((e) => mime.contentType(e) !== false).sort());
    for (const [ext, type] of Object.entries(shipped)) expect(type, ext).toBe(mime.contentType(ext));
    expect([shipped.png, shipped.svg, shipped.json, shipped.css]).toEqual([
      "image/png", "image/svg+xml", "application/json; charset=utf-8", "text/css; charset=utf-8",
    ]);
    expect(mimeTypesTable()).toEqual(shipped);
  });
});
