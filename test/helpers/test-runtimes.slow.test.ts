// test/helpers/test-runtimes.slow.test.ts
// scripts/test-runtimes.mjs, on a package with no dependencies (BIS_TEST_RUNTIMES_PACKAGE; npm ci needs no network
// for it): two runs installing at once end with one finished install, no temporary folder and the node_modules link
// beside the package pointing at it; a changed lockfile installs anew into a folder of its own, the old one removed.

import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { REPO, tempDirs } from "./fixtures.js";

const SCRIPT = path.join(REPO, "scripts", "test-runtimes.mjs");
const tmp = tempDirs("bis-runtimes-");

/** The package in <tmp>/runtimes, as test/runtimes is in test/ (the node_modules link goes beside it). */
async function makePackage(description: string): Promise<string> {
  const dir = path.join(await tmp(), "runtimes");
  mkdirSync(dir);
  writePackage(dir, description);
  return dir;
}

function writePackage(dir: string, description: string): void {
  writeFileSync(
    path.join(dir, "package.json"),
    `${JSON.stringify({ name: "runtimes-under-test", version: "0.0.0", private: true, description }, null, 2)}\n`,
  );
  const lock = spawnSync("npm", ["install", "--package-lock-only", "--offline", "--no-audit", "--no-fund"], {
    cwd: dir,
    encoding: "utf8",
  });
  if (lock.status !== 0) throw new Error(`npm install --package-lock-only failed:\n${lock.stderr}`);
}

const install = (dir: string) =>
  promisify(execFile)(process.execPath, [SCRIPT], {
    cwd: REPO,
    env: { ...process.env, BIS_TEST_RUNTIMES_PACKAGE: dir, CI: "" },
  });

describe("scripts/test-runtimes.mjs", () => {
  test("two runs at once: one finished install, no temporary folder left", async () => {
    const dir = await makePackage("first");
    const runs = await Promise.all([install(dir), install(dir)]);
    expect(runs.map((r) => r.stdout).join("")).toMatch(/Test runtimes: installed in [\d.]+ s/);
    const installs = readdirSync(path.join(dir, ".install"));
    expect(installs).toHaveLength(1);
    expect(existsSync(path.join(dir, ".install", installs[0]!, ".complete"))).toBe(true);
    expect(readlinkSync(path.join(dir, "current"))).toBe(path.join(".install", installs[0]!));
    const modules = path.join(path.dirname(dir), "node_modules");
    expect(readlinkSync(modules)).toBe(path.join("runtimes", ".install", installs[0]!, "node_modules"));

    const again = await install(dir);
    expect(again.stdout).toMatch(/^Test runtimes: installed \(/);
    expect(readdirSync(path.join(dir, ".install"))).toEqual(installs);
  });

  test("a changed lockfile installs anew, and the old install goes", async () => {
    const dir = await makePackage("first");
    await install(dir);
    const [before] = readdirSync(path.join(dir, ".install"));
    writePackage(dir, "second");
    await install(dir);
    const after = readdirSync(path.join(dir, ".install"));
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before);
    expect(readlinkSync(path.join(dir, "current"))).toBe(path.join(".install", after[0]!));
    const modules = path.join(path.dirname(dir), "node_modules");
    expect(readlinkSync(modules)).toBe(path.join("runtimes", ".install", after[0]!, "node_modules"));
  });
});
