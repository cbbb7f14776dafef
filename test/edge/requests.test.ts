// test/edge/requests.test.ts
// The generated edge requests cover every category the issue names, and the handler answers all of them exactly
// as the oracle (test/edge/expected.ts) says: the in-process counterpart of the host suites.

import { beforeAll, describe, expect, test } from "vitest";
import { pathToFileURL } from "node:url";
import { BUNDLE_PATH, type DataReader } from "../../src/edge/index.js";
import { memoryReader } from "./data-reader.js";
import type { SiteModel } from "../../src/model/types.js";
import { compileContent, DEMO_CONTENT } from "../helpers/fixtures.js";
import { expectedAnswer } from "./expected.js";
import { edgeRequests } from "./requests.js";

let site: SiteModel;
beforeAll(async () => {
  site = (await compileContent(DEMO_CONTENT)).model;
});

describe("edge requests", () => {
  test("cover the domain and every probe category, deterministically", () => {
    const requests = edgeRequests(site);
    const categories = new Set(requests.map((r) => r.category));
    for (const c of [
      "domain",
      "unknown-extension",
      "case",
      "type",
      "version",
      "icon-name",
      "php-get",
      "invalid-utf8",
      "method",
      "path-info",
    ]) {
      expect(categories.has(c), c).toBe(true);
    }
    expect(JSON.stringify(edgeRequests(site))).toBe(JSON.stringify(requests));
    const statuses = new Set(requests.map((r) => expectedAnswer(site, r).status));
    expect([...statuses].sort()).toEqual([200, 400, 404, 500]);
  });

  // The oracle is phpRespond itself: this checks what the bundle adds around it (URL → raw query, methods, PATH_INFO,
  // Response bodies and headers), on the artifact the hosts run.
  test("the handler bundle answers every one of them as the oracle, through Web Requests", async () => {
    const bundle = (await import(pathToFileURL(BUNDLE_PATH).href)) as {
      createApiHandler(): (r: Request, read: DataReader) => Promise<Response>;
    };
    const answer = bundle.createApiHandler();
    const read = memoryReader(site);
    const handler = (request: Request) => answer(request, read);
    let compared = 0;
    for (const r of edgeRequests(site)) {
      const res = await handler(new Request(`https://site.example${r.url}`, { method: r.method }));
      const want = expectedAnswer(site, r);
      const got = { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
      expect(got, `${r.method} ${r.url}`).toEqual({
        status: want.status,
        body: want.body,
        headers: Object.fromEntries(Object.entries(want.headers).map(([k, v]) => [k.toLowerCase(), v])),
      });
      compared++;
    }
    expect(compared).toBeGreaterThan(900);
  });
});
