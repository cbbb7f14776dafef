// test/edge/request-origin.test.ts
// `--base-url request` (issue 24 point 3): the handler answers with the request's own origin in every absolute URL,
// precomputed (whole-site) answers included, and its ETags stay correct strong validators (one ETag, one body).
// The expected bodies come from the oracle (test/edge/expected.ts: src/php's answers through the PHP request layer)
// over the site with the origin as its base URL; the handler rewrites precomputed bodies instead of recomputing them.

import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { baseUrlOffsets, baseUrlTemplate, edgeDataFiles } from "../../src/edge/data-files.js";
import { rebase, type CoreData } from "../../src/edge/data.js";
import { BUNDLE_PATH, type DataReader } from "../../src/edge/index.js";
import { TEMPLATE_KEPT_BYTES } from "../../src/edge/handler-data.js";
import { PIECE_BYTES } from "../../src/edge/rebase-stream.js";
import type { SiteModel } from "../../src/model/types.js";
import { compileContent, copyContent, DEMO_CONTENT, removeDir } from "../helpers/fixtures.js";
import { memoryReader } from "./data-reader.js";
import { expectedAnswer } from "./expected.js";
import { edgeRequests } from "./requests.js";

type Create = () => (request: Request, read: DataReader) => Promise<Response>;

const ORIGINS = ["https://deploy-preview-7--icons.netlify.app", "http://127.0.0.1:8788"];

let content = "";
let site: SiteModel;
/** The demo's base URL, read from its manifest (not from the code under test). */
let base = "";

beforeAll(async () => {
  // The content itself holds the base URL (config.json's access_url): that one is content, and is never rewritten.
  content = await copyContent(DEMO_CONTENT);
  base = (JSON.parse(await readFile(path.join(content, "manifest.json"), "utf8")) as { base_url: string }).base_url;
  const config = JSON.parse(await readFile(path.join(content, "config.json"), "utf8")) as {
    main: Record<string, unknown>;
  };
  config.main.access_url = `${base}/icons/php.png`;
  await writeFile(path.join(content, "config.json"), `${JSON.stringify(config, null, 4)}\n`);
  site = (await compileContent(content)).model;
});
afterAll(async () => removeDir(content));

describe("rebase", () => {
  const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
  const text = (b: Uint8Array): string => new TextDecoder().decode(b);
  test("replaces the given places only, of the given length in bytes", () => {
    expect(text(rebase(bytes("[AB, AB, xAB]"), [1, 5], 2, bytes("long")))).toBe("[long, long, xAB]");
    expect(text(rebase(bytes("AB"), [0], 2, bytes("")))).toBe("");
    expect(text(rebase(bytes("no places"), [], 2, bytes("zz")))).toBe("no places");
    // Offsets count bytes: "é" is two.
    expect(text(rebase(bytes("é AB é"), [3], 2, bytes("ü")))).toBe("é ü é");
  });
  test("matches a plain split and join, longer, shorter or as long, places at either end and side by side", () => {
    const base = "https://b.test";
    for (const by of ["https://a-much-longer-origin.example", "http://x", "https://c.test", ""]) {
      for (const pieces of [["", "", ""], ["a", "", "b"], ['{"u":"', '/i.png"},{"u":"', '/j"}'], ["only"]]) {
        const body = pieces.join(base);
        const at: number[] = [];
        for (let i = body.indexOf(base); i !== -1; i = body.indexOf(base, i + base.length)) at.push(i);
        expect(text(rebase(bytes(body), at, base.length, bytes(by)))).toBe(pieces.join(by));
      }
    }
  });
});

