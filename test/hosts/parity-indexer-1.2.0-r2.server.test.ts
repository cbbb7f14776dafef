// test/hosts/parity-indexer-1.2.0-r2.server.test.ts
// The parity suite over the real fixture indexer-1.2.0-r2 (read in place; skipped where ../shared/fixtures is absent).

import { describe, expect, test } from "vitest";
import { haveRealFixtures, realFixture } from "../helpers/fixtures.js";
import { runParity, summarize } from "./parity.js";
import { notInstalled } from "./servers.js";

describe.skipIf(!haveRealFixtures)("host parity, indexer-1.2.0-r2", () => {
  test("every host answers like the preview, except its listed differences", async () => {
    const run = await runParity(realFixture("indexer-1.2.0-r2"), { membersPerSet: 6, netlifyEvery: 3 });
    console.log(summarize("indexer-1.2.0-r2", run));
    for (const r of run.reports) {
      expect(r.skipped, `${r.host} was not run`).toBe(notInstalled[r.host]);
      expect(r.unexpected.slice(0, 5), `${r.host}: unexpected differences`).toEqual([]);
    }
  }, 400_000);
});
