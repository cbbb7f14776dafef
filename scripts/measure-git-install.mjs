#!/usr/bin/env node
// scripts/measure-git-install.mjs
// I/O: measures what installing the tool from git costs a fresh CI machine: clones this repository at a ref (default
// HEAD), runs `npm install git+file://<clone>` in an empty project with an empty npm cache (prepare's temporary
// install included), and prints the seconds, the bytes the cache holds afterwards and its biggest entries.
//   usage: node scripts/measure-git-install.mjs [ref]

import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const ref = process.argv[2] ?? "HEAD";
const work = mkdtempSync(path.join(os.tmpdir(), "bis-git-install-"));

/** `du -sb dir` (files and folders), or the files' bytes where there is no du. */
function bytes(dir) {
  const du = spawnSync("du", ["-sb", dir], { encoding: "utf8" });
  if (du.status === 0) return Number(du.stdout.split("\t")[0]);
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += readFileSync(path.join(entry.parentPath, entry.name)).length;
  }
  return total;
}

/** The cache index's entries by size: a package's version list ("typescript") or a tarball ("….tgz"). */
function biggest(cache, count) {
  const sizes = new Map();
  for (const entry of readdirSync(path.join(cache, "_cacache", "index-v5"), { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    for (const line of readFileSync(path.join(entry.parentPath, entry.name), "utf8").split("\n").filter(Boolean)) {
      const { key, size } = JSON.parse(line.slice(line.indexOf("\t") + 1));
      if (!key.startsWith("pacote:"))
        sizes.set(key.replace(/^make-fetch-happen:request-cache:https?:\/\/[^/]+\//, ""), size ?? 0);
    }
  }
  return [...sizes].sort((a, b) => b[1] - a[1]).slice(0, count);
}

try {
  const clone = path.join(work, "clone");
  execFileSync("git", ["clone", "--quiet", "--no-checkout", REPO, clone]);
  execFileSync("git", [
    "-C",
    clone,
    "checkout",
    "--quiet",
    execFileSync("git", ["-C", REPO, "rev-parse", ref], { encoding: "utf8" }).trim(),
  ]);
  const project = path.join(work, "project");
  const cache = path.join(work, "cache");
  mkdirSync(project);
  writeFileSync(path.join(project, "package.json"), '{ "name": "empty", "version": "1.0.0", "private": true }\n');
  const started = performance.now();
  const install = spawnSync("npm", ["install", "--no-audit", "--no-fund", `git+file://${clone}`], {
    cwd: project,
    encoding: "utf8",
    env: { ...process.env, npm_config_cache: cache },
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (install.status !== 0) throw new Error(`npm install failed:\n${install.stderr}`);
  console.log(
    `git+file install of ${ref}: ${seconds} s, npm cache ${(bytes(cache) / 1e6).toFixed(1)} MB afterwards (du -sb)`,
  );
  for (const [key, size] of biggest(cache, 12)) console.log(`${(size / 1e6).toFixed(1).padStart(7)} MB  ${key}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
