// test/verify/static-server.server.test.ts
// `verify` against `npx serve dist` (the real `serve` package), a static file server that routes no query: every
// /api.php request gets serve's one 404 page. The report says what the target is, not a count of differing
// requests, and exits 1 (the deploy answers wrongly). The same site behind nginx with the emitted config is not
// taken for one.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_CONTENT, removeDir } from "../helpers/fixtures.js";
import { haveNginx, mustRunServers, type RunningServer } from "../hosts/servers.js";
import { startServe } from "../hosts/serve-static.js";
import { buildSite, nginxFor, runVerify, type Built } from "./helpers.js";

const SAID = "the server does not route /api.php: it looks like a static file server";

let site: Built;
let serve: RunningServer;
beforeAll(async () => {
  site = await buildSite(DEMO_CONTENT, ["netlify", "apache", "nginx", "vercel", "cloudflare"]);
  serve = await startServe(site.out);
}, 60_000);
afterAll(async () => {
  await serve?.stop();
  if (site !== undefined) await removeDir(site.root);
});

describe("verify against a static file server (npx serve dist)", () => {
  it("says the server does not route /api.php, and exits 1", async () => {
    const probe = await fetch(`${serve.url}api.php?action=info`);
    expect(probe.status).toBe(404); // what serve does with /api.php, whatever the query
    const run = await runVerify([serve.url, "--dir", site.out]);
    expect(run.code).toBe(1);
    expect(run.out).toContain(`FAILED: ${SAID}`);
    expect(run.out).toContain("deploy the host's config, or use preview");
    expect(run.out).not.toMatch(/precomputed requests? differ/);
    // The 404 is shown once, as the evidence, not once per request.
    expect(run.out.match(/GET http:\/\/127\.0\.0\.1:\d+\/api\.php/g)).toHaveLength(1);
    const json = JSON.parse((await runVerify([serve.url, "--dir", site.out, "--json"])).out) as {
      exitCode: number;
      unrouted?: string;
    };
    expect(json).toMatchObject({ exitCode: 1, unrouted: expect.stringContaining(SAID) as string });
  }, 120_000);

  it.skipIf(!haveNginx && !mustRunServers)(
    "a deploy that routes /api.php is not taken for one",
    async () => {
      const nginx = await nginxFor(site.out, site.out);
      try {
        const json = JSON.parse((await runVerify([nginx.url, "--dir", site.out, "--json"])).out) as {
          unrouted?: string;
        };
        expect(json.unrouted).toBeUndefined();
      } finally {
        await nginx.stop();
      }
    },
    120_000,
  );
});
