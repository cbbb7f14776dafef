// test/pipeline/up-to-date.test.ts
// A rebuild with nothing changed (content, options, tool, output intact) writes nothing; any change rebuilds.

import { spawnSync } from "node:child_process";
import { readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildIfChanged } from "../../src/pipeline/pipeline.js";
import type { BuildOptions } from "../../src/pipeline/options.js";
import { copyContent, DEMO_CONTENT, REPO, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { layoutOf } from "../../src/layout/paths.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

async function setup(): Promise<BuildOptions> {
  const content = await copyContent(DEMO_CONTENT);
  const root = await tmpDir();
  temps.push(content, root);
  return { content, out: path.join(root, "dist"), sourceDateEpoch: TEST_EPOCH };
}

const built = (r: Awaited<ReturnType<typeof buildIfChanged>>): boolean => "model" in r;
const inode = async (file: string): Promise<number> => (await stat(file)).ino;

describe("buildIfChanged", () => {
  it("builds, then finds the same inputs up to date and touches nothing", async () => {
    const options = await setup();
    expect(built(await buildIfChanged(options))).toBe(true);
    const inputs = layoutOf(options.out).stamp;
    const before = [
      await inode(options.out),
      await inode(inputs),
      (await stat(path.join(options.out, "api/info.json"))).mtimeMs,
    ];
    const again = await buildIfChanged(options);
    expect(built(again)).toBe(false);
    expect(again.counts.answers).toBeGreaterThan(100);
    expect([
      await inode(options.out),
      await inode(inputs),
      (await stat(path.join(options.out, "api/info.json"))).mtimeMs,
    ]).toEqual(before);
  });

  it("rebuilds when a content file, an option or the output changed", async () => {
    const options = await setup();
    await buildIfChanged(options);

    await utimes(path.join(options.content, "icons/php.png"), new Date("2020-01-01"), new Date("2020-01-01"));
    expect(built(await buildIfChanged(options))).toBe(true);
    expect(built(await buildIfChanged(options))).toBe(false);

    const config = path.join(options.content, "config.json");
    const text = await readFile(config, "utf8");
    const { mtime } = await stat(config);
    await writeFile(config, text.replace('"1.2.0"', '"1.2.1"'));
    await utimes(config, mtime, mtime); // same time, same size: the text itself is compared
    expect(built(await buildIfChanged(options))).toBe(true);

    expect(built(await buildIfChanged({ ...options, baseUrl: "https://other.example.org" }))).toBe(true);
    expect(built(await buildIfChanged({ ...options, baseUrl: "https://other.example.org" }))).toBe(false);
    expect(
      built(await buildIfChanged({ ...options, baseUrl: "https://other.example.org", hosts: ["netlify", "nginx"] })),
    ).toBe(true);

    const answer = path.join(options.out, "api/findIcon/file/php.json");
    await rm(answer);
    expect(
      built(await buildIfChanged({ ...options, baseUrl: "https://other.example.org", hosts: ["netlify", "nginx"] })),
    ).toBe(true);
    expect(JSON.parse(await readFile(answer, "utf8"))).toMatchObject({ extension: "php" });
    // A data file of the handler, removed, is written again too.
    const data = path.join(options.out, "_edge-data/core.json");
    await rm(data);
    expect(
      built(await buildIfChanged({ ...options, baseUrl: "https://other.example.org", hosts: ["netlify", "nginx"] })),
    ).toBe(true);
    expect(JSON.parse(await readFile(data, "utf8"))).toMatchObject({ baseUrl: "https://other.example.org" });
  });

  it("is what the CLI runs: a second build says it is up to date, --force rebuilds", async () => {
    const options = await setup();
    const run = (...extra: string[]) =>
      spawnSync(
        process.execPath,
        [path.join(REPO, "bin/build-index-site.js"), "--content", options.content, "--out", options.out, ...extra],
        { encoding: "utf8", env: { ...process.env, SOURCE_DATE_EPOCH: TEST_EPOCH } },
      );
    expect(run().stdout).toMatch(/^Built /);
    const second = run();
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/is up to date: .*Nothing written/);
    expect(run("--force").stdout).toMatch(/^Built /);
    const json = JSON.parse(run("--json").stdout) as { ok: boolean; upToDate?: boolean };
    expect(json).toMatchObject({ ok: true, upToDate: true });
  });
});
