// test/edge/bundle.test.ts
// The handler bundle and each host's entry are self-contained ES modules built from src (no second copy): no
// imports, no Node built-ins, one export, the src/php code they were built from, and no site data (the same bytes
// for every site).

import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { BUNDLE_PATH, entryBundle, handlerBundle } from "../../src/edge/index.js";
import { EDGE_HOST_NAMES } from "../../src/hosts/names.js";

describe("handler bundle", () => {
  test("is one ES module exporting createApiHandler, with no imports and no Node built-ins", () => {
    const text = handlerBundle();
    expect(text).toBe(readFileSync(BUNDLE_PATH, "utf8"));
    expect(text).toMatch(/\nexport\s*\{[^}]*\bcreateApiHandler\b[^}]*\};?\s*$/);
    expect(text.match(/^\s*(import|export)\b/gm)).toHaveLength(1);
    for (const node of [/\brequire\s*\(/, /["']node:/, /\bBuffer\b/, /\bprocess\./, /\bimport\s*\(/])
      expect(text).not.toMatch(node);
  });

  test("is built from src/php, src/model and src/edge (esbuild's module markers)", () => {
    const modules = [...handlerBundle().matchAll(/^\/\/ (src\/\S+\.ts)$/gm)].map((m) => m[1]);
    for (const m of [
      "src/php/answers.ts",
      "src/php/php-request.ts",
      "src/model/version-compare.ts",
      "src/edge/handler.ts",
    ]) {
      expect(modules).toContain(m);
    }
  });
});

describe("host entries", () => {
  test("each is one module with one default export, no imports, no Node built-ins, built from its host folder's entry.ts", () => {
    for (const host of EDGE_HOST_NAMES) {
      const text = entryBundle(host);
      expect(text.match(/^\s*(import|export)\b/gm), host).toHaveLength(1);
      expect(text, host).toMatch(/\nexport\s*\{\s*\w+ as default\s*\};?\s*$/);
      for (const node of [/\brequire\s*\(/, /["']node:/, /\bBuffer\b/, /\bprocess\./, /\bimport\s*\(/])
        expect(text, host).not.toMatch(node);
      const modules = [...text.matchAll(/^\/\/ (src\/\S+\.ts)$/gm)].map((m) => m[1]);
      expect(modules, host).toContain(`src/hosts/${host}/entry.ts`);
      expect(modules, host).toContain("src/edge/handler.ts");
      expect(modules, host).not.toContain("src/edge/data-files.ts");
      // Small: the site's data is never in it.
      expect(text.length, host).toBeLessThan(80_000);
    }
  });
});
