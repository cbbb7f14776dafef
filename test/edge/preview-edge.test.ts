// test/edge/preview-edge.test.ts
// The edge preview answers /api.php with the handler the build emitted (exactly as the oracle), hands everything
// else to the static preview, and never serves the handler's data.

import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { build } from "../../src/build.js";
import type { SiteModel } from "../../src/model/types.js";
import { startPreview, type Preview } from "../../src/preview/server.js";
import { DEMO_CONTENT, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { expectedAnswer } from "./expected.js";
import { edgeRequests } from "./requests.js";

let root = "";
let base = "";
let model: SiteModel;
let preview: Preview | undefined;

beforeAll(async () => {
  root = await tmpDir("bis-edge-preview-");
  const out = path.join(root, "dist");
  model = (await build({ content: DEMO_CONTENT, out, sourceDateEpoch: TEST_EPOCH, hosts: ["cloudflare"] })).model;
  // What `preview --edge` starts: the emitted handler for /api.php, the static preview for the rest.
  preview = await startPreview({ dir: out, port: 0, host: "127.0.0.1", edge: true });
  base = preview.url.replace(/\/$/, "");
}, 60_000);

afterAll(async () => {
  await preview?.close();
  await removeDir(root);
});

describe("preview --edge", () => {
  test("answers a sample of the edge requests exactly as the oracle (status, headers, body)", async () => {
    const sample = edgeRequests(model).filter((_, i) => i % 7 === 0);
    for (const r of sample) {
      const res = await fetch(`${base}${r.url}`, { method: r.method });
      const want = expectedAnswer(model, r);
      expect(res.status, `${r.method} ${r.url}`).toBe(want.status);
      expect(await res.text(), `${r.method} ${r.url}`).toBe(want.body);
      for (const [name, value] of Object.entries(want.headers)) expect(res.headers.get(name), `${r.method} ${r.url} ${name}`).toBe(value);
      expect(res.headers.has("cache-control"), r.url).toBe("Cache-Control" in want.headers);
    }
    expect(sample.length).toBeGreaterThan(100);
  });

  test("serves plain files from the static preview and never the handler or its data", async () => {
    expect((await fetch(`${base}/icons/php.png`)).status).toBe(200);
    for (const p of ["/_worker.js", "/%5Fworker.js", "/routes.json"]) expect((await fetch(`${base}${p}`)).status, p).toBe(404);
  });
});
