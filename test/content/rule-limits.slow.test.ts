// test/content/rule-limits.slow.test.ts
// Issue 53: the limits table holds the hosts' rule-count guidance and their CPU and start-up limits, each with its
// source. At ×10 (generated content) netlify-static's `_redirects` crosses Netlify's 10,000-redirect guidance: a
// warning naming the count (as Netlify's own parser counts the file) and the source. vercel.json's 2,048 rewrites
// are a hard limit (an error); the CPU row is compared with the handler's estimated cost (test/content/cpu-limit.slow.
// test.ts builds at ×10), the start-up row never (the build cannot measure it).

import { writeFile } from "node:fs/promises";
import path from "node:path";
import { parseAllRedirects } from "@netlify/redirect-parser";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the bench, without types
import { generateContent } from "../../bench/generate-content.mjs";
import { compile } from "../../src/pipeline/compile.js";
import { PLAN_LIMITS, planLimitDiagnostics } from "../../src/hosts/limits.js";
import { removeDir, tmpDir } from "../helpers/fixtures.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

describe("rule-count limits", () => {
  it("×10 content with --hosts netlify-static warns at Netlify's 10,000 redirects, naming the count and source", async () => {
    const dir = await tmpDir("bis-x10-");
    temps.push(dir);
    await generateContent(dir, 10);
    const { hosts, diagnostics } = await compile({ content: dir, hosts: ["netlify-static"] });
    const redirects = hosts.flatMap((h) => h.files).find((f) => f.path === "_redirects")!;
    // The count Netlify's parser reads from the emitted file.
    const work = await tmpDir("bis-redirects-");
    temps.push(work);
    const file = path.join(work, "_redirects");
    await writeFile(file, redirects.data);
    const parsed = await parseAllRedirects({
      redirectsFiles: [file],
      netlifyConfigPath: undefined,
      configRedirects: [],
      minimal: false,
    });
    expect(parsed.errors).toEqual([]);
    const lines = parsed.redirects.length;
    expect(lines).toBeGreaterThan(10_000);
    const warnings = diagnostics.filter((d) => d.code === "HOST_PLAN_LIMIT");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ severity: "warning", file: "--hosts netlify-static" });
    expect(warnings[0]!.message).toBe(
      "netlify-static: the redirects from which Netlify recommends wildcards or placeholders (a larger _redirects " +
        `may fail to deploy) is 10,000 on the free plan; this build gives ${lines.toLocaleString("en-US")} ` +
        "_redirects lines.",
    );
    expect(warnings[0]!.hint).toContain("Source: https://docs.netlify.com/manage/routing/redirects/overview/ (read ");
    // The edge output has no rule per value: no such warning.
    const edge = await compile({ content: dir, hosts: ["netlify"] });
    expect(edge.diagnostics.filter((d) => d.code === "HOST_PLAN_LIMIT")).toEqual([]);
  }, 300_000);

  it("vercel.json's 2,048 rewrites and header rules are errors (Vercel refuses the file), on either plan", () => {
    const over = [{ host: "vercel-static" as const, rewrites: 2049, headerRules: 2048 }];
    for (const plan of ["free", "paid"] as const) {
      const found = planLimitDiagnostics(over, plan);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ severity: "error", file: "--hosts vercel-static" });
      expect(found[0]!.message).toMatch(/rewrites in vercel\.json .* is 2,048 on the \w+ plan; this build gives 2,049/);
      expect(found[0]!.hint).toMatch(/Source: https:\/\/github\.com\/vercel\/vercel\/.*schemas\.ts \(read \d{4}-/);
    }
    expect(planLimitDiagnostics([{ host: "vercel-static", rewrites: 2048, headerRules: 2048 }], "free")).toEqual([]);
  });

  it("the CPU and start-up rows are listed with their sources; start-up is never compared", () => {
    const row = (host: string, measure: string) => PLAN_LIMITS.find((l) => l.host === host && l.measure === measure);
    expect(row("cloudflare", "cpu ms")).toMatchObject({ free: 10 });
    expect(row("cloudflare", "startup ms")).toMatchObject({ free: 1000, paid: 1000 });
    expect(row("netlify", "cpu ms")).toMatchObject({ free: 50, paid: 50 });
    expect(row("vercel", "response start ms")).toMatchObject({ free: 25_000 });
    // Whatever the build measures of a host, these rows give nothing.
    const everything = { files: 1, handlerBytes: 1, handlerGzipBytes: 1, redirectLines: 1, rewrites: 1, cpuMs: 1 };
    const hosts = ["cloudflare", "netlify", "vercel"] as const;
    expect(
      planLimitDiagnostics(
        hosts.map((host) => ({ host, ...everything })),
        "free",
      ),
    ).toEqual([]);
  });
});
