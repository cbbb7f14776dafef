// test/edge/request-bodies.server.test.ts
// Every method the reference answers (it answers all but OPTIONS as GET, and ignores a body), sent again and again
// with and without a body, on each edge runtime: workerd (`wrangler dev` on the emitted Workers config), Deno
// (Netlify's edge function under test/hosts/netlify-deno.ts) and edge-runtime (Vercel's function behind its harness).
// Each answer must be the oracle's (test/edge/expected.ts: status, body, Content-Type, CORS). A handler that left a
// body unread lost workerd's connection now and then: the next request got wrangler's 503, or a GET hung.
// The real fixture when ../shared is there, else the demo content; loopback only, a bounded number of requests.

import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { VERCEL_DIR } from "../../src/hosts/vercel/render.js";
import type { SiteModel } from "../../src/model/types.js";
import { DEMO_CONTENT, haveRealFixtures, realFixture, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { skipReason } from "../helpers/needs.js";
import { startNetlifyDeno } from "../hosts/netlify-deno.js";
import { startVercelOutput } from "../hosts/vercel-edge-runtime.js";
import type { RunningServer } from "../hosts/servers.js";
import { expectedAnswer } from "./expected.js";
import { startWrangler } from "./wrangler.js";

/** Rounds of the sequence below: about 150 requests per runtime. */
const ROUNDS = 10;
/** A runtime's run stops at this many wrong answers (a hung request costs its timeout). */
const ENOUGH = 5;
const FORM = "action=config&name=x.png&extension=php";

/** One request of the sequence: a body (with its type) or none. The whole-site answers are streamed data files. */
const SEQUENCE: ReadonlyArray<{ method: string; query: string; body?: string; type?: string }> = [
  { method: "POST", query: "action=icons", body: FORM, type: "application/x-www-form-urlencoded" },
  { method: "POST", query: "action=icon&name=php.png" },
  { method: "POST", query: "action=icon&name=php.png", body: '{"action":"config"}', type: "application/json" },
  { method: "POST", query: "action=icons" },
  { method: "PUT", query: "action=iconMappings", body: "x".repeat(200_000), type: "text/plain" },
  { method: "DELETE", query: "action=icons" },
  { method: "PATCH", query: "action=findIcon&extension=php", body: FORM, type: "application/x-www-form-urlencoded" },
  { method: "GET", query: "action=icons" },
  { method: "DELETE", query: "action=config", body: "-", type: "text/plain" },
  { method: "HEAD", query: "action=icons" },
  { method: "OPTIONS", query: "action=icons", body: FORM, type: "application/x-www-form-urlencoded" },
  { method: "POST", query: "action=config" },
  { method: "POST", query: "action=extensionMappings&type=viewing", body: "" },
  { method: "GET", query: "action=icon&name=php.png" },
];

interface Site {
  root: string;
  siteDir: string;
  model: SiteModel;
}

let built: Promise<Site> | undefined;
const servers: RunningServer[] = [];

/** One build with every edge output, shared by the runtimes that run here. */
function site(): Promise<Site> {
  return (built ??= (async () => {
    const root = await tmpDir("bis-bodies-");
    const siteDir = path.join(root, "dist");
    const content = haveRealFixtures ? realFixture("indexer-1.2.0-r2") : DEMO_CONTENT;
    const hosts = ["netlify", "vercel", "cloudflare"] as const;
    const { model } = await build({ content, out: siteDir, sourceDateEpoch: TEST_EPOCH, hosts: [...hosts] });
    return { root, siteDir, model };
  })());
}

afterAll(async () => {
  for (const s of servers) await s.stop();
  if (built !== undefined) await removeDir((await built).root);
});

/** Sends the sequence ROUNDS times; returns each answer that is not the oracle's (at most ENOUGH). */
async function wrongAnswers(url: string, model: SiteModel): Promise<string[]> {
  const wrong: string[] = [];
  for (let round = 0; round < ROUNDS && wrong.length < ENOUGH; round++) {
    for (const r of SEQUENCE) {
      const name = `round ${round + 1}: ${r.method} ?${r.query}${r.body === undefined ? "" : ` with a ${r.body.length}-byte body`}`;
      const want = expectedAnswer(model, r);
      try {
        const res = await fetch(`${url}/api.php?${r.query}`, {
          method: r.method,
          body: r.body,
          headers: r.type === undefined ? {} : { "Content-Type": r.type },
          signal: AbortSignal.timeout(15_000),
        });
        const body = await res.text();
        const fields: string[] = [];
        if (res.status !== want.status) fields.push(`status ${res.status}, want ${want.status}`);
        if (body !== want.body) fields.push(`body ${JSON.stringify(body.slice(0, 120))}`);
        for (const header of ["Content-Type", "Access-Control-Allow-Origin"])
          if (res.headers.get(header) !== (want.headers[header] ?? null))
            fields.push(`${header}: ${res.headers.get(header)}`);
        if (fields.length > 0) wrong.push(`${name}: ${fields.join("; ")}`);
      } catch (error) {
        wrong.push(`${name}: ${String(error)}`);
      }
      if (wrong.length >= ENOUGH) break;
    }
  }
  return wrong;
}

const RUNTIMES: ReadonlyArray<[string, "workerd" | "deno" | "edge-runtime", (s: Site) => Promise<RunningServer>]> = [
  ["workerd (wrangler dev, Cloudflare)", "workerd", (s) => startWrangler(s.root)],
  ["Deno (Netlify's edge function)", "deno", (s) => startNetlifyDeno(s.root, s.siteDir)],
  ["edge-runtime (Vercel's edge function)", "edge-runtime", (s) => startVercelOutput(path.join(s.root, VERCEL_DIR))],
];

describe("every method, with and without a body, answered as GET again and again on each edge runtime", () => {
  for (const [name, need, start] of RUNTIMES) {
    test.skipIf(skipReason(need) !== undefined)(
      name,
      async () => {
        const s = await site();
        const server = await start(s);
        servers.push(server);
        expect(await wrongAnswers(server.url, s.model)).toEqual([]);
        await server.stop();
        servers.splice(servers.indexOf(server), 1);
      },
      240_000,
    );
  }
});
