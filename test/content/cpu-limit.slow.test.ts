// test/content/cpu-limit.slow.test.ts
// Issue 53: the build holds the edge handler's costliest request, estimated from its data files (src/edge/cost.ts),
// against each plan's CPU row: Cloudflare Free's 10 ms, Netlify's 50 ms. At ×10 (generated content) the estimate is
// under both, with and without --base-url request: no warning. The same build with the estimate scaled past a row
// warns for that host alone, naming the estimate and the row's source; the paid plan's row is not crossed.

import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
// @ts-expect-error: a plain ES module of the bench, without types
import { generateContent } from "../../bench/generate-content.mjs";
import { compile } from "../../src/pipeline/compile.js";
import type { Diagnostic } from "../../src/errors.js";
import { planLimitDiagnostics } from "../../src/hosts/limits.js";
import { removeDir, tmpDir } from "../helpers/fixtures.js";

const scaled = vi.hoisted(() => ({ by: 1, last: undefined as number | undefined }));
vi.mock("../../src/edge/cost.js", async (original) => {
  const actual = await original<typeof import("../../src/edge/cost.js")>();
  return {
    ...actual,
    estimatedCpuMs: (files: Parameters<typeof actual.estimatedCpuMs>[0]) => {
      const ms = actual.estimatedCpuMs(files);
      scaled.last = ms;
      return ms === undefined ? undefined : ms * scaled.by;
    },
  };
});

let dir = "";
beforeAll(async () => {
  dir = await tmpDir("bis-x10-cpu-");
  await generateContent(dir, 10);
}, 300_000);
afterAll(async () => removeDir(dir));

const cpuWarnings = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.filter((d) => d.code === "HOST_PLAN_LIMIT" && d.message.includes("CPU"));

describe("the CPU row against the handler's estimated cost (×10)", () => {
  it("is not crossed at ×10, with or without --base-url request", async () => {
    scaled.by = 1;
    for (const requestOrigin of [false, true]) {
      const { diagnostics } = await compile({ content: dir, hosts: ["cloudflare", "netlify"], requestOrigin });
      expect(scaled.last, `requestOrigin ${requestOrigin}`).toBeGreaterThan(0);
      expect(scaled.last!, `requestOrigin ${requestOrigin}`).toBeLessThan(10);
      expect(cpuWarnings(diagnostics)).toEqual([]);
    }
  }, 300_000);

  it("warns for the host whose row the estimate crosses, naming the estimate and the source", async () => {
    scaled.by = 1;
    await compile({ content: dir, hosts: ["cloudflare"], requestOrigin: true });
    // Scaled to 20 ms: past Cloudflare Free's 10, under Netlify's 50.
    scaled.by = 20 / scaled.last!;
    const { diagnostics } = await compile({ content: dir, hosts: ["cloudflare", "netlify"], requestOrigin: true });
    const found = cpuWarnings(diagnostics);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: "warning", file: "--hosts cloudflare" });
    expect(found[0]!.message).toBe(
      "cloudflare: CPU time per request (Paid: 30 s by default, up to 5 min with limits.cpu_ms) is 10 on the free " +
        "plan; this build gives 20 ms (estimated).",
    );
    expect(found[0]!.hint).toContain("Source: https://developers.cloudflare.com/workers/platform/limits/#cpu-time");
    const paid = await compile({ content: dir, hosts: ["cloudflare"], requestOrigin: true, plan: "paid" });
    expect(cpuWarnings(paid.diagnostics)).toEqual([]);
  }, 300_000);

  it("compares a measure of cpuMs with each edge host's row", () => {
    const at = (cpuMs: number) => planLimitDiagnostics([{ host: "netlify", cpuMs }], "free").length;
    expect([at(50), at(50.5)]).toEqual([0, 1]);
  });
});
