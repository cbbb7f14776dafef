// test/docs/install-commands.test.ts
// Every text that tells how to install the tool names an install that works today: the package is not on the npm
// registry, so `npm install build-index-site` fails; the repository spec that `init` writes, or a packed tarball, works.

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { INSTALL_SPEC } from "../../src/init/package-json.js";
import { REPO } from "../helpers/fixtures.js";

/** README.md, every page under docs/ (examples included) and the verify plugin's error message. */
function texts(): string[] {
  const found = ["README.md", "docs/examples/netlify-verify-plugin/index.js"];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(REPO, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith(".md")) found.push(rel);
    }
  };
  walk("docs");
  return found;
}

/** The package specs of each `npm install …` / `npm i …` that installs build-index-site. */
function installSpecs(text: string): string[] {
  const specs: string[] = [];
  for (const [command] of text.matchAll(/npm (?:install|i|add)\b[^`\n)]*/g)) {
    const args = command.split(/\s+/).slice(2);
    specs.push(...args.filter((arg) => !arg.startsWith("-") && /build-index-site/.test(arg)));
  }
  return specs;
}

describe("install commands in the docs", () => {
  test.each(texts())("%s names only installs that work", (file) => {
    const bad = installSpecs(readFileSync(path.join(REPO, file), "utf8")).filter(
      (spec) => spec !== INSTALL_SPEC && !spec.endsWith(".tgz"),
    );
    expect(bad).toEqual([]);
  });

  test("finds the README's install", () => {
    expect(installSpecs(readFileSync(path.join(REPO, "README.md"), "utf8"))).toContain(INSTALL_SPEC);
  });
});
