// test/hosts/protected.server.test.ts
// Behind a password-protected deploy preview, the Netlify and Vercel handlers still answer: their data reads (a fetch
// from the deploy's own origin) carry the client's Authorization and Cookie headers, and never re-enter the handler's
// own route (/api.php). The harnesses refuse every request without the Authorization header (401), as a protected
// preview does, and log what reached the edge function: a dropped header makes the answer a 502, a data read through
// /api.php shows up as one more call of the function than the client made.

import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import type { SiteModel } from "../../src/model/types.js";
import { DEMO_CONTENT, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import type { RunningServer } from "./servers.js";
import { expectedAnswer } from "../edge/expected.js";
import { startNetlifyDeno } from "./netlify-deno.js";
import { layoutOf } from "../../src/layout/paths.js";
import { startVercelOutput, type VercelHarnessLog } from "./vercel-edge-runtime.js";

const AUTH = "Basic cHJldmlldzpzZWNyZXQ=";
const COOKIE = "nf_jwt=abc; _vercel_jwt=def";
const QUERIES = [
  "action=icons",
  "action=findIcon&extension=php",
  "action=getExtensionSetting&extension=PHP&type=viewing",
  "action=icon&name=php.png",
  "action=extensionMappings&type=indexing",
  "action=config",
  "action=versionCheck&current_version=0.1",
];

let root = "";
let model: SiteModel;
let netlify: RunningServer | undefined;
let vercel: (RunningServer & { log: VercelHarnessLog }) | undefined;

beforeAll(async () => {
  root = await tmpDir("bis-protected-");
  const out = path.join(root, "dist");
  model = (await build({ content: DEMO_CONTENT, out, sourceDateEpoch: TEST_EPOCH, hosts: ["netlify", "vercel"] }))
    .model;
  netlify = await startNetlifyDeno(root, layoutOf(out).host("netlify"), { requireAuth: AUTH });
  vercel = await startVercelOutput(path.join(root, ".vercel/output"), { requireAuth: AUTH });
}, 60_000);

afterAll(async () => {
  await netlify?.stop();
  await vercel?.stop();
  await removeDir(root);
});

async function askAll(base: string): Promise<void> {
  for (const query of QUERIES) {
    const res = await fetch(`${base}/api.php?${query}`, { headers: { Authorization: AUTH, Cookie: COOKIE } });
    expect([res.status, await res.text()], query).toEqual([200, expectedAnswer(model, { method: "GET", query }).body]);
  }
  expect((await fetch(`${base}/api.php?action=icons`)).status, "the harness protects the deploy").toBe(401);
}

describe("a password-protected deploy preview", () => {
  test("Netlify (Deno): answered with the data read through the protected origin; the function runs only for the client's requests", async () => {
    await askAll(netlify!.url);
    const calls = (await (await fetch(`${netlify!.url}/__harness/calls`)).json()) as string[];
    expect(calls).toEqual(QUERIES.map(() => "/api.php"));
  });

  test("Vercel (edge-runtime): every data read carries Authorization and Cookie and is a static file, never /api.php", async () => {
    vercel!.log.requests.length = 0;
    await askAll(vercel!.url);
    const reads = vercel!.log.requests.filter((r) => !r.handler);
    expect(reads.length).toBeGreaterThan(0);
    for (const r of reads) {
      expect(r.path).toMatch(/^\/_edge-data\//);
      expect([r.authorization, r.cookie], r.path).toEqual([AUTH, COOKIE]);
    }
    // The function ran for the client's requests (and the unauthorized one, refused before it): nothing more.
    expect(vercel!.log.requests.filter((r) => r.handler)).toHaveLength(QUERIES.length + 1);
  });
});
