// test/preview/request-origin-preview.test.ts
// Issue 52 item 8: a `--base-url request` build previewed answers with the request's own origin (its Host header), as
// the deployed handler does, in icon_base_url, the icons' url and versionCheck's config_url.

import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { startPreview, type Preview } from "../../src/preview/server.js";
import { DEMO_CONTENT, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";

let root = "";
let preview: Preview | undefined;

beforeAll(async () => {
  root = await tmpDir("bis-origin-preview-");
  const out = path.join(root, "dist");
  await build({ content: DEMO_CONTENT, out, sourceDateEpoch: TEST_EPOCH, hosts: ["cloudflare"], requestOrigin: true });
  preview = await startPreview({ dir: out, port: 0, host: "127.0.0.1", log: () => {} });
}, 60_000);

afterAll(async () => {
  await preview?.close();
  await removeDir(root);
});

/** GET a path of the preview with the Host header a client at `host` sends. */
function get(pathAndQuery: string, host: string): Promise<unknown> {
  const { port } = new URL(preview!.url);
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: pathAndQuery, headers: { host } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString("utf8"))));
      })
      .on("error", reject);
  });
}

describe("preview of a --base-url request build", () => {
  test("answers with each request's origin, as the deployed handler does", async () => {
    for (const host of ["icons.test:8080", "other.example"]) {
      const info = (await get("/api.php", host)) as { icon_base_url: string };
      expect(info.icon_base_url).toBe(`http://${host}/icons/`);
      const icons = (await get("/api.php?action=icons", host)) as { icons: Array<{ url: string }> };
      expect(icons.icons[0]!.url.startsWith(`http://${host}/icons/`)).toBe(true);
      const check = (await get("/api.php?action=versionCheck&current_version=0.1", host)) as { config_url?: string };
      expect(check.config_url).toBe(`http://${host}/api.php?action=config`);
    }
  });
});
