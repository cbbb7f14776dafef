// test/content/plan-limits.slow.test.ts
// Issue 24 point 5: before anything is written, the build checks what each host receives against its plan's
// published limits (src/hosts/limits.ts): a crossed limit is a warning naming the host, the limit, the measured
// figure and what to do; --strict makes it an error; --plan paid picks the other row.

import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compile } from "../../src/pipeline/compile.js";
import { ContentError, type Diagnostic } from "../../src/errors.js";
import { PLAN_LIMITS, planLimitDiagnostics } from "../../src/hosts/limits.js";
import { removeDir } from "../helpers/fixtures.js";
import { writeBase } from "../helpers/base-content.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

const planWarnings = (diagnostics: readonly Diagnostic[]): Diagnostic[] =>
  diagnostics.filter((d) => d.code === "HOST_PLAN_LIMIT");

describe("the hosts' plan limits", () => {
  it("20,001 plain files cross Cloudflare Free's 20,000 files per deploy (a warning), not Paid's 100,000", async () => {
    const dir = await writeBase();
    temps.push(dir);
    await mkdir(path.join(dir, "style", "many"), { recursive: true });
    for (let i = 0; i < 20_001; i++) await writeFile(path.join(dir, "style", "many", `${i}.css`), "a{}\n");
    const free = await compile({ content: dir, hosts: ["cloudflare", "nginx"] });
    const warnings = planWarnings(free.diagnostics);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ severity: "warning", file: "--hosts cloudflare" });
    expect(warnings[0]!.message).toMatch(
      /^cloudflare: static asset files per Worker version is 20,000 on the free plan; this build gives 20,0\d\d files\.$/,
    );
    expect(warnings[0]!.hint).toMatch(/--plan paid/);
    expect(planWarnings((await compile({ content: dir, hosts: ["cloudflare"], plan: "paid" })).diagnostics)).toEqual(
      [],
    );
    // --strict: the same crossing is an error, and nothing is built.
    const error = await compile({ content: dir, hosts: ["cloudflare"], strict: true }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ContentError);
    expect(planWarnings((error as ContentError).diagnostics)[0]!.severity).toBe("error");
  }, 120_000);

  it("a 27 MB plain file crosses Cloudflare's 25 MiB per file, on either plan; hosts without that limit say nothing", async () => {
    const dir = await writeBase();
    temps.push(dir);
    await writeFile(path.join(dir, "style", "huge.css"), Buffer.alloc(27 * 1000 * 1000, "a"));
    const result = await compile({ content: dir, hosts: ["cloudflare", "netlify", "nginx"], plan: "paid" });
    const warnings = planWarnings(result.diagnostics);
    expect(warnings.map((d) => d.file)).toEqual(["--hosts cloudflare"]);
    expect(warnings[0]!.message).toMatch(
      /size of one static asset file is 26\.21 MB on the paid plan; this build gives 27\.00 MB \(style\/huge\.css\)/,
    );
  });

  it("the handler's size: Vercel's 1 MB gzip on Hobby, 2 MB on Pro", () => {
    const measures = [{ host: "vercel" as const, handlerBytes: 9_000_000, handlerGzipBytes: 1_500_000 }];
    expect(planLimitDiagnostics(measures, "free").map((d) => d.message)).toEqual([
      "vercel: Edge Function size after gzip (Hobby, Pro) is 1.00 MB on the free plan; this build gives 1.50 MB.",
    ]);
    expect(planLimitDiagnostics(measures, "paid")).toEqual([]);
  });

  it("every limit names its source and the date it was read", () => {
    for (const limit of PLAN_LIMITS) {
      expect(limit.source).toMatch(/^https:\/\//);
      expect(limit.read).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(limit.paid).toBeGreaterThanOrEqual(limit.free);
    }
  });
});
