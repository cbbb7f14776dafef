// test/preview/preview.slow.test.ts
// Builds a site into a temp folder, serves it with the preview on port 0 and checks answers over real HTTP
// against the reference answers: statuses, bodies, headers, extra/reordered/repeated parameters, plain files.

import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answer, answerText } from "../../src/php/answers.js";
import { build } from "../../src/pipeline/pipeline.js";
import type { SiteModel } from "../../src/model/types.js";
import { startPreview, type Preview } from "../../src/preview/server.js";
import { domainQueries, toSearch } from "../helpers/domain.js";
import { DEMO_CONTENT, haveRealFixtures, realFixture, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";

interface Served {
  status: number;
  body: string;
  headers: Headers;
}

async function serveSite(content: string): Promise<{
  out: string;
  model: SiteModel;
  preview: Preview;
  get: (p: string, init?: RequestInit) => Promise<Served>;
}> {
  const out = path.join(await tmpDir(), "dist");
  const { model } = await build({ content, out, sourceDateEpoch: TEST_EPOCH });
  const preview = await startPreview({ dir: out, port: 0, host: "127.0.0.1" });
  const get = async (p: string, init?: RequestInit): Promise<Served> => {
    const res = await fetch(new URL(p, preview.url), init);
    return { status: res.status, body: await res.text(), headers: res.headers };
  };
  return { out, model, preview, get };
}

/** What a client can see of an API answer. */
const visible = (s: Served) => ({
  status: s.status,
  body: s.body,
  type: s.headers.get("content-type"),
  cache: s.headers.get("cache-control"),
  cors: s.headers.get("access-control-allow-origin"),
});

function expected(model: SiteModel, search: string) {
  const a = answer(model, new Map(new URLSearchParams(search)));
  // Cache-Control by action, as behaviour.md lists it (kept apart from the code under test on purpose).
  const cache: Record<string, number> = {
    config: 3600,
    versionCheck: 900,
    icons: 86400,
    iconMappings: 86400,
    findIcon: 86400,
    extensionMappings: 86400,
    getExtensionSetting: 86400,
    configReference: 86400,
  };
  return {
    status: a.status,
    body: answerText(a),
    type: "application/json",
    cache: a.status === 200 && cache[a.kind] ? `public, max-age=${cache[a.kind]}` : null,
    cors: "*",
  };
}

describe("preview of the demo content", () => {
  let site: Awaited<ReturnType<typeof serveSite>>;
  beforeAll(async () => {
    site = await serveSite(DEMO_CONTENT);
  });
  afterAll(async () => {
    await site.preview.close();
    await removeDir(path.dirname(site.out));
  });

  it("prints a URL on 127.0.0.1 with the port it got", () => {
    expect(site.preview.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(site.preview.url).not.toContain(":0/");
  });

  it("answers every request of the precomputed domain like the reference (status, body, headers)", async () => {
    const queries = domainQueries(site.model);
    expect(queries.length).toBeGreaterThan(150);
    for (const q of queries) {
      const search = toSearch(q);
      expect(visible(await site.get(`/api.php?${search}`)), search).toEqual(expected(site.model, search));
    }
  });

  it("spot checks written by hand", async () => {
    const php = await site.get("/api.php?action=findIcon&type=file&extension=php");
    expect(php.status).toBe(200);
    expect(JSON.parse(php.body)).toEqual({
      success: true,
      type: "file",
      extension: "php",
      icon: {
        filename: "php.png",
        url: "https://icons.example.org/icons/php.png",
        path: "icons/php.png",
        size: 90,
        last_modified: Number(TEST_EPOCH),
      },
    });
    expect(php.headers.get("content-type")).toBe("application/json");
    expect(php.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(php.headers.get("access-control-allow-origin")).toBe("*");

    const missing = await site.get("/api.php?action=getExtensionSetting");
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.body)).toEqual({ error: "Extension parameter is required", status: 400 });
    expect(missing.headers.get("cache-control")).toBeNull();
  });

  it("ignores extra parameters and their order; the last repeated parameter wins", async () => {
    const base = visible(await site.get("/api.php?action=findIcon&type=file&extension=py"));
    expect(visible(await site.get("/api.php?_=1700000000&extension=py&foo=bar&type=file&action=findIcon"))).toEqual(
      base,
    );
    expect(visible(await site.get("/api.php?action=findIcon&type=file&extension=php&extension=py"))).toEqual(base);
    expect(visible(await site.get("/api.php?action=config&action=findIcon&type=file&extension=py&_=1"))).toEqual(base);
    const encoded = visible(await site.get("/api.php?action=findIcon&type=file&extension=%70%79"));
    expect(encoded).toEqual(base);
  });

  it("keeps 400/404 answers whole under Range and conditional requests", async () => {
    const plain = await site.get("/api.php?action=icon&name=nope.png");
    expect(plain.status).toBe(404);
    const ranged = await site.get("/api.php?action=icon&name=nope.png", { headers: { Range: "bytes=0-3" } });
    expect([ranged.status, ranged.body]).toEqual([404, plain.body]);
    const lastModified = plain.headers.get("last-modified") ?? new Date().toUTCString();
    const conditional = await site.get("/api.php?action=icon&name=nope.png", {
      headers: { "If-None-Match": "*", "If-Modified-Since": lastModified },
    });
    expect([conditional.status, conditional.body]).toEqual([404, plain.body]);
  });

  it("serves plain files byte for byte with their MIME types", async () => {
    const png = await fetch(new URL("/icons/php.png", site.preview.url));
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await png.arrayBuffer())).toEqual(await readFile(path.join(DEMO_CONTENT, "icons/php.png")));
    const svg = await site.get("/icons/css.svg");
    expect(svg.headers.get("content-type")).toBe("image/svg+xml");
    // mime-types' type, not the older one serve-handler bundles (image/x-icon).
    const ico = await site.get("/favicon/icon.ico");
    expect([ico.status, ico.headers.get("content-type")]).toEqual([200, "image/vnd.microsoft.icon"]);
    const css = await site.get("/style/demo.css");
    expect([css.status, css.headers.get("content-type")]).toEqual([200, "text/css; charset=utf-8"]);
    for (const file of ["config.json", "extensionMap.json", "icons.json", "config-reference.txt"]) {
      const served = await site.get(`/${file}`);
      expect(served.status).toBe(200);
      expect(served.body).toBe(await readFile(path.join(DEMO_CONTENT, file), "utf8"));
    }
    expect((await site.get("/manifest.json")).status).toBe(404);
    expect((await site.get("/icons/nope.png")).status).toBe(404);
  });

  it("serves the static answer paths with the API's headers, as a static host", async () => {
    const nginx = await startPreview({ dir: site.out, port: 0, host: "127.0.0.1", as: "nginx" });
    try {
      const get = async (p: string): Promise<Served> => {
        const res = await fetch(new URL(p, nginx.url));
        return { status: res.status, body: await res.text(), headers: res.headers };
      };
      const direct = await get("/api/findIcon/file/php.json");
      const routed = await get("/api.php?action=findIcon&extension=php");
      expect(visible(direct)).toEqual(visible(routed));
    } finally {
      await nginx.close();
    }
  });

  it("does not route other spellings of /api.php; /api.php/… is PHP's PATH_INFO (issue 27, defect 5)", async () => {
    expect((await site.get("/API.PHP?action=config")).status).toBe(404);
    expect((await site.get("/api.php/x?action=config")).status).toBe(200);
  });
});

describe.skipIf(!haveRealFixtures)("preview of the real fixture indexer-1.2.0-r2", () => {
  let site: Awaited<ReturnType<typeof serveSite>>;
  beforeAll(async () => {
    site = await serveSite(realFixture("indexer-1.2.0-r2"));
  });
  afterAll(async () => {
    await site.preview.close();
    await removeDir(path.dirname(site.out));
  });

  it("answers every request of the precomputed domain like the reference", async () => {
    const queries = domainQueries(site.model).map(toSearch);
    expect(queries.length).toBeGreaterThan(3000);
    const wrong: string[] = [];
    for (let i = 0; i < queries.length; i += 16) {
      await Promise.all(
        queries.slice(i, i + 16).map(async (search) => {
          const got = visible(await site.get(`/api.php?${search}`));
          if (JSON.stringify(got) !== JSON.stringify(expected(site.model, search))) wrong.push(search);
        }),
      );
    }
    expect(wrong.slice(0, 10)).toEqual([]);
  });
});
