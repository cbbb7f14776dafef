// test/verify/workerd.server.test.ts
// `verify` against Cloudflare as the build emits it, on workerd: `wrangler dev` in the folder that holds --out, on the
// emitted Workers config (test/edge/wrangler.ts). The correct deploy exits 0, beyond the domain too under --strict
// (the handler is exact). Then a broken copy of the upload, served by workerd: one edge answer's body edited (its
// data file) and one icon removed from the assets, each reported with its URL, exit 1. Demo content: workerd is slow
// to start, so each site is one server.

import { existsSync } from "node:fs";
import { cp, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CLOUDFLARE_ASSETS } from "../../src/hosts/cloudflare/render.js";
import { layoutOf } from "../../src/layout/paths.js";
import { DEMO_CONTENT, removeDir, tmpDir } from "../helpers/fixtures.js";
import { skipReason } from "../helpers/needs.js";
import type { RunningServer } from "../hosts/servers.js";
import { startWrangler } from "../edge/wrangler.js";
import { buildSite, groupTable, runVerify, type Built, type JsonReport as Report } from "./helpers.js";

const edited = (body: string): string =>
  JSON.stringify({ ...(JSON.parse(body) as Record<string, unknown>), edited: true }, null, 2);

/** Edits config's answer where the handler reads it: its own data file, or inline in core.json (a small body). */
async function editConfigAnswer(data: string): Promise<void> {
  const own = path.join(data, "whole", "config.json");
  if (existsSync(own)) {
    await writeFile(own, edited(await readFile(own, "utf8")));
    return;
  }
  const core = JSON.parse(await readFile(path.join(data, "core.json"), "utf8")) as {
    whole: Record<string, { body?: string }>;
  };
  const config = core.whole.config;
  expect(config?.body, "config's body inline in core.json").toBeTypeOf("string");
  config!.body = edited(config!.body!);
  await writeFile(path.join(data, "core.json"), JSON.stringify(core));
}

describe.skipIf(skipReason("workerd") !== undefined)(
  "verify against workerd (wrangler dev on the emitted Workers config)",
  () => {
    let site: Built;
    let workerd: RunningServer | undefined;

    beforeAll(async () => {
      site = await buildSite(DEMO_CONTENT, ["cloudflare"]);
      workerd = await startWrangler(site.root);
    }, 120_000);
    afterAll(async () => {
      await workerd?.stop();
      await removeDir(site.root);
    });

    test("the deploy as emitted: exit 0, every request of the domain and beyond it matches (--strict)", async () => {
      const run = await runVerify([workerd!.url, "--dir", site.out, "--strict", "--json"]);
      const report = JSON.parse(run.out) as Report;
      console.log(`verify against workerd (demo): ${report.checked} requests\n${groupTable(report)}`);
      expect(report.differences.slice(0, 10), run.out.slice(0, 2000)).toEqual([]);
      expect(run.code).toBe(0);
      expect(report.checked).toBe(report.requests);
      // The handler is there, so the beyond-domain set was asked, and exactly (no static fallback).
      expect(report.beyondSkipped).toBeUndefined();
      expect(report.fallbacks).toEqual([]);
      const beyond = Object.values(report.groups).reduce((n, g) => n + g.beyond.total, 0);
      expect(beyond).toBeGreaterThan(20);
      for (const action of ["findIcon", "getExtensionSetting", "icon", "versionCheck", "config", "icons", "files"]) {
        expect(report.groups[action]?.precomputed.total, action).toBeGreaterThan(0);
      }
    }, 120_000);

    test("a broken copy on workerd (an edge answer's body edited, an icon missing): each reported with its URL, exit 1", async () => {
      const dir = await tmpDir("bis-verify-workerd-broken-");
      let broken: RunningServer | undefined;
      try {
        // The whole base folder (the redirected config points into the records), copied, not hard-linked: the breaks
        // below must not touch the build that --dir names.
        await cp(site.root, dir, { recursive: true, filter: (from) => path.basename(from) !== "state" });
        const assets = path.join(layoutOf(path.join(dir, "dist")).host("cloudflare"), CLOUDFLARE_ASSETS);
        await editConfigAnswer(path.join(assets, "_edge-data"));
        await rm(path.join(assets, "icons", "archive.png"));
        broken = await startWrangler(dir);
        const run = await runVerify([broken.url, "--dir", site.out, "--show", "100"]);
        const out = run.out.replaceAll(broken.url, "");
        expect(run.code, out).toBe(1);
        expect(out).toContain("GET /api.php?action=config\n    body $.edited: expected (absent), received true");
        expect(out).toContain("GET /icons/archive.png\n    status: expected 200, received 404");
        expect(out).toMatch(/^FAILED: 2 precomputed requests differ\b/m);
      } finally {
        await broken?.stop();
        await removeDir(dir);
      }
    }, 120_000);
  },
);
