// test/edge/preview-edge.test.ts
// The edge preview answers /api.php with the handler the build emitted (exactly as the oracle), hands everything
// else to the static preview, and never serves the handler's data.

import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import type { SiteModel } from "../../src/model/types.js";
import { startPreview, type Preview } from "../../src/preview/server.js";
import { DEMO_CONTENT, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { expectedAnswer } from "./expected.js";
import { edgeRequests } from "./requests.js";

let root = "";
let base = "";
let model: SiteModel;
let preview: Preview | undefined;
const log: string[] = [];

beforeAll(async () => {
  root = await tmpDir("bis-edge-preview-");
  const out = path.join(root, "dist");
  model = (await build({ content: DEMO_CONTENT, out, sourceDateEpoch: TEST_EPOCH, hosts: ["cloudflare"] })).model;
  // What `preview` starts for a build with an edge host: the emitted handler for /api.php, the static preview for the
  // rest (and the handler's data files, which the handler reads from this preview as from a host's static files).
  preview = await startPreview({ dir: out, port: 0, host: "127.0.0.1", log: (line) => log.push(line) });
  expect(preview.semantics).toBe("edge");
  base = preview.url.replace(/\/$/, "");
}, 60_000);

afterAll(async () => {
  await preview?.close();
  await removeDir(root);
});

describe("preview of a build with an edge host (and --edge, the same)", () => {
  test("answers a sample of the edge requests exactly as the oracle (status, headers, body)", async () => {
    const sample = edgeRequests(model).filter((_, i) => i % 7 === 0);
    for (const r of sample) {
      const res = await fetch(`${base}${r.url}`, { method: r.method });
      const want = expectedAnswer(model, r);
      expect(res.status, `${r.method} ${r.url}`).toBe(want.status);
      expect(await res.text(), `${r.method} ${r.url}`).toBe(want.body);
      for (const [name, value] of Object.entries(want.headers))
        expect(res.headers.get(name), `${r.method} ${r.url} ${name}`).toBe(value);
      expect(res.headers.has("cache-control"), r.url).toBe("Cache-Control" in want.headers);
    }
    expect(sample.length).toBeGreaterThan(100);
    // The handler read its data through the preview's own static serving, each file once.
    const reads = log.filter((l) => / \/_edge-data\//.test(l));
    expect(reads.length).toBeGreaterThan(0);
    expect(new Set(reads.map((l) => l.split(" ")[1])).size).toBe(reads.length);
  });

  test("serves plain files from the static preview and never the handler or its data", async () => {
    expect((await fetch(`${base}/icons/php.png`)).status).toBe(200);
    for (const p of ["/_worker.js", "/%5Fworker.js", "/routes.json", "/handler.js"])
      expect((await fetch(`${base}${p}`)).status, p).toBe(404);
  });

  test("--static on an edge-only build is refused (no answer files); --edge is accepted", async () => {
    const out = path.join(root, "dist");
    await expect(startPreview({ dir: out, port: 0, host: "127.0.0.1", semantics: "static" })).rejects.toThrow(
      /edge hosts only/,
    );
    const again = await startPreview({ dir: out, port: 0, host: "127.0.0.1", edge: true });
    expect(again.semantics).toBe("edge");
    await again.close();
  });
});
