// src/layout/site-manifest.ts
// I/O: --out's manifest as the records keep it (site.manifest), read back: a hash and size per site path.

import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

/** A file of --out as the build recorded it: its sha1 (base64url) and size. */
export interface SiteFileRecord {
  sha1: string;
  size: number;
}

/** The manifest's records that `keep` accepts, read line by line (a large site's whole text is large). */
export async function keptSiteFiles(
  file: string,
  keep: (sitePath: string) => boolean,
): Promise<Map<string, SiteFileRecord>> {
  const files = new Map<string, SiteFileRecord>();
  const lines = createInterface({
    input: createReadStream(file, { encoding: "utf8", highWaterMark: 256 * 1024 }),
    crlfDelay: Infinity,
  });
  let header = true;
  for await (const line of lines) {
    if (header) {
      header = false;
      continue;
    }
    const first = line.indexOf(" ");
    const second = line.indexOf(" ", first + 1);
    if (first <= 0 || second <= first || line.startsWith("mtimes ")) continue;
    const sitePath = line.slice(second + 1);
    if (keep(sitePath))
      files.set(sitePath, { sha1: line.slice(0, first), size: Number(line.slice(first + 1, second)) });
  }
  return files;
}

/** The manifest's lines ("<sha1> <size> <path>") → path → record, read in place (no array of lines). */
export function parseSiteManifest(text: string): Map<string, SiteFileRecord> {
  const files = new Map<string, SiteFileRecord>();
  let start = text.indexOf("\n") + 1; // the header line
  while (start > 0 && start < text.length) {
    const end = text.indexOf("\n", start);
    const stop = end === -1 ? text.length : end;
    const first = text.indexOf(" ", start);
    const second = first === -1 || first >= stop ? -1 : text.indexOf(" ", first + 1);
    if (first > start && second > first && second < stop && !text.startsWith("mtimes ", start)) {
      files.set(text.slice(second + 1, stop), {
        sha1: text.slice(start, first),
        size: Number(text.slice(first + 1, second)),
      });
    }
    start = stop + 1;
  }
  return files;
}
