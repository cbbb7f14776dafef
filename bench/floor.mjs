// bench/floor.mjs
// The floor: a bare Node process that writes the same files with the same bytes as a build, by the plainest copy
// of everything the build wrote (the output folder and the host folders beside it): readFileSync + writeFileSync per
// file, mkdirSync per folder, synchronous, in one process. No sync before or after, as the build gets none.
// Usage: node bench/floor.mjs <built-root> <new-root>   (a root holds dist/ and, beside it, .netlify/ and .vercel/)

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const [src, dst] = process.argv.slice(2);
if (!src || !dst) {
  console.error("Usage: node bench/floor.mjs <built-root> <new-root>");
  process.exit(2);
}
function copy(rel) {
  mkdirSync(path.join(dst, rel), { recursive: rel === "" });
  for (const e of readdirSync(path.join(src, rel), { withFileTypes: true })) {
    const child = path.join(rel, e.name);
    if (e.isDirectory()) copy(child);
    else writeFileSync(path.join(dst, child), readFileSync(path.join(src, child)));
  }
}
copy("");
