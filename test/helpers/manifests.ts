// test/helpers/manifests.ts
// What a build's manifests say of its files, held to the files themselves: each line "<sha1> <size> <path>" of the
// records' site.manifest (--out's files), of their beside/<dir>.manifest (each folder beside --out) and of their own
// .build-manifest names a file with exactly those bytes. A writer that records a hash it did not compute (a host's file, hashed once from the hosts' record) is held
// here to the bytes on disk, which a comparison of two builds cannot see when both record the same wrong hash.

import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { layoutOf, MANIFEST_FILE } from "../../src/layout/paths.js";
import { parseStamp } from "../../src/layout/stamp.js";

/** The lines of `manifest` whose file under `dir` is not what they say: "<path>: <what>". */
function untrue(dir: string, manifest: string): string[] {
  const wrong: string[] = [];
  for (const line of readFileSync(manifest, "utf8").split("\n")) {
    const m = /^(\S{27}) (\d+) (.+)$/.exec(line);
    if (m === null) continue; // the header, the times, the last empty line
    const [, sha1, size, rel] = m;
    const file = path.join(dir, rel!);
    if (!existsSync(file)) {
      wrong.push(`${file}: listed, missing`);
      continue;
    }
    const bytes = readFileSync(file);
    const actual = `${createHash("sha1").update(bytes).digest("base64url")} ${bytes.length}`;
    if (actual !== `${sha1} ${size}`) wrong.push(`${file}: listed as ${sha1} ${size}, holds ${actual}`);
  }
  return wrong;
}

/** Every manifest line of the build of `out` (its records' site.manifest, their manifest of each folder its stamp
 * names beside --out, and their own .build-manifest) that its file does not bear out; empty when all are true. */
export function untrueManifestLines(out: string): string[] {
  const layout = layoutOf(out);
  const stamp = parseStamp(readFileSync(layout.stamp, "utf8"));
  if (stamp === null) return [`${layout.stamp}: no stamp`];
  return [
    ...untrue(out, layout.siteManifest),
    ...untrue(layout.records, path.join(layout.records, MANIFEST_FILE)),
    ...stamp.beside.flatMap((dir) => untrue(layout.beside(dir), layout.besideManifest(dir))),
  ];
}

/** The strong ETag of bytes as the build records them and the previews and handlers send them: `"<sha1, base64url>"`,
 * computed here, not by the code under test. */
export const sha1Tag = (bytes: Buffer | string): string => `"${createHash("sha1").update(bytes).digest("base64url")}"`;
