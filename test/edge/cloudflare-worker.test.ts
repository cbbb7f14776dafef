// test/edge/cloudflare-worker.test.ts
// The emitted Cloudflare worker (worker/index.js) is the request-time handler: /api.php and /api.php/* answered
// exactly (as src/php + the PHP layer) from data files it reads through the ASSETS binding (here a binding over the
// emitted assets folder), internal files 404, everything else handed to the ASSETS binding untouched.

import { readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { phpRespond } from "../../src/php/php-request.js";
import { build } from "../../src/pipeline/pipeline.js";
import {
  CLOUDFLARE_ASSETS,
  CLOUDFLARE_CONFIG,
  CLOUDFLARE_ENTRY,
  WORKER_ROUTES,
} from "../../src/hosts/cloudflare/render.js";
import type { SiteModel } from "../../src/model/types.js";
import { INTERNAL_FILES } from "../../src/routes/internal-files.js";
import { DEMO_CONTENT, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { layoutOf } from "../../src/layout/paths.js";
import { expectedAnswer } from "./expected.js";

interface Worker {
  fetch(request: Request, env: { ASSETS: { fetch(request: Request): Promise<Response> } }): Promise<Response>;
}

let root = "";
let worker: Worker;
let model: SiteModel;
const assetsAsked: string[] = [];
let assetsDir = "";
const env = {
  ASSETS: {
    async fetch(request: Request): Promise<Response> {
      const pathname = new URL(request.url).pathname;
      assetsAsked.push(pathname);
      if (!pathname.startsWith("/_edge-data/")) return new Response("asset", { status: 200 });
      const data = await readFile(path.join(assetsDir, pathname)).catch(() => null);
      return data === null ? new Response("Not Found", { status: 404 }) : new Response(data);
    },
  },
};

beforeAll(async () => {
  root = await tmpDir("bis-cf-");
  const out = path.join(root, "dist");
  model = (await build({ content: DEMO_CONTENT, out, sourceDateEpoch: TEST_EPOCH, hosts: ["cloudflare"] })).model;
  const upload = layoutOf(out).host("cloudflare");
  assetsDir = path.join(upload, CLOUDFLARE_ASSETS);
  worker = ((await import(pathToFileURL(path.join(upload, CLOUDFLARE_ENTRY)).href)) as { default: Worker }).default;
  const config = JSON.parse(await readFile(path.join(upload, CLOUDFLARE_CONFIG), "utf8")) as Record<string, unknown>;
  expect(config).toMatchObject({
    main: CLOUDFLARE_ENTRY,
    no_bundle: true,
    assets: { directory: CLOUDFLARE_ASSETS, binding: "ASSETS", run_worker_first: [...WORKER_ROUTES] },
  });
  // Pages' files are not emitted; the assets folder holds what is served (and _headers, which Cloudflare reads).
  for (const f of ["_worker.js", "_routes.json"])
    expect(existsSync(path.join(upload, f)) || existsSync(path.join(assetsDir, f)), f).toBe(false);
  expect(existsSync(path.join(assetsDir, "icons/php.png"))).toBe(true);
  expect(existsSync(path.join(assetsDir, "_edge-data/core.json"))).toBe(true);
}, 60_000);

afterAll(async () => {
  await removeDir(root);
});

const ask = (url: string, method = "GET") => worker.fetch(new Request(`https://site.example${url}`, { method }), env);

describe("Cloudflare _worker.js", () => {
  test("answers /api.php outside the precomputed domain exactly (status, headers, body)", async () => {
    for (const [method, query] of [
      ["GET", "action=getExtensionSetting&extension=PHP&type=VIEWING"],
      ["GET", "action=versionCheck&current_version=v1.2.0"],
      ["GET", "action=versionCheck&current.version=9"],
      ["GET", "action=findIcon&extension=%FF"],
      ["OPTIONS", "action=config"],
      ["HEAD", "action=icons"],
      ["POST", "action=status"],
      ["GET", "action=icon&name[]=x"],
      ["GET", "action=%63onfig"],
    ] as const) {
      const res = await ask(`/api.php?${query}`, method);
      const want = expectedAnswer(model, { method, query });
      expect(
        { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() },
        `${method} ${query}`,
      ).toEqual({
        status: want.status,
        headers: Object.fromEntries(Object.entries(want.headers).map(([k, v]) => [k.toLowerCase(), v])),
        body: want.body,
      });
    }
    expect(await (await ask("/api.php/extra/path?action=config")).text()).toBe(
      phpRespond(model, "GET", "action=config").body,
    );
    // The API asked the binding for data files only, and each once (kept for the isolate's life).
    expect(assetsAsked.length).toBeGreaterThan(0);
    for (const p of assetsAsked) expect(p).toMatch(/^\/_edge-data\//);
    expect(new Set(assetsAsked).size).toBe(assetsAsked.length);
    assetsAsked.length = 0;
  });

  test("answers 404 for every internal file, and hands plain files to ASSETS", async () => {
    for (const f of INTERNAL_FILES) expect((await ask(`/${f}`)).status, f).toBe(404);
    expect((await ask("/%72outes.json")).status).toBe(404);
    expect(await (await ask("/icons/php.png")).text()).toBe("asset");
    expect(assetsAsked).toEqual(["/icons/php.png"]);
  });
});
