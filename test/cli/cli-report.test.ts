// test/cli/cli-report.test.ts
// `check` (validate, write nothing), `--strict` (warnings fail) and `--json` (one machine-readable report) on
// `check` and `build`, with their exit codes: 0 ok, 1 content errors (or warnings under --strict), 2 usage.

import { cp, readdir } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main, type JsonReport } from "../../src/cli.js";
import { haveRealFixtures, realFixture, tmpDir } from "../helpers/fixtures.js";
import { baseContentFolders, edit } from "../helpers/base-content.js";

const { base, temps } = baseContentFolders();

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(["node", "build-index-site", ...args], { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

const withMissingIcon = async (): Promise<string> => {
  const dir = await base();
  await edit(dir, "icons.json", `"php.png"`, `"elephant.png"`);
  return dir;
};

describe("check", () => {
  it("validates and computes everything but writes nothing", async () => {
    const dir = await base();
    const before = (await readdir(dir)).sort();
    const r = await cli("check", "--content", dir);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /^Checked .+: no errors, 0 warnings; \d+ responses, \d+ route rules, \d+ files would be written \((\d+ ms|\d+\.\d s)\)\.$/,
    ); // seconds on a busy machine
    expect((await readdir(dir)).sort()).toEqual(before);
    expect(existsSync(path.join(path.dirname(dir), "dist"))).toBe(false);
  });

  it("prints warnings with their fallback and exits 0; --strict makes them errors (exit 1)", async () => {
    const dir = await withMissingIcon();
    const r = await cli("check", "--content", dir);
    expect(r.code).toBe(0);
    expect(r.err).toBe(
      `${dir}/icons.json:3:10 #/php: warning: icons/elephant.png does not exist: findIcon for "php" falls back to text.png. [ICON_MISSING]\n` +
        `  Add icons/elephant.png, or map "php" to an existing icon.`,
    );
    const strict = await cli("check", "--content", dir, "--strict");
    expect(strict.code).toBe(1);
    expect(strict.err).toMatch(
      /^The content has 1 error\.\n.+icons\.json:3:10 #\/php: error: icons\/elephant\.png does not exist/,
    );
  });

  it("exits 1 listing every error, and 2 for a content folder that does not exist", async () => {
    const dir = await base();
    await edit(dir, "config.json", `"version": "1.2.0"`, `"version": 1`);
    await edit(dir, "icons.json", `"php.png"`, `"../php.png"`);
    const r = await cli("check", "--content", dir);
    expect(r.code).toBe(1);
    expect(r.err.split("\n").filter((l) => / error: /.test(l))).toHaveLength(2);
    expect((await cli("check", "--content", path.join(dir, "nope"))).code).toBe(2);
    expect((await cli("check", "--no-such-flag")).code).toBe(2);
  });
});

describe("--json", () => {
  it("check: one JSON object {ok, errors, warnings, counts} and nothing else on stdout", async () => {
    const dir = await withMissingIcon();
    const r = await cli("check", "--content", dir, "--json");
    expect(r.code).toBe(0);
    expect(r.err).toBe("");
    const report = JSON.parse(r.out) as JsonReport;
    expect(report.ok).toBe(true);
    expect(report.errors).toEqual([]);
    expect(report.warnings).toEqual([
      {
        severity: "warning",
        code: "ICON_MISSING",
        file: `${dir}/icons.json`,
        pointer: "/php",
        line: 3,
        column: 10,
        message: `icons/elephant.png does not exist: findIcon for "php" falls back to text.png.`,
        hint: `Add icons/elephant.png, or map "php" to an existing icon.`,
      },
    ]);
    expect(report.counts).toMatchObject({ errors: 0, warnings: 1 });
    expect(report.counts.answers).toBeGreaterThan(10);
  });

  it("check --strict: the warnings are reported as errors, ok is false, exit 1", async () => {
    const dir = await withMissingIcon();
    const r = await cli("check", "--content", dir, "--json", "--strict");
    expect(r.code).toBe(1);
    const report = JSON.parse(r.out) as JsonReport;
    expect(report).toMatchObject({ ok: false, warnings: [], counts: { errors: 1, warnings: 0 } });
    expect(report.errors[0]).toMatchObject({ severity: "error", code: "ICON_MISSING", pointer: "/php" });
  });

  it("build: the report has the written counts; a failed build reports its errors; usage errors too (exit 2)", async () => {
    const dir = await base();
    const out = path.join(await tmpDir(), "site");
    temps.push(path.dirname(out));
    const ok = await cli("build", "--content", dir, "--out", out, "--json");
    expect(ok.code).toBe(0);
    const report = JSON.parse(ok.out) as JsonReport;
    expect(report).toMatchObject({ ok: true, errors: [], warnings: [] });
    expect(report.counts.files).toBeGreaterThan(10);
    expect(report.counts.bytes).toBeGreaterThan(1000);

    await edit(dir, "manifest.json", "https://", "http://");
    const bad = await cli("build", "--content", dir, "--out", out, "--json");
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.out)).toMatchObject({
      ok: false,
      errors: [{ code: "BASE_URL", pointer: "/base_url", line: 2 }],
      counts: { errors: 1 },
    });

    const usage = await cli("build", "--content", dir, "--out", dir, "--json");
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.out)).toMatchObject({ ok: false, errors: [{ code: "USAGE" }] });
  });
});

describe.skipIf(!haveRealFixtures)("check on a copy of the real 1.1.15 data", () => {
  it("lists the 101 missing icon files as warnings, and fails with --strict", async () => {
    const dir = await tmpDir("bis-real-");
    temps.push(dir);
    await cp(realFixture("indexer-1.1.15"), dir, { recursive: true });
    const started = performance.now();
    const r = await cli("check", "--content", dir, "--json");
    const ms = performance.now() - started;
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as JsonReport;
    expect(report.counts).toMatchObject({ errors: 0, warnings: 101 });
    expect(new Set(report.warnings.map((w) => w.code))).toEqual(new Set(["ICON_MISSING"]));
    expect(ms).toBeLessThan(5000);
    expect((await cli("check", "--content", dir, "--strict")).code).toBe(1);
  });
});
