// test/hosts/parity-demo.server.test.ts
// The parity suite over the bundled demo content: every host answers every generated request like the preview.

import { describe, expect, test } from "vitest";
import { DEMO_CONTENT } from "../helpers/fixtures.js";
import { runParity, summarize } from "./parity.js";
import { notInstalled } from "./servers.js";

describe("host parity, demo content", () => {
  test("every host answers like the preview, except its listed differences", async () => {
    const run = await runParity(DEMO_CONTENT, { membersPerSet: 1000, netlifyEvery: 1 });
    console.log(summarize("demo", run));
    for (const r of run.reports) {
      expect(r.skipped, `${r.host} was not run`).toBe(notInstalled[r.host]);
      expect(r.unexpected.slice(0, 5), `${r.host}: unexpected differences`).toEqual([]);
    }
  }, 300_000);
});
