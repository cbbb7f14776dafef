// test/cli/package.test.ts
// Issue 10 point 8, the fast half (npm run test:pack does the slow half from the real tarball): the package declares
// what npm and TypeScript need, ships its licence, no source maps, and imports every runtime dependency it lists.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "../helpers/fixtures.js";

const pkg = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as Record<string, unknown> & {
  dependencies: Record<string, string>;
  exports: Record<string, unknown>;
  files: string[];
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith(".ts") ? [path.join(dir, e.name)] : [],
  );
}

describe("the npm package", () => {
  it("imports every runtime dependency it lists (and lists every package it imports)", () => {
    const code = sources(path.join(REPO, "src"))
      .map((f) => readFileSync(f, "utf8"))
      .join("\n");
    const imported = new Set(
      [...code.matchAll(/(?:from |import\()"([^".][^"]*)"/g)]
        .map((m) => m[1]!)
        .filter((s) => !s.startsWith("node:"))
        .map((s) => (s.startsWith("@") ? s.split("/").slice(0, 2).join("/") : s.split("/")[0]!)),
    );
    expect([...imported].sort()).toEqual(Object.keys(pkg.dependencies).sort());
  });

  it("has an MIT LICENSE file, as package.json says, and ships it", () => {
    expect(pkg.license).toBe("MIT");
    expect(readFileSync(path.join(REPO, "LICENSE"), "utf8")).toMatch(
      /^MIT License\n\nCopyright \(c\) \d{4} .+\n\nPermission is hereby granted, free of charge/,
    );
    expect(pkg.files).toContain("LICENSE");
  });

  it("has an exports map with types, and repository, homepage, bugs and keywords", () => {
    expect(pkg.exports["."]).toEqual({ types: "./lib/index.d.ts", default: "./lib/index.js" });
    expect(pkg.repository).toMatchObject({ type: "git" });
    expect(typeof pkg.homepage).toBe("string");
    expect(pkg.bugs).toMatchObject({ url: expect.stringMatching(/^https:\/\//) });
    expect((pkg.keywords as string[]).length).toBeGreaterThan(0);
  });

  it("compiles without source maps (they would point at src/, which is not in the package)", () => {
    const build = JSON.parse(readFileSync(path.join(REPO, "tsconfig.build.json"), "utf8")) as {
      compilerOptions: Record<string, unknown>;
    };
    expect(build.compilerOptions.sourceMap).toBe(false);
    expect(build.compilerOptions.declarationMap).toBe(false);
    expect(pkg.files).not.toContain("src");
  });

  it("finds every file it loads beside its own code, from the compiled modules and from the command's bundle", () => {
    // The compiled modules (lib/<folder>/**/*.js) and the command's bundle (lib/cli-bundle/, bin/build-index-site.js runs
    // it) load generated files, schemas and package.json by paths relative to their own file. A path that misses in
    // the bundle would not fail: the validators and the content-type table fall back to slower ways of their own.
    expect(existsSync(path.join(REPO, "lib/cli-bundle/cli.cjs")), "lib/ is missing: run `npm run build` first").toBe(
      true,
    );
    // The bundle is CommonJS: its import.meta.url is a constant of its own (scripts/build-cli.mjs), and esbuild calls
    // an imported function as `(0, module.name)(…)`.
    const META = String.raw`(?:import\.meta\.url|__bisImportMetaUrl)`;
    const READS = [
      /new URL\((?:"|`)(\.\.?\/[^"`$]*)/g, // new URL("../../package.json", import.meta.url), and template literals up to ${
      new RegExp(String.raw`createRequire\w*\)?\(${META}\)\("(\.\.?\/[^"]+)"\)`, "g"),
      new RegExp(String.raw`fileURLToPath\w*\)?\(${META}\)\),\s*"(\.\.?\/[^"]+)"`, "g"),
      /PRECOMPILED_VALIDATORS\w* = "([^"]+)"/g,
    ];
    const reads = (dir: string, file: string): string[] => {
      const code = readFileSync(path.join(dir, file), "utf8");
      return READS.flatMap((re) => [...code.matchAll(re)].map((m) => path.join(dir, m[1]!)));
    };
    const bundleDir = path.join(REPO, "lib/cli-bundle");
    const inBundle = readdirSync(bundleDir)
      .filter((f) => f.endsWith(".cjs"))
      .flatMap((f) => reads(bundleDir, f));
    const inModules = readdirSync(path.join(REPO, "lib"), { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name !== "cli-bundle")
      .flatMap((e) =>
        readdirSync(path.join(REPO, "lib", e.name), { recursive: true, encoding: "utf8" })
          .filter((f) => f.endsWith(".js"))
          .flatMap((f) => reads(path.join(REPO, "lib", e.name, path.dirname(f)), path.basename(f))),
      );
    const rel = (p: string): string => path.relative(REPO, p).split(path.sep).join("/");
    // What they read, so that a changed pattern cannot make this pass by finding nothing.
    const both = [
      "package.json",
      "schemas",
      "lib/content/validators.generated.cjs",
      "lib/output/content-types.generated.json",
      "lib/catalogue/catalogue.js",
      "lib/edge",
      "lib/tool-fingerprint.txt",
    ];
    expect(new Set(inBundle.map(rel))).toEqual(new Set(both));
    // src/cli/startup/code-cache.ts finds the bundle from lib/cli/startup/.
    expect(new Set(inModules.map(rel))).toEqual(new Set([...both, "lib/cli-bundle/cli.cjs"]));
    for (const file of [...inBundle, ...inModules]) expect(existsSync(file), rel(file)).toBe(true);
  });

  it("ships the licences of the dependencies its command bundle copies", () => {
    const notices = readFileSync(path.join(REPO, "lib/cli-bundle/THIRD-PARTY-NOTICES.txt"), "utf8");
    const bundle = readdirSync(path.join(REPO, "lib/cli-bundle"))
      .filter((f) => f.endsWith(".cjs"))
      .map((f) => readFileSync(path.join(REPO, "lib/cli-bundle", f), "utf8"))
      .join("\n");
    // esbuild names each bundled file in a comment ("// node_modules/commander/lib/command.js").
    const bundled = new Set([...bundle.matchAll(/^\/\/ node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)].map((m) => m[1]!));
    expect(bundled.size).toBeGreaterThan(5);
    for (const name of bundled)
      expect(notices, name).toMatch(
        new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}@\\d+\\.\\d+\\.\\d+ \\(`, "m"),
      );
  });
});
