// test/cli/package.test.ts
// Issue 10 point 8, the fast half (npm run test:pack does the slow half from the real tarball): the package declares
// what npm and TypeScript need, ships its licence, no source maps, and imports every runtime dependency it lists.

import { readdirSync, readFileSync } from "node:fs";
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
    e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith(".ts") ? [path.join(dir, e.name)] : []);
}

describe("the npm package", () => {
  it("imports every runtime dependency it lists (and lists every package it imports)", () => {
    const code = sources(path.join(REPO, "src")).map((f) => readFileSync(f, "utf8")).join("\n");
    const imported = new Set([...code.matchAll(/(?:from |import\()"([^".][^"]*)"/g)].map((m) => m[1]!)
      .filter((s) => !s.startsWith("node:"))
      .map((s) => (s.startsWith("@") ? s.split("/").slice(0, 2).join("/") : s.split("/")[0]!)));
    expect([...imported].sort()).toEqual(Object.keys(pkg.dependencies).sort());
  });

  it("has an MIT LICENSE file, as package.json says, and ships it", () => {
    expect(pkg.license).toBe("MIT");
    expect(readFileSync(path.join(REPO, "LICENSE"), "utf8")).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} .+\n\nPermission is hereby granted, free of charge/);
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
    const build = JSON.parse(readFileSync(path.join(REPO, "tsconfig.build.json"), "utf8")) as { compilerOptions: Record<string, unknown> };
    expect(build.compilerOptions.sourceMap).toBe(false);
    expect(build.compilerOptions.declarationMap).toBe(false);
    expect(pkg.files).not.toContain("src");
  });
});
