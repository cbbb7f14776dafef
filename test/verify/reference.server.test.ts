// test/verify/reference.server.test.ts
// `verify` against the reference PHP service itself (../shared/reference, under `php -S`), over both real fixtures:
// every precomputed request passes. The PHP service is detected (X-Powered-By): plain files by bytes and status.

import { afterAll, describe, expect, test } from "vitest";
import { REAL_FIXTURES, realFixture, removeDir, tmpDir } from "../helpers/fixtures.js";
import { skipReason } from "../helpers/needs.js";
import { startReference as startService } from "../helpers/reference.js";
import { buildSite, runVerify, type Built } from "./helpers.js";

const skip = skipReason("shared") ?? skipReason("php");
const cleanup: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

interface Report {
  exitCode: number;
  reference: boolean;
  requests: number;
  checked: number;
  groups: Record<
    string,
    { precomputed: { pass: number; total: number }; beyond: { pass: number; fallback: number; total: number } }
  >;
  differences: Array<{ scope: string; method: string; url: string; differences: string[] }>;
}

/** The reference service over a copy of `content` (two php -S workers): its URL; stopped after the suite. */
async function startReference(content: string): Promise<string> {
  const run = await tmpDir("bis-reference-");
  const service = await startService(content, run, 2);
  cleanup.push(async () => {
    await service.stop();
    await removeDir(run);
  });
  return service.url;
}

describe.skipIf(skip !== undefined).each(REAL_FIXTURES)("verify against the reference PHP service: %s", (fixture) => {
  test("every precomputed request passes; exit 0", async () => {
    // Built with the reference's base URL (every absolute URL in its answers uses it), the content's file times
    // (the service reports them as last_modified), and the edge handler.
    const site: Built = await buildSite(realFixture(fixture), ["cloudflare"], {
      baseUrl: "https://api.indexer.ccls.icu",
      fileTimes: true,
    });
    cleanup.push(() => removeDir(site.root));
    const url = await startReference(realFixture(fixture));
    const run = await runVerify([url, "--dir", site.out, "--json", "--concurrency", "4"]);
    const report = JSON.parse(run.out) as Report;
    const lines = Object.entries(report.groups).map(
      ([g, c]) =>
        `${g}: ${c.precomputed.pass}/${c.precomputed.total} precomputed, ${c.beyond.pass}/${c.beyond.total} beyond`,
    );
    console.log(
      `${fixture} vs reference: ${report.checked} requests\n  ${lines.join("\n  ")}` +
        `\n  beyond-domain differences: ${
          report.differences
            .filter((d) => d.scope === "beyond")
            .map((d) => `${d.method} ${d.url.replace(url, "")}`)
            .join(", ") || "none"
        }`,
    );
    expect(report.reference).toBe(true);
    expect(report.differences.filter((d) => d.scope === "precomputed").slice(0, 5)).toEqual([]);
    expect(run.code).toBe(0);
    expect(report.checked).toBe(report.requests);
    // Every icon file of the fixture was asked for as a plain file, and as an icon.
    expect(report.groups.icon!.precomputed.total).toBeGreaterThan(100);
  }, 180_000);
});
