// test/edge/bundle.test.ts
// The handler bundle is one self-contained ES module built from src (no second copy): no imports, no Node
// built-ins, one export (createApiHandler), and it carries the src/api code it was built from.

import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { BUNDLE_PATH, handlerBundle } from "../../src/edge/index.js";

describe("handler bundle", () => {
  test("is one ES module exporting only createApiHandler, with no imports and no Node built-ins", () => {
    const text = handlerBundle();
    expect(text).toBe(readFileSync(BUNDLE_PATH, "utf8"));
    expect(text).toMatch(/\nexport\s*\{\s*createApiHandler\s*\};?\s*$/);
    expect(text.match(/^\s*(import|export)\b/gm)).toHaveLength(1);
    for (const node of [/\brequire\s*\(/, /["']node:/, /\bBuffer\b/, /\bprocess\./, /\bimport\s*\(/]) expect(text).not.toMatch(node);
  });

  test("is built from src/api, src/model and src/edge (esbuild's module markers)", () => {
    const modules = [...handlerBundle().matchAll(/^\/\/ (src\/\S+\.ts)$/gm)].map((m) => m[1]);
    for (const m of ["src/api/answers.ts", "src/api/php-request.ts", "src/model/version-compare.ts", "src/edge/handler.ts"]) {
      expect(modules).toContain(m);
    }
  });
});
