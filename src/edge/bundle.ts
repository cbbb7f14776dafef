// src/edge/bundle.ts
// I/O: the handler bundles' text, read from lib/edge (Node side): the ES modules scripts/build-edge.mjs writes when the
// package is built (`npm run build`): lib/edge/handler.bundle.js (createApiHandler, for tests and benches) and one per
// edge host, lib/edge/bundles/<host>.js (src/hosts/<host>/entry.ts with the handler: what the build emits). Which
// hosts have one is their presets' word (src/hosts/names.ts: EDGE_HOST_NAMES); this module knows where they lie.
// Never kept as a string in the source.

import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const LIB_EDGE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../lib/edge");
/** From src/edge (tests) and from lib/edge (the package), the same place: <package>/lib/edge. */
export const BUNDLE_PATH = path.join(LIB_EDGE, "handler.bundle.js");

/** An edge host's bundle: its folder's entry.ts with the handler. */
export const entryPath = (host: string): string => path.join(LIB_EDGE, "bundles", `${host}.js`);

const cached = new Map<string, string>();

function read(file: string): string {
  let text = cached.get(file);
  if (text !== undefined) return text;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new Error(`Internal: the handler bundle ${file} is missing; run \`npm run build\`.`);
  }
  cached.set(file, text);
  return text;
}

/** One self-contained ES module (no imports) exporting `createApiHandler()`. */
export const handlerBundle = (): string => read(BUNDLE_PATH);

/** An edge host's entry: one self-contained ES module (no imports) whose default export the host calls. */
export const entryBundle = (host: string): string => read(entryPath(host));
