// test/helpers/fixtures.ts
// Typed access to test inputs: the bundled demo content, the real fixtures in ../shared (skipped when absent),
// temporary folders, and an in-memory build with a fixed clock.

import { cp, mkdtemp, rm } from "node:fs/promises";
import { afterAll } from "vitest";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { compile } from "../../src/pipeline/compile.js";
import { canRun, SHARED_DIR } from "./needs.js";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const DEMO_CONTENT = path.join(REPO, "content");
export const SHARED_FIXTURES = path.join(SHARED_DIR, "fixtures");

export type RealFixture = "indexer-1.1.15" | "indexer-1.2.0-r2";
export const REAL_FIXTURES: readonly RealFixture[] = ["indexer-1.1.15", "indexer-1.2.0-r2"];

/** Path of a real fixture, read in place (never copied into the repository). */
export const realFixture = (name: RealFixture): string => path.join(SHARED_FIXTURES, name);
/**
 * Use as `describe.skipIf(!haveRealFixtures)(...)`: false outside CI when ../shared/fixtures is missing (the run then
 * prints one line saying so, test/helpers/report-skips.ts); always true in CI, where a missing fixture fails.
 */
export const haveRealFixtures = canRun("shared");

/** Fixed build time for tests: 2024-01-01 00:00:00 UTC. */
export const TEST_EPOCH = "1704067200";

export async function tmpDir(prefix = "bis-"): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** A writable copy of a content folder (for tests that change it). */
export async function copyContent(from: string): Promise<string> {
  const dir = await tmpDir("bis-content-");
  await cp(from, dir, { recursive: true });
  return dir;
}

/**
 * Temporary folders for one test file: each call makes one, and all are removed after the file's tests (vitest's
 * afterAll, registered when this is called at the file's top level).
 */
export function tempDirs(prefix?: string): () => Promise<string> {
  const made: string[] = [];
  afterAll(async () => Promise.all(made.map(removeDir)));
  return async () => {
    const dir = await tmpDir(prefix);
    made.push(dir);
    return dir;
  };
}

/**
 * Writable copies of the demo content for one test file: each call makes one, and all are removed after the file's
 * tests (vitest's afterAll, registered when this is called at the file's top level).
 */
export function demoCopies(): () => Promise<string> {
  const made: string[] = [];
  afterAll(async () => {
    for (const dir of made) await removeDir(dir);
  });
  return async () => {
    const dir = await copyContent(DEMO_CONTENT);
    made.push(dir);
    return dir;
  };
}

/** The whole build in memory, with the fixed clock. */
export function compileContent(content: string, baseUrl?: string) {
  return compile({ content, sourceDateEpoch: TEST_EPOCH, ...(baseUrl ? { baseUrl } : {}) });
}

/**
 * Hosts that write no folder beside --out but the build's records (as netlify's .netlify/v1, vercel's .vercel/output
 * and cloudflare's .wrangler/deploy do): for tests that list the folder holding --out. test/output/out-folder.test.ts proves that a
 * refused build with the default hosts leaves nothing beside --out either.
 */
export const IN_OUT_HOSTS = ["apache", "nginx"] as const;