describe("the data files of --base-url request", () => {
  test("core.json says so; without it, nothing changes", () => {
    const core = (files: Array<{ path: string; data: string }>): CoreData =>
      JSON.parse(files.find((f) => f.path.endsWith("core.json"))!.data) as CoreData;
    const plain = edgeDataFiles(site);
    const request = edgeDataFiles(site, { requestOrigin: true });
    expect(core(plain).requestOrigin).toBeUndefined();
    expect(core(request).requestOrigin).toBe(true);
    // Only core.json and the templates differ: the bodies stay the answer files' bytes.
    const bodies = (files: Array<{ path: string; data: string }>) =>
      files.filter((f) => !f.path.endsWith("core.json") && !f.path.endsWith(".template"));
    expect(bodies(request)).toEqual(bodies(plain));
  });

  test("the offsets are the answer's URLs, not the content's copy of the base URL", () => {
    const config = expectedAnswer(site, { method: "GET", query: "action=config" }).body;
    expect(config).toContain(`${base}/icons/php.png`);
    expect(baseUrlOffsets(site, "config", config)).toEqual([]);
    const icons = expectedAnswer(site, { method: "GET", query: "action=icons" }).body;
    const at = baseUrlOffsets(site, "icons", icons);
    expect(at.length).toBe(site.iconDirFiles.size);
    const iconBytes = Buffer.from(icons);
    for (const i of at) expect(iconBytes.subarray(i - 8, i + base.length).toString()).toBe(`"url": "${base}`);
  });

  test("a template marks the same places: each icon's url, and only there", () => {
    const config = expectedAnswer(site, { method: "GET", query: "action=config" }).body;
    expect(baseUrlTemplate(site, "config", config)).toBeNull();
    const icons = expectedAnswer(site, { method: "GET", query: "action=icons" }).body;
    const pieces = baseUrlTemplate(site, "icons", icons)!.split("\u0000");
    expect(pieces.length - 1).toBe(site.iconDirFiles.size);
    for (const piece of pieces.slice(0, -1)) expect(piece.endsWith(`"url": "`), piece).toBe(true);
    expect(pieces.join(base)).toBe(icons);
  });
});

