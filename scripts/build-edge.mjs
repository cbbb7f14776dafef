// scripts/build-edge.mjs
// `npm run build:edge`: the request-time handler as one ES module (lib/edge/handler.bundle.js, for tests and
// benches), and each edge host's runtime entry, found by globbing src/hosts/*/entry.ts, bundled with it into
// lib/edge/bundles/<host>.js (what the build emits: src/edge/bundle.ts reads them). A host folder with an entry.ts
// gets its bundle without any list to edit here.

import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import fg from "fast-glob";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const options = {
  absWorkingDir: root,
  bundle: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  legalComments: "inline",
  logLevel: "warning",
};

await build({ ...options, entryPoints: ["src/edge/handler.ts"], outfile: "lib/edge/handler.bundle.js" });

const entries = fg.sync("src/hosts/*/entry.ts", { cwd: root }).sort();
if (entries.length === 0) throw new Error("build:edge: no src/hosts/*/entry.ts found");
await build({
  ...options,
  // Each bundle is named after its host's folder: lib/edge/bundles/<host>.js.
  entryPoints: entries.map((entry) => ({ in: entry, out: path.posix.basename(path.posix.dirname(entry)) })),
  outdir: "lib/edge/bundles",
});
