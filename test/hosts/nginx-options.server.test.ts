// test/hosts/nginx-options.server.test.ts
// The reference answers `OPTIONS /api.php` with 200, an empty body and the CORS headers (reference-behaviour.md §1,
// §9); nginx answered 405 with an HTML page. Checked with the real nginx.

import path from "node:path";
import { chmod } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { NGINX_HTTP_FILE, NGINX_ROOT, NGINX_SERVER_FILE } from "../../src/hosts/nginx/render.js";
import { removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { canRun } from "../helpers/needs.js";
import { writeBase } from "../helpers/base-content.js";
import { startNginx, type RunningServer } from "./servers.js";
import { layoutOf } from "../../src/layout/paths.js";

let root = "";
let content = "";
let nginx: RunningServer | undefined;

describe.skipIf(!canRun("nginx"))("nginx", () => {
  beforeAll(async () => {
    root = await tmpDir("bis-nginx-options-");
    content = await writeBase();
    const out = path.join(root, "dist");
    await build({ content, out, sourceDateEpoch: TEST_EPOCH });
    await chmod(root, 0o755);
    nginx = await startNginx(
      path.join(layoutOf(out).host("nginx"), NGINX_ROOT),
      path.join(layoutOf(out).host("nginx"), NGINX_HTTP_FILE),
      path.join(layoutOf(out).host("nginx"), NGINX_SERVER_FILE),
    );
  }, 60_000);

  afterAll(async () => {
    await nginx?.stop();
    await removeDir(root);
    await removeDir(content);
  });

  test("OPTIONS /api.php got 405 and an HTML page instead of 200, an empty body and the CORS headers", async () => {
    for (const query of ["", "?action=config", "?action=icon&name=nope.png"]) {
      const r = await fetch(`${nginx!.url}/api.php${query}`, { method: "OPTIONS" });
      expect(r.status).toBe(200);
      expect(await r.text()).toBe("");
      expect(r.headers.get("content-type")).toBe("application/json");
      expect(r.headers.get("access-control-allow-origin")).toBe("*");
      expect(r.headers.get("access-control-allow-methods")).toBe("GET, POST, OPTIONS");
      expect(r.headers.get("access-control-allow-headers")).toBe("Content-Type, Authorization");
    }
    // GET is unchanged.
    const get = await fetch(`${nginx!.url}/api.php?action=config`);
    expect(get.status).toBe(200);
    expect(get.headers.get("content-type")).toBe("application/json");
  });
});
