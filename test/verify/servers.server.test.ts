// test/verify/servers.server.test.ts
// `verify` against real servers of a correct deploy exits 0: the static preview, `preview --edge`, nginx with the
// emitted configs (root = dist) and Apache (document root = its host folder, .htaccess included).

import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { layoutOf } from "../../src/layout/paths.js";
import { startPreview } from "../../src/preview/server.js";
import { DEMO_CONTENT, removeDir } from "../helpers/fixtures.js";
import { skipReason } from "../helpers/needs.js";
import { startApache } from "../hosts/servers.js";
import { buildSite, nginxFor, runVerify, type Built } from "./helpers.js";

let site: Built;

beforeAll(async () => {
  site = await buildSite(DEMO_CONTENT, ["apache", "nginx", "cloudflare"]);
});
afterAll(async () => {
  await removeDir(site.root);
});

interface Report {
  exitCode: number;
  requests: number;
  checked: number;
  differences: Array<{ scope: string; url: string; method: string; differences: string[] }>;
  fallbacks: Array<{ url: string; fallback: string }>;
}

/** Runs verify against `url` and expects a pass: no precomputed request differs. Returns the report. */
async function expectPass(url: string): Promise<Report> {
  const run = await runVerify([url, "--dir", site.out, "--json"]);
  const report = JSON.parse(run.out) as Report;
  expect(
    report.differences.filter((d) => d.scope === "precomputed"),
    run.out.slice(0, 2000),
  ).toEqual([]);
  expect(run.code).toBe(0);
  expect(report.checked).toBe(report.requests);
  // At least a file request and an icon request per icon of the content.
  expect(report.requests).toBeGreaterThan(2 * readdirSync(path.join(DEMO_CONTENT, "icons")).length);
  return report;
}

describe("verify against a correct deploy exits 0", () => {
  test("the static preview (route table)", async () => {
    const preview = await startPreview({ dir: site.out, port: 0, host: "127.0.0.1" });
    try {
      const run = await runVerify([preview.url, "--dir", site.out]);
      expect(run.code, run.out + run.err).toBe(0);
      expect(run.out).toMatch(/^OK: every precomputed request matches/m);
      await expectPass(preview.url);
    } finally {
      await preview.close();
    }
  });

  test("preview --edge (the emitted handler): beyond the domain too, exactly, under --strict", async () => {
    const preview = await startPreview({ dir: site.out, port: 0, host: "127.0.0.1", edge: true });
    try {
      const run = await runVerify([preview.url, "--dir", site.out, "--strict", "--json"]);
      const report = JSON.parse(run.out) as { exitCode: number; fallbacks: unknown[]; differences: unknown[] };
      expect(report.differences).toEqual([]);
      expect(report.fallbacks).toEqual([]); // the handler is exact: no fallback needed
      expect(run.code).toBe(0);
    } finally {
      await preview.close();
    }
  });

  test.skipIf(skipReason("nginx") !== undefined)("nginx with the emitted configs", async () => {
    const nginx = await nginxFor(path.join(layoutOf(site.out).host("nginx"), "root"), site.out); // its upload
    try {
      const report = await expectPass(nginx.url);
      expect(report.differences).toEqual([]);
      // nginx matches the raw query: the percent-encoded probe gets the unknown-value answer.
      expect(report.fallbacks.some((f) => f.fallback === "raw-query")).toBe(true);
    } finally {
      await nginx.stop();
    }
  });

  test.skipIf(skipReason("apache") !== undefined)("Apache with the emitted .htaccess", async () => {
    const apache = await startApache(layoutOf(site.out).host("apache"));
    try {
      const report = await expectPass(apache.url);
      // Beyond the domain, the one difference that no documented fallback explains: the emitted .htaccess adds the
      // action's Cache-Control to OPTIONS (the reference sends none with OPTIONS, reference-behaviour.md §9).
      expect(report.differences.map((d) => `${d.method} ${d.url.replace(/^http:\/\/[^/]+/, "")}`)).toEqual([
        "OPTIONS /api.php?action=icons",
      ]);
    } finally {
      await apache.stop();
    }
  });
});
