// src/edge/bundle.ts
// The handler bundle's text (Node side): the ES module esbuild writes from src/edge/handler.ts when the package is
// built (`npm run build`: lib/edge/handler.bundle.js). Never kept as a string in the source.

import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** From src/edge (tests) and from lib/edge (the package), the same place: <package>/lib/edge. */
export const BUNDLE_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../lib/edge/handler.bundle.js");

let cached: string | undefined;

/** One self-contained ES module (no imports) exporting `createApiHandler(siteData)`. */
export function handlerBundle(): string {
  if (cached !== undefined) return cached;
  try {
    cached = readFileSync(BUNDLE_PATH, "utf8");
  } catch {
    throw new Error(`Internal: the handler bundle ${BUNDLE_PATH} is missing; run \`npm run build\`.`);
  }
  return cached;
}
