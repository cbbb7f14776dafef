// test/helpers/needs.ts
// What some suites need beyond Node: Apache, nginx and PHP (Debian packages), the real fixtures in ../shared, and the
// edge runtimes that npm ci installs (wrangler's workerd, npm's deno, edge-runtime). Outside CI
// a suite whose need is missing is skipped, and test/helpers/report-skips.ts prints one plain line per missing need
// saying what to install or provide; with CI set nothing is skipped, so a missing need fails its suites.
//
// BIS_TEST_PRETEND_MISSING=apache,nginx,shared makes those count as missing (to try the skip path on a machine that
// has them, without uninstalling anything).

import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

export type Need = "apache" | "nginx" | "shared" | "php" | "chromium" | "workerd" | "deno" | "edge-runtime";

/** Debian's chromium (apt): the catalogue's browser test drives it with playwright-core. */
export const CHROMIUM = "/usr/bin/chromium";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const SHARED_DIR = path.resolve(REPO, "../shared");

/**
 * `npm run test:quick` (the inner loop) leaves out every suite with a need, installed or not, also in CI.
 * BIS_TEST_QUICK=1 does the same for a plain `npx vitest run …`.
 */
export const quick = process.env.npm_lifecycle_event === "test:quick" || Boolean(process.env.BIS_TEST_QUICK);

/** In CI a missing need is a failure, not a skip. */
export const inCI = Boolean(process.env.CI) && !quick;

/** The Deno binary that npm's `deno` package installed (its bin script only finds and runs it), or null. */
export function denoBinary(): string | null {
  try {
    const require = createRequire(import.meta.url);
    const pkg = `@deno/${process.platform}-${process.arch}${process.platform === "linux" ? "-glibc" : ""}`;
    return path.join(
      path.dirname(require.resolve(`${pkg}/package.json`)),
      process.platform === "win32" ? "deno.exe" : "deno",
    );
  } catch {
    return null;
  }
}

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
  workerd: () => existsSync(path.join(REPO, "node_modules", ".bin", "wrangler")),
  deno: () => {
    const deno = denoBinary();
    return deno !== null && existsSync(deno);
  },
  "edge-runtime": () => existsSync(path.join(REPO, "node_modules", "edge-runtime", "package.json")),
};

/** The need is installed or provided on this machine. */
export const installed = (need: Need): boolean => !quick && !pretend.has(need) && present[need]();

/** Suites needing it run: it is there, or we are in CI (where a missing need must fail). */
export const canRun = (need: Need): boolean => inCI || installed(need);

/** What to do so that the suites needing it run (one plain line). */
export const MISSING_LINE: Record<Need, string> = {
  apache: "Skipping the Apache suites: apache2 is not installed (Debian/Ubuntu: sudo apt-get install apache2).",
  nginx: "Skipping the nginx suites: nginx is not installed (Debian/Ubuntu: sudo apt-get install nginx).",
  php: "Skipping the reference-service suites: php is not installed (Debian/Ubuntu: sudo apt-get install php-cli).",
  chromium: "Skipping the catalogue's browser test: chromium is not installed (Debian: sudo apt-get install chromium).",
  workerd: "Skipping the workerd suites: wrangler is not installed (npm ci installs it).",
  deno: "Skipping the Deno (Netlify edge) suites: npm's deno package has no binary here (npm ci installs it).",
  "edge-runtime": "Skipping the edge-runtime (Vercel edge) suites: edge-runtime is not installed (npm ci installs it).",
  shared: `Skipping the real-data suites: ${SHARED_DIR}/fixtures is not there (the indexer fixtures; they exist only in the project's workplace).`,
};

/** Why a suite needing it is skipped, or undefined when it runs. */
export const skipReason = (need: Need): string | undefined => (canRun(need) ? undefined : MISSING_LINE[need]);
