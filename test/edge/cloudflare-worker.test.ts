// test/edge/cloudflare-worker.test.ts
// The emitted Cloudflare `_worker.js` is the request-time handler: /api.php and /api.php/* answered exactly (as
// src/api + the PHP layer), internal files 404, everything else handed to the ASSETS binding untouched.

import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { phpRespond } from "../../src/api/php-request.js";
import { build } from "../../src/build.js";
import { WORKER_ROUTES } from "../../src/hosts/cloudflare.js";
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
const env = {
  ASSETS: {
    async fetch(request: Request): Promise<Response> {
      assetsAsked.push(new URL(request.url).pathname);
      return new Response("asset", { status: 200 });
    },
  },
};

beforeAll(async () => {
  root = await tmpDir("bis-cf-");
  const out = path.join(root, "dist");
  model = (await build({ content: DEMO_CONTENT, out, sourceDateEpoch: TEST_EPOCH, hosts: ["cloudflare"] })).model;
  const upload = layoutOf(out).host("cloudflare");
  worker = ((await import(pathToFileURL(path.join(upload, "_worker.js")).href)) as { default: Worker }).default;
  const routes = JSON.parse(await readFile(path.join(upload, "_routes.json"), "utf8")) as { include: string[] };
  expect(routes.include).toEqual([...WORKER_ROUTES]);
}, 60_000);

afterAll(async () => {
  await removeDir(root);
});

const ask = (url: string, method = "GET") => worker.fetch(new Request(`https://site.example${url}`, { method }), env);

describe("Cloudflare _worker.js", () => {
  test("answers /api.php outside the precomputed domain exactly (status, headers, body)", async () => {
    for (const [method, query] of [
      ["GET", "action=getExtensionSetting&extension=PHP&type=VIEWING"], ["GET", "action=versionCheck&current_version=v1.2.0"],
      ["GET", "action=versionCheck&current.version=9"], ["GET", "action=findIcon&extension=%FF"], ["OPTIONS", "action=config"],
      ["HEAD", "action=icons"], ["POST", "action=status"], ["GET", "action=icon&name[]=x"], ["GET", "action=%63onfig"],
    ] as const) {
      const res = await ask(`/api.php?${query}`, method);
      const want = expectedAnswer(model, { method, query });
      expect({ status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() }, `${method} ${query}`).toEqual({
        status: want.status,
        headers: Object.fromEntries(Object.entries(want.headers).map(([k, v]) => [k.toLowerCase(), v])),
        body: want.body,
      });
    }
    expect(await (await ask("/api.php/extra/path?action=config")).text()).toBe(phpRespond(model, "GET", "action=config").body);
    expect(assetsAsked).toEqual([]);
  });

  test("answers 404 for every internal file, and hands plain files to ASSETS", async () => {
    for (const f of INTERNAL_FILES) expect((await ask(`/${f}`)).status, f).toBe(404);
    expect((await ask("/%72outes.json")).status).toBe(404);
    expect(await (await ask("/icons/php.png")).text()).toBe("asset");
    expect(assetsAsked).toEqual(["/icons/php.png"]);
  });
});
