// test/hosts/preview-as-parity.server.test.ts
// Issue 52 item 7: `preview --as <host>` answers /api.php as that host does, its fallbacks included. Every request
// the parity suite generates (own values, extra, repeated, bare, unknown and empty parameters, case variants,
// percent-encoded and raw values) is asked of each static host's real engine (nginx and Apache with the emitted
// configs, Netlify's own redirect engine on `_redirects`, the Vercel evaluator of test/hosts/answers.ts on
// `vercel.json`) and of the preview as that host: status, body, Content-Type, Cache-Control and CORS must be the
// same, with no known difference allowed. The demo content, and the hostile keys of test/hosts/hostile-keys.ts (a
// sample of their requests: every raw and encoded one, every fifth other).

import { afterAll, describe, expect, test } from "vitest";
import { removeDir, DEMO_CONTENT } from "../helpers/fixtures.js";
import { hostileContent, HOSTILE } from "./hostile-keys.js";
import { runParity, summarize, type ParityRun } from "./parity.js";
import { notInstalled } from "./servers.js";

const temps: string[] = [];
afterAll(async () => {
  for (const dir of temps) await removeDir(dir);
});

function expectNoDifference(run: ParityRun): void {
  for (const r of run.reports) {
    expect(r.skipped, `${r.host} was not run`).toBe(notInstalled[r.host]);
    if (r.skipped !== undefined) continue;
    expect(r.compared, r.host).toBeGreaterThan(100);
    expect(r.unexpected.slice(0, 5), `${r.host}: differences from preview --as ${r.host}`).toEqual([]);
    expect(r.allowed, r.host).toEqual({});
  }
}

describe("preview --as <static host> answers as that host's engine", () => {
  test("demo content: every generated request", async () => {
    const run = await runParity(DEMO_CONTENT, { membersPerSet: 40, netlifyEvery: 1, asHost: true });
    console.log(summarize("demo, preview --as each host", run));
    expectNoDifference(run);
  }, 300_000);

  test("hostile keys: a sample of the generated requests", async () => {
    const dir = await hostileContent(HOSTILE, temps);
    const run = await runParity(dir, { membersPerSet: 20, netlifyEvery: 3, asHost: true, sample: 5 });
    console.log(summarize("hostile keys, preview --as each host", run));
    expectNoDifference(run);
  }, 600_000);
});
