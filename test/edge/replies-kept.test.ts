// test/edge/replies-kept.test.ts
// The handler keeps the replies of computed answers (by origin and raw query) for later requests: asked again, by
// GET, HEAD, a revalidation or POST, from the base URL or (--base-url request) another origin, every answer is still
// the oracle's, headers included; and past the number kept, the oldest are made again, the same.

import { describe, expect, test } from "vitest";
import { createApiHandler } from "../../src/edge/handler.js";
import type { SiteModel } from "../../src/model/types.js";
import { compileContent, DEMO_CONTENT } from "../helpers/fixtures.js";
import { memoryReader } from "./data-reader.js";
import { expectedAnswer } from "./expected.js";

type Method = "GET" | "HEAD" | "POST";

async function ask(
  answer: ReturnType<typeof createApiHandler>,
  read: ReturnType<typeof memoryReader>,
  url: string,
  method: Method,
  headers: Record<string, string> = {},
) {
  const res = await answer(new Request(url, { method, headers }), read);
  return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
}

describe("computed replies kept by the handler", () => {
  test("a query asked again, by any method, from either origin, is answered as the oracle answers it", async () => {
    const site: SiteModel = (await compileContent(DEMO_CONTENT)).model;
    const extensions = [...site.iconMap.entries.keys()].slice(0, 30);
    const queries = [
      ...extensions.map((e) => `action=findIcon&extension=${encodeURIComponent(e)}`),
      ...extensions.map((e) => `action=getExtensionSetting&extension=${encodeURIComponent(e)}`),
      "action=findIcon",
      "action=icon&name=php.png",
      "action=icon&name=missing.png",
      "action=versionCheck&current_version=0.1",
      "action=nope",
    ];
    for (const requestOrigin of [false, true]) {
      const read = memoryReader(site, { requestOrigin });
      const answer = createApiHandler();
      const origins = requestOrigin ? [site.baseUrl, "http://127.0.0.1:8788"] : [site.baseUrl];
      for (let round = 0; round < 2; round++)
        for (const query of queries)
          for (const origin of origins)
            for (const method of ["GET", "HEAD", "POST"] as const) {
              const got = await ask(answer, read, `${origin}/api.php?${query}`, method);
              const want = expectedAnswer({ ...site, baseUrl: origin }, { method, query });
              expect([got.status, got.body], `${method} ${origin} ?${query}`).toEqual([want.status, want.body]);
              // Under another origin a rebased whole answer's ETag is its own (request-origin.test.ts); else the oracle's.
              const etag = origin === site.baseUrl ? want.headers.ETag : got.headers.etag;
              expect(got.headers.etag, `${method} ${origin} ?${query}`).toBe(etag);
              expect(got.headers.etag === undefined, `${method} ${origin} ?${query}`).toBe(
                want.headers.ETag === undefined,
              );
              if (etag === undefined || method !== "GET") continue;
              const again = await ask(answer, read, `${origin}/api.php?${query}`, "GET", { "If-None-Match": etag });
              expect([again.status, again.body, again.headers["content-type"]]).toEqual([304, "", undefined]);
            }
    }
  });

  test("past the number kept, the oldest replies are made again, the same", async () => {
    const site: SiteModel = (await compileContent(DEMO_CONTENT)).model;
    const read = memoryReader(site);
    const answer = createApiHandler();
    const query = (i: number) => `action=versionCheck&current_version=0.${i}`;
    for (let i = 0; i < 2100; i++) await ask(answer, read, `${site.baseUrl}/api.php?${query(i)}`, "GET");
    for (const i of [0, 1, 2099]) {
      const got = await ask(answer, read, `${site.baseUrl}/api.php?${query(i)}`, "GET");
      expect(got.body).toBe(expectedAnswer(site, { method: "GET", query: query(i) }).body);
    }
  });
});
