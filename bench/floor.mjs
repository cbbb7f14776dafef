// bench/floor.mjs
// The floor: a minimal Node script that writes the same files with the same bytes as a build, by a plain
// recursive copy of a built site (mkdir + copyFile per file, synchronous: the fastest simple way here).
// Usage: node bench/floor.mjs <built-dir> <new-dir>

import { copyFileSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";

const [src, dst] = process.argv.slice(2);
if (!src || !dst) {
  console.error("Usage: node bench/floor.mjs <built-dir> <new-dir>");
  process.exit(2);
}
function copy(rel) {
  mkdirSync(path.join(dst, rel), { recursive: rel === "" });
  for (const e of readdirSync(path.join(src, rel), { withFileTypes: true })) {
    const child = path.join(rel, e.name);
    if (e.isDirectory()) copy(child);
    else copyFileSync(path.join(src, child), path.join(dst, child));
  }
}
copy("");