describe("the handler with --base-url request", () => {
  test("every edge request is answered as the oracle answers with the request's origin as the base URL", async () => {
    const bundle = (await import(pathToFileURL(BUNDLE_PATH).href)) as { createApiHandler: Create };
    const answer = bundle.createApiHandler();
    const read = memoryReader(site, { requestOrigin: true });
    const bodiesByEtag = new Map<string, Set<string>>();
    let rewritten = 0;
    let compared = 0;
    for (const r of edgeRequests(site)) {
      const got: Array<{ body: string; etag: string | null }> = [];
      for (const origin of [...ORIGINS, base]) {
        const res = await answer(new Request(`${origin}${r.url}`, { method: r.method }), read);
        const want = expectedAnswer({ ...site, baseUrl: origin }, r);
        const body = await res.text();
        const headers = Object.fromEntries(res.headers);
        const etag = headers.etag ?? null;
        delete headers.etag;
        const wantHeaders = Object.fromEntries(Object.entries(want.headers).map(([k, v]) => [k.toLowerCase(), v]));
        const wantEtag = wantHeaders.etag ?? null;
        delete wantHeaders.etag;
        expect({ status: res.status, headers, body }, `${origin} ${r.method} ${r.url}`).toEqual({
          status: want.status,
          headers: wantHeaders,
          body: want.body,
        });
        // An ETag where the oracle has one, strong; at the build's own base URL, the answer file's very ETag.
        expect(etag === null, `${origin} ${r.url}`).toBe(wantEtag === null);
        if (etag !== null) expect(etag).toMatch(/^"[^"]+"$/);
        if (origin === base) expect(etag).toBe(wantEtag);
        if (etag !== null && r.method === "GET")
          (bodiesByEtag.get(etag) ?? bodiesByEtag.set(etag, new Set()).get(etag)!).add(body);
        got.push({ body, etag });
        compared++;
      }
      if (r.method === "GET" && got[0]!.body !== got[2]!.body) {
        rewritten++;
        expect(new Set(got.map((g) => g.etag)).size, r.url).toBe(3);
      }
    }
    // One ETag, one body: a client revalidating with another origin's ETag never gets a 304 for other bytes.
    for (const [etag, bodies] of bodiesByEtag) expect(bodies.size, etag).toBe(1);
    expect(compared).toBeGreaterThan(2700);
    expect(rewritten).toBeGreaterThan(50);
  });

  test("the precomputed answers carry the origin: info, icons; and a revalidation is per origin", async () => {
    const bundle = (await import(pathToFileURL(BUNDLE_PATH).href)) as { createApiHandler: Create };
    const answer = bundle.createApiHandler();
    const read = memoryReader(site, { requestOrigin: true });
    const [a, b] = ORIGINS as [string, string];
    const get = async (origin: string, query: string, headers: Record<string, string> = {}) =>
      answer(new Request(`${origin}/api.php?${query}`, { headers }), read);
    const icons = (await (await get(a, "action=icons")).json()) as { icons: Array<{ url: string }> };
    expect(icons.icons.length).toBe(site.iconDirFiles.size);
    for (const icon of icons.icons) expect(icon.url.startsWith(`${a}/icons/`), icon.url).toBe(true);
    const info = (await (await get(b, "")).json()) as { icon_base_url: string };
    expect(info.icon_base_url).toBe(`${b}/icons/`);
    const config = (await (await get(b, "action=config")).json()) as { config: { main: { access_url: string } } };
    expect(config.config.main.access_url).toBe(`${base}/icons/php.png`);
    const etagA = (await get(a, "action=icons")).headers.get("etag")!;
    expect((await get(a, "action=icons", { "If-None-Match": etagA })).status).toBe(304);
    expect((await get(b, "action=icons", { "If-None-Match": etagA })).status).toBe(200);
  });

  test.each([
    [4000, "a template kept decoded", 1, false],
    [8000, "a template read for each body made", 4, false],
    [8000, "the same, its Content-Length known", 4, true],
  ])(
    "asked again and again from each origin, with %i more icons (%s), a whole answer is the same",
    async (extra, _, reads, sized) => {
      // The demo with more icon files (names of 1 to 4 UTF-8 bytes a character): its icons answer is a template read
      // in several pieces, of 0.6 or 1.2 MB. Sent as made the first time, kept from the second, sent as kept after.
      const many = await copyContent(content);
      const png = await readFile(path.join(many, "icons", "folder.png"));
      for (let i = 0; i < extra; i++) await writeFile(path.join(many, "icons", `extra-${i}-é€𝄞.png`), png);
      const site = (await compileContent(many)).model;
      await removeDir(many);
      const bundle = (await import(pathToFileURL(BUNDLE_PATH).href)) as { createApiHandler: Create };
      const answer = bundle.createApiHandler();
      const memory = memoryReader(site, { requestOrigin: true });
      // As the hosts serve it, with its Content-Length, or without (as the memory reader gives it).
      const sizedRead = async (p: string): Promise<Response> => {
        const res = await memory(p);
        const body = await res.arrayBuffer();
        return new Response(body, { status: res.status, headers: { "Content-Length": String(body.byteLength) } });
      };
      const read = sized ? Object.assign(sizedRead, { reads: memory.reads }) : memory;
      const core = JSON.parse(await (await read("/_edge-data/core.json")).text()) as CoreData;
      expect(core.whole.icons.templateFile).toBe(true);
      const bytes = (await (await read("/_edge-data/whole/icons.template")).arrayBuffer()).byteLength;
      expect(bytes).toBeGreaterThan(2 * PIECE_BYTES);
      expect(bytes <= TEMPLATE_KEPT_BYTES).toBe(reads === 1);
      read.reads.length = 0;
      const queries = ["action=icons", "action=iconMappings", "", "action=config"];
      const etags = new Map<string, string | null>();
      for (let round = 0; round < 4; round++)
        for (const origin of ORIGINS)
          for (const query of queries) {
            const res = await answer(new Request(`${origin}/api.php?${query}`), read);
            const want = expectedAnswer({ ...site, baseUrl: origin }, { method: "GET", query });
            expect([res.status, await res.text()], `round ${round} ${origin} ?${query}`).toEqual([200, want.body]);
            const key = `${origin} ${query}`;
            if (round === 0) etags.set(key, res.headers.get("etag"));
            else expect(res.headers.get("etag"), key).toBe(etags.get(key));
            const head = await answer(new Request(`${origin}/api.php?${query}`, { method: "HEAD" }), read);
            expect([head.status, await head.text()]).toEqual([200, ""]);
          }
      // Made for each origin's first two requests (kept from the second), read once when small.
      expect(read.reads.filter((p) => p.endsWith("icons.template")).length).toBe(reads);
    },
  );

  test("without --base-url request, the request's origin changes nothing", async () => {
    const bundle = (await import(pathToFileURL(BUNDLE_PATH).href)) as { createApiHandler: Create };
    const answer = bundle.createApiHandler();
    const read = memoryReader(site);
    for (const query of ["action=icons", "", "action=icon&name=php.png", "action=versionCheck&current_version=0.1"]) {
      const res = await answer(new Request(`${ORIGINS[0]}/api.php?${query}`), read);
      expect(await res.text(), query).toBe(expectedAnswer(site, { method: "GET", query }).body);
    }
  });
});
