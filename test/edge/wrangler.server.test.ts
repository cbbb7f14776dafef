// test/edge/wrangler.server.test.ts
// The Cloudflare output on Cloudflare's own runtime: `wrangler dev` (workerd, from the wrangler devDependency) run in
// the folder that holds --out, which finds the emitted wrangler.json through .wrangler/deploy/config.json (as
// `wrangler deploy` does), answers the generated edge requests exactly as the oracle (test/edge/expected.ts): status,
// every header the reference sends (and no Cache-Control where it sends none), body. The worker reads its data
// files through its ASSETS binding. Plain files come from the assets; nothing else of the host's folder (the worker,
// its config) and no build record is served; any other path gets the 404 page without the Worker. Demo content in full; a sample of each real fixture when ../shared is
// present.
// Started by test/edge/wrangler.ts (offline: no Request.cf fetching, no update check).

import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import type { SiteModel } from "../../src/model/types.js";
import { INTERNAL_FILES } from "../../src/routes/internal-files.js";
import { NOT_FOUND_HTML } from "../../src/hosts/cloudflare/render.js";
import {
  DEMO_CONTENT,
  haveRealFixtures,
  realFixture,
  REAL_FIXTURES,
  removeDir,
  TEST_EPOCH,
  tmpDir,
} from "../helpers/fixtures.js";
import { mustRunServers } from "../hosts/servers.js";
import { expectedAnswer } from "./expected.js";
import { edgeRequests, type EdgeRequest } from "./requests.js";
import { skipReason } from "../helpers/needs.js";
import { startWrangler } from "./wrangler.js";

interface Pages {
  url: string;
  model: SiteModel;
  stop(): Promise<void>;
}

const running: Pages[] = [];
afterAll(async () => {
  for (const p of running) await p.stop();
});

async function startPages(content: string): Promise<Pages> {
  const root = await tmpDir("bis-wrangler-");
  const out = path.join(root, "dist");
  const { model } = await build({ content, out, sourceDateEpoch: TEST_EPOCH, hosts: ["cloudflare"] });
  const wrangler = await startWrangler(root).catch(async (error: unknown) => {
    await removeDir(root);
    throw error;
  });
  const stop = async (): Promise<void> => {
    await wrangler.stop();
    await removeDir(root);
  };
  const pages = { url: wrangler.url, model, stop };
  running.push(pages);
  return pages;
}

/** Compares each request's answer with the oracle; returns the differences. */
async function compare(pages: Pages, requests: readonly EdgeRequest[]): Promise<string[]> {
  const differences: string[] = [];
  for (const r of requests) {
    const res = await fetch(`${pages.url}${r.url}`, { method: r.method });
    const body = await res.text();
    const want = expectedAnswer(pages.model, r);
    const fields: string[] = [];
    if (res.status !== want.status) fields.push(`status ${res.status}≠${want.status}`);
    if (body !== want.body) fields.push("body");
    for (const [name, value] of Object.entries(want.headers))
      if (res.headers.get(name) !== value) fields.push(`${name}: ${res.headers.get(name)}`);
    if (!("Cache-Control" in want.headers) && res.headers.has("cache-control"))
      fields.push(`cache-control: ${res.headers.get("cache-control")}`);
    if (fields.length > 0) differences.push(`${r.method} ${r.url} [${r.category}]: ${fields.join("; ")}`);
  }
  return differences;
}

const sites: Array<[string, string, number]> = [["demo", DEMO_CONTENT, 1]];
if (haveRealFixtures || mustRunServers) for (const f of REAL_FIXTURES) sites.push([f, realFixture(f), 8]);

describe.skipIf(skipReason("workerd") !== undefined)("Cloudflare Workers output under wrangler dev (workerd)", () => {
  for (const [name, content, every] of sites) {
    test(`${name}: the generated requests${every > 1 ? ` (every ${every}th)` : ""} are answered exactly; assets served, internal files 404`, async () => {
      const pages = await startPages(content);
      const requests = edgeRequests(pages.model).filter((_, i) => i % every === 0);
      const differences = await compare(pages, requests);
      console.log(`wrangler dev, ${name}: ${requests.length - differences.length}/${requests.length} equal`);
      expect(differences.slice(0, 10)).toEqual([]);
      expect(requests.length).toBeGreaterThan(500);
      expect((await fetch(`${pages.url}/icons.json`)).status).toBe(200);
      expect((await fetch(`${pages.url}/_edge-data/core.json`)).status).toBe(200);
      for (const f of [
        ...INTERNAL_FILES,
        "wrangler.json",
        "worker/index.js",
        "index.js",
        "public/icons.json",
        "handler.js",
      ]) {
        expect((await fetch(`${pages.url}/${f}`)).status, f).toBe(404);
      }
      // A path that is neither the API nor an asset: status 404 and an HTML page, as from the reference (php -S), with
      // Cloudflare's 404-page handling, not from the Worker (which answers an internal file's path with "Not Found").
      for (const p of ["/routes.json", "/nope", "/icons/nope.png", "/a/b/c.json"]) {
        const res = await fetch(`${pages.url}${p}`);
        expect([res.status, res.headers.get("content-type")?.split(";")[0]], p).toEqual([404, "text/html"]);
        expect(await res.text(), p).toBe(NOT_FOUND_HTML);
      }
      // Revalidation on workerd: the handler answers a matching If-None-Match with 304 itself; static assets get
      // Cloudflare's own validator and 304.
      for (const p of ["/api.php?action=config", "/icons.json"]) {
        const first = await fetch(`${pages.url}${p}`);
        const etag = first.headers.get("etag");
        expect(etag, p).toBeTruthy();
        const again = await fetch(`${pages.url}${p}`, { headers: { "If-None-Match": etag! } });
        expect(again.status, p).toBe(304);
      }
      await pages.stop();
      running.splice(running.indexOf(pages), 1);
    }, 300_000);
  }
});
