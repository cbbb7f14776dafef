// scripts/build-content-types.mjs
// `npm run build:content-types`: the Content-Type mime-types gives each file extension, as one small JSON table
// (lib/output/content-types.generated.json), made at package build. serve.json needs a handful of these per build;
// loading mime-types (and its 200 KB database) on every build cost more than the rest of the write plan.

import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import mime from "mime-types";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const table = {};
for (const ext of Object.keys(mime.types).sort()) {
  const type = mime.contentType(ext);
  if (type !== false) table[ext] = type;
}
const out = path.join(root, "lib/output/content-types.generated.json");
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(table)}\n`);
