// test/unit/plan-paths.test.ts
// servedByEdge tells answers from the site's other files without making their paths (a ×100 site has 590,000):
// checked against the paths themselves, for every file of the demo site.

import { describe, expect, it } from "vitest";
import { compile } from "../../src/build.js";
import { servedByEdge } from "../../src/output/plan.js";
import { DEMO_CONTENT } from "../helpers/fixtures.js";

describe("servedByEdge", () => {
  it("agrees with each file's path: answers (all in api/) are not served by an edge host's upload, the rest are", async () => {
    const { site } = await compile({ content: DEMO_CONTENT, sourceDateEpoch: "1704067200" });
    expect(site.filter((f) => f.path.startsWith("api/")).length).toBeGreaterThan(100);
    expect(site.filter((f) => !f.path.startsWith("api/")).length).toBeGreaterThan(10);
    for (const f of site) expect(servedByEdge(f), f.path).toBe(!f.path.toLowerCase().startsWith("api/"));
  });
});
