// test/helpers/needs.ts
// What some suites need beyond Node: Apache, nginx and PHP (Debian packages), the real fixtures in ../shared, and the
// runtimes of test/runtimes that npm test installs (wrangler's workerd, npm's deno, edge-runtime, playwright-core:
// test/runtimes/locate.mjs finds them). Outside CI
// a suite whose need is missing is skipped, and test/helpers/report-skips.ts prints one plain line per missing need
// saying what to install or provide; with CI set nothing is skipped, so a missing need fails its suites.
//
// BIS_TEST_PRETEND_MISSING=apache,nginx,shared makes those count as missing (to try the skip path on a machine that
// has them, without uninstalling anything).

import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { denoBinary, resolveRuntime, runtimeBin } from "../runtimes/locate.mjs";

export type Need =
  "apache" | "nginx" | "shared" | "php" | "chromium" | "playwright" | "workerd" | "deno" | "edge-runtime";

/** Every need, in the order the run's first lines name the missing ones. */
export const NEEDS: readonly Need[] = [
  "apache",
  "nginx",
  "shared",
  "php",
  "chromium",
  "playwright",
  "workerd",
  "deno",
  "edge-runtime",
];

/** Debian's chromium (apt): the catalogue's browser test drives it with playwright-core. */
export const CHROMIUM = "/usr/bin/chromium";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const SHARED_DIR = path.resolve(REPO, "../shared");

/**
 * `npm run test:quick` (the inner loop) leaves out every suite with a need, installed or not, also in CI.
 * BIS_TEST_QUICK=1 does the same for a plain `npm run vitest -- run …`.
 */
export const quick = process.env.npm_lifecycle_event === "test:quick" || Boolean(process.env.BIS_TEST_QUICK);

/** In CI a missing need is a failure, not a skip. */
export const inCI = Boolean(process.env.CI) && !quick;

/** The Deno binary of test/runtimes (npm's `deno` package), or null. */
export { denoBinary };

const pretend = new Set(
  (process.env.BIS_TEST_PRETEND_MISSING ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean),
);

const present: Record<Need, () => boolean> = {
  apache: () => existsSync("/usr/sbin/apache2") && existsSync("/usr/lib/apache2/modules/mod_rewrite.so"),
  nginx: () => existsSync("/usr/sbin/nginx"),
  shared: () => existsSync(path.join(SHARED_DIR, "fixtures", "indexer-1.2.0-r2", "manifest.json")),
  php: () => existsSync("/usr/bin/php"),
  chromium: () => existsSync(CHROMIUM),
  playwright: () => resolveRuntime("playwright-core") !== null,
  workerd: () => runtimeBin("wrangler") !== null,
  deno: () => denoBinary() !== null,
  "edge-runtime": () => resolveRuntime("edge-runtime") !== null,
};

/** The need is installed or provided on this machine. */
export const installed = (need: Need): boolean => !quick && !pretend.has(need) && present[need]();

/** Suites needing it run: it is there, or we are in CI (where a missing need must fail). */
export const canRun = (need: Need): boolean => inCI || installed(need);

const INSTALL_RUNTIMES = "npm test installs test/runtimes; alone: node scripts/test-runtimes.mjs";

/** What to do so that the suites needing it run (one plain line). */
export const MISSING_LINE: Record<Need, string> = {
  apache: "Skipping the Apache suites: apache2 is not installed (Debian/Ubuntu: sudo apt-get install apache2).",
  nginx: "Skipping the nginx suites: nginx is not installed (Debian/Ubuntu: sudo apt-get install nginx).",
  php: "Skipping the reference-service suites: php is not installed (Debian/Ubuntu: sudo apt-get install php-cli).",
  chromium: "Skipping the catalogue's browser test: chromium is not installed (Debian: sudo apt-get install chromium).",
  playwright: `Skipping the catalogue's browser test: playwright-core is not installed (${INSTALL_RUNTIMES}).`,
  workerd: `Skipping the workerd suites: wrangler is not installed (${INSTALL_RUNTIMES}).`,
  deno: `Skipping the Deno (Netlify edge) suites: npm's deno package is not installed (${INSTALL_RUNTIMES}).`,
  "edge-runtime": `Skipping the edge-runtime (Vercel edge) suites: edge-runtime is not installed (${INSTALL_RUNTIMES}).`,
  shared: `Skipping the real-data suites: ${SHARED_DIR}/fixtures is not there (the indexer fixtures; they exist only in the project's workplace).`,
};

/** Why a suite needing it is skipped, or undefined when it runs. */
export const skipReason = (need: Need): string | undefined => (canRun(need) ? undefined : MISSING_LINE[need]);
