// src/pipeline/measure-hosts.ts
// What a host's deploy receives, measured before anything is written (src/hosts/limits.ts checks the measures).

import { gzipSync } from "node:zlib";
import type { RawContent } from "../content/read-content.js";
import type { HostName, HostOutput } from "../hosts/index.js";
import type { HostMeasures } from "../hosts/limits.js";

interface Largest {
  path: string;
  bytes: number;
}

/**
 * A host's measures: files in its upload (its own and `siteFiles` of the site), the largest file (of its own and
 * `published`, the largest of the site's), and its handler (the JavaScript it runs), as is and gzipped.
 */
export function measureHost(
  host: HostName,
  output: HostOutput,
  published: Largest,
  siteFiles: number,
  handler?: Pick<HostMeasures, "handlerBytes" | "handlerGzipBytes">,
): HostMeasures {
  const own = ownFiles(output);
  const code = own.filter((f) => /\.m?js$/.test(f.path));
  const measures: HostMeasures = { host, files: own.length + siteFiles, largestFile: largestOf(own, published) };
  if (code.length > 0) {
    measures.handlerBytes = handler?.handlerBytes ?? code.reduce((n, f) => n + Buffer.byteLength(f.data), 0);
    measures.handlerGzipBytes = handler?.handlerGzipBytes ?? code.reduce((n, f) => n + gzipSync(f.data).length, 0);
  }
  return measures;
}

/** The largest of the content's copies, found once for every host. */
export function largestPublished(published: RawContent["published"]): Largest {
  let largest = { path: "", bytes: 0 };
  for (const f of published) if (f.size > largest.bytes) largest = { path: f.path, bytes: f.size };
  return largest;
}

const ownFiles = (output: HostOutput): HostOutput["files"] => [
  ...output.files,
  ...(output.beside ?? []).flatMap((folder) => folder.files),
];

/** The largest of a host's own files, or `published` when that is larger. */
function largestOf(own: HostOutput["files"], published: Largest): Largest {
  let largest = { path: "", bytes: 0 };
  for (const f of own) {
    const bytes = f.bytes ?? Buffer.byteLength(f.data);
    if (bytes > largest.bytes) largest = { path: f.path, bytes };
  }
  return published.bytes > largest.bytes ? published : largest;
}
