// test/helpers/fixtures.ts
// Typed access to test inputs: the bundled demo content, the real fixtures in ../shared (skipped when absent),
// temporary folders, and an in-memory build with a fixed clock.

import { existsSync } from "node:fs";
import { cp, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { compile } from "../../src/build.js";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const DEMO_CONTENT = path.join(REPO, "content");
export const SHARED_FIXTURES = path.resolve(REPO, "../shared/fixtures");

export type RealFixture = "indexer-1.1.15" | "indexer-1.2.0-r2";
export const REAL_FIXTURES: readonly RealFixture[] = ["indexer-1.1.15", "indexer-1.2.0-r2"];

/** Path of a real fixture, read in place (never copied into the repository). */
export const realFixture = (name: RealFixture): string => path.join(SHARED_FIXTURES, name);
export const haveRealFixtures = existsSync(path.join(SHARED_FIXTURES, "indexer-1.2.0-r2", "manifest.json"));
/** Use as `describe.skipIf(!haveRealFixtures)(...)`; says once why those tests are skipped. */
if (!haveRealFixtures) {
  console.warn(`Real-data tests skipped: ${SHARED_FIXTURES} is not present (it exists only in the project's workplace).`);
}

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

/** The whole build in memory, with the fixed clock. */
export function compileContent(content: string, baseUrl?: string) {
  return compile({ content, sourceDateEpoch: TEST_EPOCH, ...(baseUrl ? { baseUrl } : {}) });
}
