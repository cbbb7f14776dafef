#!/usr/bin/env node
// scripts/test-runtimes.mjs
// I/O: installs the test tools and runtimes (test/runtimes: vitest, prettier, oxlint, the test-only parsers; wrangler
// and workerd, deno, edge-runtime, playwright-core, autocannon) when the current lockfile's install is missing, and
// links test/node_modules to it; `npm test` runs it first and its time is not the suite's.
// Concurrent runs do not fight: each installs into a temporary folder, then renames it into place (the first rename
// wins, a loser discards its copy). A failed install fails: vitest, prettier and oxlint come from it.

import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import {
  COMPLETE,
  INSTALLS,
  RUNTIMES_PACKAGE,
  TEST_MODULES,
  installDir,
  lockHash,
  runtimesInstalled,
} from "../test/runtimes/locate.mjs";

/** npm's own variables from the `npm test` around us would point the inner install at the outer project. */
function installEnv() {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (/^npm_(package_|lifecycle_|config_(local_prefix|prefix|global_prefix)$)/i.test(key)) delete env[key];
  }
  return env;
}

function install() {
  mkdirSync(INSTALLS, { recursive: true });
  const temp = mkdtempSync(path.join(INSTALLS, `.tmp-${process.pid}-`));
  chmodSync(temp, 0o755);
  try {
    for (const file of ["package.json", "package-lock.json"])
      copyFileSync(path.join(RUNTIMES_PACKAGE, file), path.join(temp, file));
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const ci = spawnSync(npm, ["ci", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: temp,
      env: installEnv(),
      stdio: ["ignore", "inherit", "inherit"],
    });
    if (ci.status !== 0) return false;
    writeFileSync(path.join(temp, COMPLETE), `${new Date().toISOString()}\n`);
    try {
      renameSync(temp, installDir());
    } catch (error) {
      // Another run finished the same install first: use its copy.
      if (!runtimesInstalled()) throw error;
      rmSync(temp, { recursive: true, force: true });
    }
    return true;
  } catch (error) {
    rmSync(temp, { recursive: true, force: true });
    throw error;
  }
}

/** Points a link at a target, replacing the old link in one rename (a concurrent run sees the old or the new). */
function pointLink(link, target) {
  const temp = `${link}.${process.pid}`;
  rmSync(temp, { force: true });
  symlinkSync(path.relative(path.dirname(link), target), temp);
  renameSync(temp, link);
}

/** test/node_modules (what test files import from) and test/runtimes/current (tsconfig.json's paths) point at the
 * current install. */
function pointCurrent() {
  pointLink(TEST_MODULES, path.join(installDir(), "node_modules"));
  pointLink(path.join(RUNTIMES_PACKAGE, "current"), installDir());
}

/** Installs of older lockfiles, and temporary folders of runs that died (older than an hour). */
function prune() {
  const keep = lockHash();
  for (const entry of readdirSync(INSTALLS, { withFileTypes: true })) {
    if (entry.name === keep) continue;
    const full = path.join(INSTALLS, entry.name);
    const stale = !entry.name.startsWith(".tmp-") || Date.now() - statSync(full).mtimeMs > 3_600_000;
    if (stale) rmSync(full, { recursive: true, force: true });
  }
}

const started = performance.now();
if (runtimesInstalled()) {
  console.log(`Test runtimes: installed (${path.relative(process.cwd(), installDir())}).`);
} else {
  console.log("Test runtimes: installing test/runtimes (vitest, prettier, oxlint, wrangler, deno, edge-runtime, …)…");
  if (!install()) {
    // vitest, prettier and oxlint come from this install too: without it nothing of npm test can run.
    console.error("Test runtimes: the install failed (npm ci in a copy of test/runtimes); npm test needs it.");
    process.exit(1);
  }
  console.log(
    `Test runtimes: installed in ${((performance.now() - started) / 1000).toFixed(1)} s (not part of the suite's time).`,
  );
  prune();
}
pointCurrent();
