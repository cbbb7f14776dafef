// test/hosts/edge-parity.server.test.ts
// Every edge output, on its host's runtime, answers every request of the precomputed domain exactly as the
// precomputed file, and every other request (variants, PHP's query shapes, other methods) as src/php's reference
// semantics (status, body, Content-Type, Cache-Control, CORS): demo content always, both real fixtures when
// ../shared is present (in CI they must be).

import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { INTERNAL_FILES } from "../../src/routes/internal-files.js";
import { DEMO_CONTENT, haveRealFixtures, REAL_FIXTURES, realFixture } from "../helpers/fixtures.js";
import { mustRunServers } from "./servers.js";
import {
  compareHosts,
  domainRequests,
  generatedEdgeRequests,
  referenceAnswer,
  referenceRequests,
  startEdgeSite,
  summarizeEdge,
  type EdgeSite,
} from "./edge-parity.js";

const sites: Array<[string, string]> = [["demo", DEMO_CONTENT]];
if (haveRealFixtures || mustRunServers) for (const f of REAL_FIXTURES) sites.push([f, realFixture(f)]);

for (const [name, content] of sites) {
  describe(`edge hosts, ${name}`, () => {
    let site: EdgeSite;
    beforeAll(async () => {
      site = await startEdgeSite(content);
    }, 120_000);
    afterAll(async () => site?.close());

    test("every request of the precomputed domain gets the precomputed answer on every edge host", async () => {
      const reports = await compareHosts(site, domainRequests(site.model), site.preview);
      console.log(summarizeEdge(`${name}, precomputed domain`, reports));
      for (const r of reports) {
        expect(r.compared, r.host).toBeGreaterThan(100);
        expect(r.mismatches.slice(0, 5), `${r.host}: differences from the precomputed answers`).toEqual([]);
      }
    }, 600_000);

    // Cloudflare's _worker.js runs here in Node with a stub ASSETS; on workerd (wrangler pages dev) it is test/edge's.
    test("every request outside it, and every method, gets src/php's answer on every edge host", async () => {
      const reports = await compareHosts(site, referenceRequests(site, 200), referenceAnswer(site.model));
      console.log(summarizeEdge(`${name}, outside the domain`, reports));
      for (const r of reports) {
        expect(r.compared, r.host).toBeGreaterThan(100);
        expect(r.mismatches.slice(0, 5), `${r.host}: differences from src/php`).toEqual([]);
      }
    }, 600_000);

    test("a revalidation with the answer's ETag gets 304 from the handler (Deno for Netlify, edge-runtime for Vercel)", async () => {
      for (const [host, base] of Object.entries(site.urls)) {
        const first = await fetch(`${base}/api.php?action=config`);
        const etag = first.headers.get("etag");
        expect(etag, host).toMatch(/^"[^"]+"$/);
        const again = await fetch(`${base}/api.php?action=config`, { headers: { "If-None-Match": etag! } });
        expect({ host, status: again.status, body: await again.text() }).toEqual({ host, status: 304, body: "" });
        const other = await fetch(`${base}/api.php?action=config`, { headers: { "If-None-Match": '"other"' } });
        expect({ host, status: other.status }).toEqual({ host, status: 200 });
      }
    }, 60_000);

    test("nothing of the build's own is served by any edge host (its upload holds the site's files only)", async () => {
      const own = [
        ...INTERNAL_FILES,
        "build.json",
        "site.manifest",
        "site.id",
        "handler.js",
        "wrangler.json",
        ".build-index-site/dist/routes.json",
      ];
      for (const [host, answer] of Object.entries(site.answerers)) {
        // The harness serves the host's static files: a plain file of the site is there.
        expect(
          (await answer({ method: "GET", query: "", category: "file", path: "/config.json" })).status,
          `${host} /config.json`,
        ).toBe(200);
        for (const file of own) {
          expect({
            host,
            file,
            status: (await answer({ method: "GET", query: "", category: "internal", path: `/${file}` })).status,
          }).toEqual({ host, file, status: 404 });
        }
      }
    }, 120_000);

    test("test/edge's generated requests (domain, outside it, methods, PATH_INFO) get the reference answer on every edge host", async () => {
      const reports = await compareHosts(site, generatedEdgeRequests(site.model, 40), referenceAnswer(site.model));
      console.log(summarizeEdge(`${name}, test/edge requests`, reports));
      for (const r of reports) {
        expect(r.compared, r.host).toBeGreaterThan(500);
        expect(r.mismatches.slice(0, 5), `${r.host}: differences from the reference`).toEqual([]);
      }
    }, 600_000);
  });
}
