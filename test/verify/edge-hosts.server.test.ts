// test/verify/edge-hosts.server.test.ts
// `verify` against the Netlify and Vercel edge outputs on their runtimes' harnesses, each as its deploy uploads it:
// Netlify's edge function under Deno (test/hosts/netlify-deno.ts) over .netlify/v1 and its publish folder, and
// Vercel's under edge-runtime (test/hosts/vercel-edge-runtime.ts) over .vercel/output. An edge-only build (no
// answer file): every request of the domain and beyond it must match, exit 0 under --strict.

import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { VERCEL_DIR } from "../../src/hosts/vercel/render.js";
import { layoutOf } from "../../src/layout/paths.js";
import { DEMO_CONTENT, removeDir } from "../helpers/fixtures.js";
import { skipReason } from "../helpers/needs.js";
import type { RunningServer } from "../hosts/servers.js";
import { startNetlifyDeno } from "../hosts/netlify-deno.js";
import { startVercelOutput } from "../hosts/vercel-edge-runtime.js";
import { buildSite, groupTable, runVerify, type Built, type JsonReport } from "./helpers.js";

let site: Built;
beforeAll(async () => {
  site = await buildSite(DEMO_CONTENT, ["netlify", "vercel"]);
});
afterAll(async () => {
  await removeDir(site.root);
});

/** verify --strict --json against `url`: the whole report must pass, exactly (the handler needs no fallback). */
async function expectExact(name: string, url: string): Promise<void> {
  const run = await runVerify([url, "--dir", site.out, "--strict", "--json"]);
  const report = JSON.parse(run.out) as JsonReport;
  console.log(`verify against ${name} (demo): ${report.checked} requests\n${groupTable(report)}`);
  expect(report.differences.slice(0, 10), run.out.slice(0, 2000)).toEqual([]);
  expect(run.code).toBe(0);
  expect(report.checked).toBe(report.requests);
  expect(report.beyondSkipped).toBeUndefined();
  expect(report.fallbacks).toEqual([]);
  expect(Object.values(report.groups).reduce((n, g) => n + g.beyond.total, 0)).toBeGreaterThan(20);
  for (const action of [
    "findIcon",
    "getExtensionSetting",
    "icon",
    "versionCheck",
    "config",
    "icons",
    "files",
    "pages",
  ]) {
    expect(report.groups[action]?.precomputed.total, action).toBeGreaterThan(0);
  }
}

describe.skipIf(skipReason("deno") !== undefined)("verify against Netlify's edge function under Deno", () => {
  let deno: RunningServer | undefined;
  beforeAll(async () => {
    deno = await startNetlifyDeno(site.root, layoutOf(site.out).host("netlify")); // its publish folder
  }, 60_000);
  afterAll(async () => deno?.stop());

  test("exit 0: the domain and beyond it, exactly (--strict)", () => expectExact("Netlify (Deno)", deno!.url), 60_000);
});

describe.skipIf(skipReason("edge-runtime") !== undefined)(
  "verify against Vercel's edge function under edge-runtime",
  () => {
    let vercel: RunningServer | undefined;
    beforeAll(async () => {
      vercel = await startVercelOutput(path.join(site.root, VERCEL_DIR));
    }, 60_000);
    afterAll(async () => vercel?.stop());

    test(
      "exit 0: the domain and beyond it, exactly (--strict)",
      () => expectExact("Vercel (edge-runtime)", vercel!.url),
      60_000,
    );
  },
);
