// test/hosts/request-origin.server.test.ts
// `--base-url request` on the hosts' own runtimes: the Netlify edge function under Deno, the Vercel edge function
// under edge-runtime and the Cloudflare Worker under workerd (wrangler dev, on the real fixture: its whole answers
// are files, read through the ASSETS binding and rebased) answer each request with its own origin in every absolute URL
// (icon_base_url, an icon's url, config_url), the precomputed whole-site answers included. Each harness is asked under two origins that reach it
// (127.0.0.1:<port> and localhost:<port>): the URLs follow the origin, and the ETag of each differs. With 4,000 more
// icons, the icons answer is made from its template, read in pieces, on Deno and edge-runtime too.

import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import type { SiteModel } from "../../src/model/types.js";
import {
  copyContent,
  DEMO_CONTENT,
  haveRealFixtures,
  realFixture,
  removeDir,
  TEST_EPOCH,
  tmpDir,
} from "../helpers/fixtures.js";
import { PIECE_BYTES } from "../../src/edge/rebase-stream.js";
import { skipReason } from "../helpers/needs.js";
import { startWrangler } from "../edge/wrangler.js";
import type { RunningServer } from "./servers.js";
import { expectedAnswer } from "../edge/expected.js";
import { startNetlifyDeno } from "./netlify-deno.js";
import { startVercelOutput } from "./vercel-edge-runtime.js";

const QUERIES = [
  "",
  "action=icons",
  "action=icon&name=php.png",
  "action=findIcon&extension=php",
  "action=versionCheck&current_version=0.1",
  "action=config",
  "action=extensionMappings&type=viewing",
];

let root = "";
let model: SiteModel;
let netlify: RunningServer | undefined;
let vercel: RunningServer | undefined;

beforeAll(async () => {
  root = await tmpDir("bis-request-origin-");
  const out = path.join(root, "dist");
  model = (
    await build({
      content: DEMO_CONTENT,
      out,
      sourceDateEpoch: TEST_EPOCH,
      hosts: ["netlify", "vercel"],
      requestOrigin: true,
    })
  ).model;
  netlify = await startNetlifyDeno(root, out);
  vercel = await startVercelOutput(path.join(root, ".vercel/output"));
}, 60_000);

afterAll(async () => {
  await netlify?.stop();
  await vercel?.stop();
  await removeDir(root);
});

/** Every string in a JSON value that looks like an absolute URL. */
function urls(value: unknown, found: string[] = []): string[] {
  if (typeof value === "string" && /^https?:\/\//.test(value)) found.push(value);
  else if (value !== null && typeof value === "object") for (const v of Object.values(value)) urls(v, found);
  return found;
}

async function askUnder(harness: RunningServer, site: SiteModel = model): Promise<void> {
  const port = new URL(harness.url).port;
  const origins = [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
  for (const query of QUERIES) {
    const seen: Array<{ body: string; etag: string | null }> = [];
    for (const origin of origins) {
      const res = await fetch(`${origin}/api.php?${query}`);
      const body = await res.text();
      // The oracle with the origin as the site's base URL: the same bytes.
      expect([res.status, body], `${origin} ?${query}`).toEqual([
        200,
        expectedAnswer({ ...site, baseUrl: origin }, { method: "GET", query }).body,
      ]);
      for (const url of urls(JSON.parse(body)))
        expect(url.startsWith(`${origin}/`), `${origin} ?${query}: ${url}`).toBe(true);
      seen.push({ body, etag: res.headers.get("etag") });
    }
    const hasUrls = urls(JSON.parse(seen[0]!.body)).length > 0;
    expect(seen[0]!.body !== seen[1]!.body, query).toBe(hasUrls);
    expect(seen[0]!.etag !== seen[1]!.etag, `ETags of ?${query}`).toBe(hasUrls);
  }
}

describe("--base-url request on the edge runtimes", () => {
  test("Netlify (Deno): each origin gets its own URLs, in computed and precomputed answers", async () => {
    await askUnder(netlify!);
  });
  test("Vercel (edge-runtime): each origin gets its own URLs, in computed and precomputed answers", async () => {
    await askUnder(vercel!);
  });
});

describe("--base-url request on Deno and edge-runtime, with 4,000 more icons", () => {
  test("whole answers made from their templates: the same bytes when asked a first, second and third time", async () => {
    // The demo with 4,000 more icon files: its icons template (~600 KB) is read in several pieces.
    const dir = await tmpDir("bis-request-origin-many-");
    const started: RunningServer[] = [];
    try {
      const content = await copyContent(DEMO_CONTENT);
      const png = await readFile(path.join(content, "icons", "folder.png"));
      for (let i = 0; i < 4000; i++) await writeFile(path.join(content, "icons", `extra-${i}.png`), png);
      const out = path.join(dir, "dist");
      const options = { content, out, sourceDateEpoch: TEST_EPOCH, hosts: ["netlify" as const, "vercel" as const] };
      const site = (await build({ ...options, requestOrigin: true })).model;
      await removeDir(content);
      expect((await stat(path.join(out, "_edge-data/whole/icons.template"))).size).toBeGreaterThan(2 * PIECE_BYTES);
      started.push(await startNetlifyDeno(dir, out), await startVercelOutput(path.join(dir, ".vercel/output")));
      // Sent as made, then kept, then sent as kept (src/edge/handler-data.ts): each time the oracle's bytes.
      for (const server of started) for (let round = 0; round < 3; round++) await askUnder(server, site);
    } finally {
      for (const server of started) await server.stop();
      await removeDir(dir);
    }
  }, 120_000);
});

describe.skipIf(skipReason("workerd") !== undefined || !haveRealFixtures)("--base-url request on workerd", () => {
  test("Cloudflare (wrangler dev): each origin gets its own URLs, whole answers rebased from their files", async () => {
    const dir = await tmpDir("bis-request-origin-workerd-");
    let server: RunningServer | undefined;
    try {
      const out = path.join(dir, "dist");
      const content = realFixture("indexer-1.2.0-r2");
      const options = {
        content,
        out,
        sourceDateEpoch: TEST_EPOCH,
        hosts: ["cloudflare" as const],
        requestOrigin: true,
      };
      const site = (await build(options)).model;
      server = await startWrangler(dir);
      await askUnder(server, site);
    } finally {
      await server?.stop();
      await removeDir(dir);
    }
  }, 120_000);
});
