// test/routes/route-table.test.ts
// The evaluator's semantics on small tables, and the built table checked against the reference answers.

import { describe, expect, it } from "vitest";
import { answer, answerHeaders, answerText } from "../../src/php/answers.js";
import { buildRoutes } from "../../src/routes/build-routes.js";
import { compileTable, matchRoute, parseQuery, type Rule, type RouteTable } from "../../src/routes/route-table.js";
import type { SiteModel } from "../../src/model/types.js";
import { compileContent, DEMO_CONTENT, haveRealFixtures, realFixture, REAL_FIXTURES } from "../helpers/fixtures.js";
import { domainQueries, knownExtensions, type DomainQuery } from "../helpers/domain.js";
import { makeSite } from "../helpers/site.js";

const rule = (id: string, match: Rule["match"], target = `/${id}.json`): Rule => ({
  id,
  match,
  target,
  status: 200,
  headers: {},
});
const table = (rules: Rule[]): RouteTable => ({
  version: 1,
  entry: "/api.php",
  duplicateKeys: "last",
  valueCharset: "",
  rules,
});

describe("matchRoute semantics", () => {
  const t = compileTable(
    table([
      rule("a-empty", { action: { eq: "a" }, v: { eq: "" } }),
      rule("a-known", { action: { eq: "a" }, v: { in: ["x", "y"] } }, "/a/{v}.json"),
      rule("a-case", { action: { eq: "a" }, v: { in: ["k"], ignoreCase: true } }, "/a/k/{v}.json"),
      rule("a-any", { action: { eq: "a" }, v: { present: true } }),
      rule("a-absent", { action: { eq: "a" } }),
      rule("all", {}),
    ]),
  );
  const id = (search: string): string => matchRoute(t, parseQuery(search)).rule.id;
  const target = (search: string): string => matchRoute(t, parseQuery(search)).target;

  it("takes the first matching rule, with absence expressed by order", () => {
    expect(id("action=a&v=x")).toBe("a-known");
    expect(target("action=a&v=y")).toBe("/a/y.json");
    expect(id("action=a&v=z")).toBe("a-any");
    expect(id("action=a")).toBe("a-absent");
    expect(id("action=b&v=x")).toBe("all");
    expect(id("")).toBe("all");
  });
  it("tells an empty value from an absent one, and a bare key is empty", () => {
    expect(id("action=a&v=")).toBe("a-empty");
    expect(id("action=a&v")).toBe("a-empty");
  });
  it("ignores other parameters and their order; the last duplicate wins", () => {
    expect(id("_=1&v=x&foo=bar&action=a")).toBe("a-known");
    expect(id("action=a&v=z&v=x")).toBe("a-known");
    expect(id("action=a&v=x&v=z")).toBe("a-any");
    expect(id("action=b&action=a")).toBe("a-absent");
  });
  it("form-decodes values and compares them case-sensitively unless told otherwise", () => {
    expect(id("action=%61&v=%78")).toBe("a-known");
    expect(id("action=A&v=x")).toBe("all");
    expect(id("action=a&v=X")).toBe("a-any");
    expect(target("action=a&v=K")).toBe("/a/k/k.json");
  });
  it("refuses tables of another version", () => {
    expect(() => compileTable({ ...table([]), version: 2 as 1 })).toThrow(/version 2/);
  });
});

/** Checks that the table answers every domain query exactly as the reference would. */
function checkDomain(site: SiteModel, queries: DomainQuery[]): void {
  const { table: t, files } = buildRoutes(site);
  const compiled = compileTable(t);
  const wrong: string[] = [];
  for (const q of queries) {
    const query = new Map(Object.entries(q));
    const { rule: r, target } = matchRoute(compiled, query);
    const want = answer(site, query);
    const served = files.get(target);
    if (served === undefined) wrong.push(`${JSON.stringify(q)}: ${r.id} → ${target} has no file`);
    else if (
      answerText(served) !== answerText(want) ||
      r.status !== want.status ||
      JSON.stringify(r.headers) !== JSON.stringify(answerHeaders(want))
    ) {
      wrong.push(`${JSON.stringify(q)}: ${r.id} → ${target} differs from the reference`);
    }
  }
  expect(wrong.slice(0, 20)).toEqual([]);
}

describe("the built table answers the precomputed domain exactly", () => {
  it("for a hand-made site", () => {
    const site = makeSite();
    const queries = domainQueries(site);
    expect(queries.length).toBeGreaterThan(60);
    checkDomain(site, queries);
  });

  it("for the demo content", async () => {
    const { model } = await compileContent(DEMO_CONTENT);
    checkDomain(model, domainQueries(model));
  });

  it.skipIf(!haveRealFixtures).each(REAL_FIXTURES)("for the real fixture %s", async (name) => {
    const { model } = await compileContent(realFixture(name));
    const queries = domainQueries(model);
    expect(queries.length).toBeGreaterThan(3000);
    checkDomain(model, queries);
  });

  it('also exactly for case variants of getExtensionSetting, type="", and UPPER/Capitalized findIcon', () => {
    const site = makeSite();
    const queries: DomainQuery[] = [];
    for (const e of knownExtensions(site)) {
      const upper = e.toUpperCase();
      const cap = e.charAt(0).toUpperCase() + e.slice(1);
      for (const v of [upper, cap, e.replace(/^./, (c) => c.toUpperCase()).replace(/.$/, (c) => c.toUpperCase())]) {
        queries.push(
          { action: "getExtensionSetting", extension: v },
          { action: "getExtensionSetting", extension: v, type: "viewing" },
        );
      }
      queries.push({ action: "getExtensionSetting", extension: e, type: "" });
      queries.push({ action: "findIcon", extension: upper }, { action: "findIcon", type: "file", extension: cap });
    }
    checkDomain(site, queries);
  });
});

