// test/routes/hosts-key.test.ts
// The key of what the hosts' files are made from (src/hosts/record.ts: hostsKey) names each set's members by the sha1
// of their JSON, kept by the list: the same table gives the same key whether its lists are the ones hashed before or
// copies, and a table that differs in one member, one rule or one header gives another.

import { describe, expect, it } from "vitest";
import { hostsKey } from "../../src/hosts/record.js";
import type { RouteTable } from "../../src/routes/route-table.js";
import { buildRoutes } from "../../src/routes/build-routes.js";
import { makeSite } from "../helpers/site.js";

const keyOf = (table: RouteTable): string =>
  hostsKey({ table, service: "Indexer API", out: "dist" }, ["netlify"], "tool-1");

describe("the hosts' key", () => {
  const table = buildRoutes(makeSite()).table;
  const withSet = table.rules.findIndex((r) => Object.values(r.match).some((p) => "in" in p && p.in.length > 1));

  it("is the same for the same table, its lists hashed before or copied", () => {
    expect(withSet).toBeGreaterThanOrEqual(0);
    expect(keyOf(table)).toBe(keyOf(table));
    expect(keyOf(structuredClone(table))).toBe(keyOf(table));
  });

  it("differs for one member, one target or one header changed", () => {
    const base = keyOf(table);
    const member = structuredClone(table);
    const predicate = Object.values(member.rules[withSet]!.match).find((p) => "in" in p)! as { in: string[] };
    predicate.in[predicate.in.length - 1] += "x";
    expect(keyOf(member)).not.toBe(base);
    const target = structuredClone(table);
    target.rules[0]!.target += "x";
    expect(keyOf(target)).not.toBe(base);
    const header = structuredClone(table);
    header.rules[withSet]!.headers["X-Test"] = "1";
    expect(keyOf(header)).not.toBe(base);
    expect(hostsKey({ table, service: "Indexer API", out: "dist" }, ["apache"], "tool-1")).not.toBe(base);
  });
});
