// test/hosts/generated-differential.server.test.ts
// Generated content (test/hosts/generated-content.ts) served by the reference PHP service and by every host that runs
// here (nginx, Apache, workerd, Deno, edge-runtime): every answer must be the reference's, compared as `verify`
// compares, or a difference a documented static fallback explains (README's table, src/verify/fallbacks.ts).
// A fixed seed and a small count in `npm test`; BIS_DIFF_COUNT (values of each kind) and BIS_DIFF_SEED for more.

import { afterAll, describe, expect, test } from "vitest";
import { skipReason } from "../helpers/needs.js";
import { generate } from "./generated-content.js";
import { runDifferential, startSite, type Site } from "./generated-differential.js";

const COUNT = Number(process.env.BIS_DIFF_COUNT ?? 12);
const SEED = Number(process.env.BIS_DIFF_SEED ?? 27);
const skip = skipReason("shared") ?? skipReason("php");

let site: Site | undefined;
afterAll(async () => {
  await site?.stop();
});

describe.skipIf(skip !== undefined)("generated content: every host answers as the reference PHP service", () => {
  test(`seed ${SEED}, ${COUNT} values of each kind`, async () => {
    const started = performance.now();
    const generated = generate(SEED, COUNT);
    site = await startSite(generated);
    const ready = performance.now();
    const outcome = await runDifferential(site, generated.requests);
    const documented = [...outcome.documented].map(([k, n]) => `${k} ${n}`).join(", ") || "none";
    console.log(
      `generated differential, seed ${SEED}, count ${COUNT} (${generated.features.join(", ")}): ` +
        `${outcome.requests} requests × ` +
        `${site.targets.map((t) => t.name).join(", ")}${outcome.skipped.length > 0 ? ` (not run: ${outcome.skipped.join(", ")})` : ""}` +
        `; ${outcome.equal}/${outcome.compared} equal; documented fallbacks: ${documented}; ` +
        `${outcome.failures.length} other differences; set-up ${Math.round(ready - started)} ms, ` +
        `requests ${Math.round(performance.now() - ready)} ms`,
    );
    expect(outcome.failures.slice(0, 40)).toEqual([]);
    expect(outcome.compared).toBeGreaterThan(0);
  }, 600_000);
});
