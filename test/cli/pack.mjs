#!/usr/bin/env node
// test/cli/pack.mjs (`npm run test:pack`, the last step of `npm test`): the package as npm publishes it. Packs the tarball, checks
// what is in it (LICENSE, compiled code, no source maps, no sources), installs it into an empty temporary project
// (dependencies come from the npm registry), then runs `npx build-index-site init`, checks that `--strict` refuses its
// placeholder base URL, sets one as a user would and runs `npx build-index-site --strict` there, and imports the
// programmatic API. Takes about half a minute; exits non-zero on the first failure.

import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

// It needs the npm registry (for the package's dependencies): outside CI it runs only when asked (BIS_TEST_PACK=1).
if (!process.env.CI && !process.env.BIS_TEST_PACK) {
  console.log(
    "test:pack skipped: it installs the packed tarball's dependencies from the npm registry; set CI=1 or BIS_TEST_PACK=1 to run it.",
  );
  process.exit(0);
}

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const work = mkdtempSync(path.join(os.tmpdir(), "bis-pack-"));
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const npx = process.platform === "win32" ? "npx.cmd" : "npx";
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
const fail = (message) => {
  console.error(`test:pack FAILED: ${message}`);
  process.exitCode = 1;
  throw new Error(message);
};

try {
  const [packed] = JSON.parse(run(npm, ["pack", "--json", "--pack-destination", work], repo));
  const files = packed.files.map((f) => f.path);
  for (const needed of [
    "LICENSE",
    "README.md",
    "package.json",
    "bin/build-index-site.js",
    "lib/cli.js",
    "lib/cli-bundle/cli.cjs",
    "lib/cli/startup/code-cache.js",
    "lib/cli-bundle/THIRD-PARTY-NOTICES.txt",
    "lib/tool-fingerprint.txt",
    "lib/index.js",
    "lib/index.d.ts",
    "schemas/manifest.schema.json",
  ]) {
    if (!files.includes(needed)) fail(`${needed} is not in the package`);
  }
  // The README's and the docs' relative links resolve inside the installed package (a file, or a folder of files).
  for (const page of files.filter((f) => f === "README.md" || (f.startsWith("docs/") && f.endsWith(".md")))) {
    const text = readFileSync(path.join(repo, page), "utf8");
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target) || target.startsWith("#")) continue;
      const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(page), target.split("#")[0]));
      const folder = resolved.replace(/\/$/, "");
      if (!files.includes(resolved) && !files.some((f) => f.startsWith(`${folder}/`))) {
        fail(`${page} links to ${target}, which is not in the package`);
      }
    }
  }
  const maps = files.filter((f) => f.endsWith(".map"));
  if (maps.length > 0) fail(`source maps in the package point at files outside it: ${maps.slice(0, 3).join(", ")}`);
  const sources = files.filter((f) => f.startsWith("src/") || f.startsWith("test/"));
  if (sources.length > 0) fail(`sources in the package: ${sources.slice(0, 3).join(", ")}`);

  // Every runtime dependency is imported by the compiled code.
  const pkg = JSON.parse(readFileSync(path.join(repo, "package.json"), "utf8"));
  const lib = files
    .filter((f) => f.startsWith("lib/") && f.endsWith(".js"))
    .map((f) => readFileSync(path.join(repo, f), "utf8"))
    .join("\n");
  for (const dep of Object.keys(pkg.dependencies ?? {})) {
    if (!lib.includes(`"${dep}"`) && !lib.includes(`"${dep}/`)) fail(`the dependency ${dep} is never imported by lib/`);
  }

  const project = path.join(work, "project");
  run("mkdir", ["-p", project]);
  writeFileSync(
    path.join(project, "package.json"),
    `${JSON.stringify({ name: "pack-test", private: true, type: "module" })}\n`,
  );
  run(npm, ["install", "--no-audit", "--no-fund", path.join(work, packed.filename)], project);
  console.log(run(npx, ["--no-install", "build-index-site", "--version"], project).trim());
  console.log(run(npx, ["--no-install", "build-index-site", "init"], project).trim());
  const placeholder = spawnSync(npx, ["--no-install", "build-index-site", "--strict"], {
    cwd: project,
    encoding: "utf8",
  });
  if (placeholder.status !== 1 || !placeholder.stderr.includes("[BASE_URL_PLACEHOLDER]"))
    fail(`--strict did not refuse init's placeholder base URL (exit ${placeholder.status}): ${placeholder.stderr}`);
  const manifest = path.join(project, "content", "manifest.json");
  writeFileSync(
    manifest,
    readFileSync(manifest, "utf8").replace("https://your-site.example", "https://icons.example.com"),
  );
  console.log(run(npx, ["--no-install", "build-index-site", "--strict"], project).trim());
  if (!existsSync(path.join(project, ".build-index-site", "dist", "routes.json")))
    fail(".build-index-site/dist/routes.json was not written");
  if (existsSync(path.join(project, "dist", "routes.json")))
    fail("dist/routes.json was written: nothing of the build's own belongs in dist/");
  const api = run(
    "node",
    [
      "--input-type=module",
      "-e",
      "import { build, check, preview } from 'build-index-site'; const r = await check(); console.log(typeof build, typeof preview, r.ok, r.diagnostics.length);",
    ],
    project,
  ).trim();
  if (api !== "function function true 0") fail(`the programmatic API answered "${api}"`);
  console.log(
    `test:pack ok: ${packed.filename} (${files.length} files, ${packed.size} bytes packed); init, build --strict and the API work from the installed tarball.`,
  );
} catch (error) {
  if (process.exitCode !== 1) {
    console.error(`test:pack FAILED: ${error.message}\n${error.stdout ?? ""}${error.stderr ?? ""}`);
    process.exitCode = 1;
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
