// test/routes/routes-memo.test.ts
// What `dev` keeps of the route table between builds (src/routes/build-routes.ts: RoutesMemo): after any edit, a build
// that starts from the last build's memo gives the route table and every answer file of a build without one, and it
// keeps the lists of members exactly when the model's keys are unchanged. The same on disk, through dev's memo, is
// test/pipeline/incremental-property.ts.

import { describe, expect, it } from "vitest";
import type { SiteModel } from "../../src/model/types.js";
import { buildRoutes, RoutesMemo, type BuiltRoutes } from "../../src/routes/build-routes.js";
import { eachRound } from "../helpers/site-edits.js";
import { makeSite } from "../helpers/site.js";

/** Path → text of every answer file. */
const answers = (routes: BuiltRoutes): Map<string, string> =>
  new Map([...routes.files.outputs()].map((f) => [f.path, f.produce()]));

/** The members of findIcon's rule for lower-case extensions: the list the memo keeps, found by its identity. */
const findIconMembers = (routes: BuiltRoutes): unknown => {
  const predicate = routes.table.rules.find((r) => r.id === "findIcon.file")?.match.extension;
  return predicate !== undefined && "in" in predicate ? predicate.in : undefined;
};

const keysOf = (site: SiteModel): string =>
  JSON.stringify([
    [...site.extensionMap.indexing.keys()],
    [...site.extensionMap.viewing.keys()],
    [...site.iconMap.entries.keys()],
    [...site.iconDirFiles.keys()],
    site.versions,
  ]);

describe("the route table's memo", () => {
  it("gives what a build without it gives, after 300 random edits, and keeps its lists only for the same keys", () => {
    const memo = new RoutesMemo();
    let kept = 0;
    let made = 0;
    eachRound(3, 300, ({ before, edits, after }) => {
      const last = buildRoutes(before, memo);
      const now = buildRoutes(after, memo);
      const fresh = buildRoutes(after);
      const where = edits.map((e) => e.name).join("; ");
      expect(now.table, where).toEqual(fresh.table);
      expect(answers(now), where).toEqual(answers(fresh));
      expect(now.files.size, where).toBe(fresh.files.size);
      // The lists are the last build's own arrays when, and only when, the keys are the same.
      const same = keysOf(before) === keysOf(after);
      expect(findIconMembers(now) === findIconMembers(last), where).toBe(same);
      expect(findIconMembers(now)).toBeInstanceOf(Array);
      expect(findIconMembers(fresh) === findIconMembers(last)).toBe(false);
      if (same) kept++;
      else made++;
    });
    // Both paths are taken often: the test would say nothing if every edit changed the keys, or none did.
    expect(kept).toBeGreaterThan(50);
    expect(made).toBeGreaterThan(50);
  });

  it("binds each build's answers to its own model, never the memo's", () => {
    const memo = new RoutesMemo();
    const site = makeSite();
    buildRoutes(site, memo);
    const moved = buildRoutes(
      {
        ...site,
        iconMap: {
          ...site.iconMap,
          entries: new Map([...site.iconMap.entries].map(([k, v]) => [k, k === "php" ? "js.svg" : v])),
        },
      },
      memo,
    );
    expect(moved.files.get("/api/findIcon/file/php.json")?.body).toMatchObject({ icon: { filename: "js.svg" } });
    expect(buildRoutes(site, memo).files.get("/api/findIcon/file/php.json")?.body).toMatchObject({
      icon: { filename: "php.png" },
    });
  });
});
