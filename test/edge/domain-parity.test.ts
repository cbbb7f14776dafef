// test/edge/domain-parity.test.ts
// The handler (the bundle every edge host runs, and its source) answers every request of the precomputed domain
// (test/helpers/domain.ts, enumerated independently of the route builder) with exactly the built file and its
// route rule: status, headers, body. Demo content and both real fixtures.

import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import type { SiteModel } from "../../src/model/types.js";
import type { OutputFile } from "../../src/output/plan/files.js";
import { compileTable, matchRoute, parseQuery } from "../../src/routes/route-table.js";
import { BUNDLE_PATH, createApiHandler, type DataReader } from "../../src/edge/index.js";
import { memoryReader } from "./data-reader.js";
import { domainQueries, toSearch } from "../helpers/domain.js";
import { compileContent, DEMO_CONTENT, haveRealFixtures, realFixture, REAL_FIXTURES } from "../helpers/fixtures.js";
import { etagOf } from "./expected.js";

const fileText = (f: OutputFile): string => {
  const data = "data" in f ? f.data : "produce" in f ? f.produce() : null;
  if (typeof data !== "string") throw new Error(`${f.path} is not an answer file`);
  return data;
};

type Handler = (request: Request) => Promise<Response>;
type Create = () => (request: Request, read: DataReader) => Promise<Response>;

async function compareDomain(content: string): Promise<{ compared: number; mismatches: string[] }> {
  const { routes, site: files, model } = await compileContent(content);
  const byPath = new Map(files.map((f) => [`/${f.path}`, f]));
  // The data files as a host serves them: their text.
  const read = memoryReader(model);
  const bundled = (await import(pathToFileURL(BUNDLE_PATH).href)) as { createApiHandler: Create };
  const handlers: Array<[string, Handler]> = [
    ["source", createApiHandler],
    ["bundle", bundled.createApiHandler],
  ].map(([name, create]) => {
    const answer = (create as Create)();
    return [name as string, (request: Request) => answer(request, read)];
  });
  const table = compileTable(routes.table);
  const mismatches: string[] = [];
  let compared = 0;
  for (const q of domainQueries(model as SiteModel)) {
    const search = toSearch(q);
    const { rule, target } = matchRoute(table, parseQuery(search));
    const file = byPath.get(target);
    if (file === undefined) throw new Error(`no built file ${target} for ?${search}`);
    const want = { status: rule.status, headers: rule.headers, body: fileText(file) };
    for (const [name, handler] of handlers) {
      const res = await handler(new Request(`https://example.test/api.php?${search}`));
      const got = { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
      const wantHeaders = Object.fromEntries(Object.entries(want.headers).map(([k, v]) => [k.toLowerCase(), v]));
      wantHeaders["content-type"] ??= "application/json";
      Object.assign(
        wantHeaders,
        Object.fromEntries(Object.entries(etagOf(want)).map(([k, v]) => [k.toLowerCase(), v])),
      );
      if (
        got.status !== want.status ||
        got.body !== want.body ||
        JSON.stringify(sorted(got.headers)) !== JSON.stringify(sorted(wantHeaders))
      ) {
        mismatches.push(
          `${name} ?${search}: ${got.status} ${JSON.stringify(got.headers)} vs ${want.status} ${JSON.stringify(wantHeaders)}`,
        );
      }
      compared++;
    }
  }
  return { compared, mismatches };
}

const sorted = (h: Record<string, string>): Array<[string, string]> =>
  Object.entries(h).sort(([a], [b]) => (a < b ? -1 : 1));

describe("the handler answers the precomputed domain with the built files", () => {
  test("demo content: every domain request gets the built file's status, headers and body", async () => {
    const { compared, mismatches } = await compareDomain(DEMO_CONTENT);
    console.log(`edge domain parity, demo: ${compared - mismatches.length}/${compared}`);
    expect(mismatches.slice(0, 5)).toEqual([]);
    expect(compared).toBeGreaterThan(100);
  }, 120_000);

  for (const fixture of REAL_FIXTURES) {
    test.skipIf(!haveRealFixtures && !process.env.CI)(
      `${fixture}: every domain request gets the built file's status, headers and body`,
      async () => {
        const { compared, mismatches } = await compareDomain(realFixture(fixture));
        console.log(`edge domain parity, ${fixture}: ${compared - mismatches.length}/${compared}`);
        expect(mismatches.slice(0, 5)).toEqual([]);
        expect(compared).toBeGreaterThan(1000);
      },
      300_000,
    );
  }
});