describe("keys that differ only in case across files", () => {
  // "TXT" in extensionMap.json and "txt" in icons.json are different keys for different lookups: both are known
  // extensions, and the answers that echo them must not share a file name on a case-insensitive file system.
  const base = makeSite();
  const indexing = new Map([...base.extensionMap.indexing, ["TXT", "index_txt"]]);
  const entries = new Map([...base.iconMap.entries, ["txt", "js.svg"]]);
  const site = makeSite({
    extensionMap: { ...base.extensionMap, indexing, indexingJson: new Map(indexing) },
    iconMap: { ...base.iconMap, entries, json: new Map(entries) },
  });

  it("get files that differ in more than case", () => {
    const paths = [...buildRoutes(site).files.keys()];
    const lower = new Set(paths.map((p) => p.toLowerCase()));
    expect(lower.size).toBe(paths.length);
    expect(paths).toContain("/api/findIcon/folder-upper/TXT.json");
    expect(paths).toContain("/api/findIcon/folder/txt.json");
  });

  it("are still answered exactly", () => {
    checkDomain(site, domainQueries(site));
  });
});

describe("fallbacks outside the domain keep the fields a client acts on", () => {
  const site = makeSite();
  const { table: t, files } = buildRoutes(site);
  const compiled = compileTable(t);
  const serve = (search: string): { status: number; body: Record<string, unknown> } => {
    const { rule: r, target } = matchRoute(compiled, parseQuery(search));
    return { status: r.status, body: JSON.parse(answerText(files.get(target)!)) as Record<string, unknown> };
  };
  const reference = (search: string) => {
    const a = answer(site, parseQuery(search));
    return { status: a.status, body: JSON.parse(answerText(a)) as Record<string, unknown> };
  };
  const odd = ["zzz", "pHp", "JsX", "ph p", "../php", "%", "php.", "é", "a".repeat(300), "folder", "FILE"];

  it.each(odd)("findIcon with extension %j gets the reference's icon", (e) => {
    for (const type of ["", "&type=file", "&type=other"]) {
      const search = `action=findIcon${type}&extension=${encodeURIComponent(e)}`;
      const [got, want] = [serve(search), reference(search)];
      expect(got.status).toBe(want.status);
      expect(got.body.icon).toEqual(want.body.icon);
    }
  });
  it.each(odd)("getExtensionSetting with extension %j gets the reference's setting and found", (e) => {
    for (const type of ["", "&type=indexing", "&type=viewing", "&type=x", "&type="]) {
      const search = `action=getExtensionSetting${type}&extension=${encodeURIComponent(e)}`;
      const [got, want] = [serve(search), reference(search)];
      expect([got.status, got.body.setting, got.body.found]).toEqual([want.status, want.body.setting, want.body.found]);
    }
  });
  it("an unknown version is told to update, with the config URL", () => {
    const got = serve("action=versionCheck&current_version=9.9-unknown");
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      update_needed: true,
      latest_version: "1.2.0-r2",
      config_url: "https://icons.example.org/api.php?action=config",
      current_version: "",
    });
  });
  it("an unknown icon name is not found", () => {
    expect(serve("action=icon&name=nope.png")).toEqual({ status: 404, body: { error: "Icon not found", status: 404 } });
  });
});

describe("compareBytes", () => {
  it("orders by UTF-8 bytes, also where UTF-16 order differs", async () => {
    const { compareBytes } = await import("../../src/model/types.js");
    expect(["ada.png", "ada-body.png", "Z.png", "a.png"].sort(compareBytes)).toEqual([
      "Z.png",
      "a.png",
      "ada-body.png",
      "ada.png",
    ]);
    // U+FF5E (EF BD 9E) sorts before U+1F600 (F0 9F 98 80) in bytes, after it in UTF-16 units (D83D DE00).
    expect(["\u{1F600}", "\uFF5E"].sort(compareBytes)).toEqual(["\uFF5E", "\u{1F600}"]);
    expect(["\u{1F600}", "\uFF5E"].sort()).toEqual(["\u{1F600}", "\uFF5E"]);
  });

  it("sortBytes gives compareBytes' order, with and without units from a surrogate up", async () => {
    const { compareBytes, sortBytes } = await import("../../src/model/types.js");
    const ascii = ["ada.png", "ada-body.png", "Z.png", "a.png", "~63", "0"];
    expect(sortBytes([...ascii])).toEqual([...ascii].sort(compareBytes));
    const high = [...ascii, "\u{1F600}", "\uFF5E", "\u00E9", "\uE000"];
    expect(sortBytes([...high])).toEqual([
      "0",
      "Z.png",
      "a.png",
      "ada-body.png",
      "ada.png",
      "~63",
      "\u00E9",
      "\uE000",
      "\uFF5E",
      "\u{1F600}",
    ]);
  });
});
