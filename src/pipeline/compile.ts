// src/pipeline/compile.ts
// `compile`: reads and computes a build, writing nothing (`check`, `diff`), and how many files it would write. The
// computing itself (compile-site.ts: ajv, the model, routes, host printers) loads only when it is asked for, so
// that a command or a rebuild with nothing to do stays cheap.

import { readContent } from "../content/read-content.js";
import { isEdgeDataPath } from "../edge/data.js";
import type { Compiled } from "./compile-site.js";
import { readOptions, type CompileOptions } from "./options.js";

/** Reads and checks the content and computes every answer, without writing anything. */
export async function compile(options: CompileOptions): Promise<Compiled> {
  const raw = await readContent(options.content, readOptions(options));
  const { compileSite } = await import("./compile-site.js");
  return compileSite(raw, options);
}

/** How many files a build of `compiled` writes in all: --out, the host folders (links included), the folders beside
 * --out, and the records. */
export function filesToWrite(compiled: Compiled): number {
  const data = compiled.site.filter((f) => isEdgeDataPath(f.path)).length;
  const plain = compiled.published.length + data;
  const links = (docroot: "site" | "plain" | undefined): number =>
    docroot === "site" ? compiled.site.length - data : docroot === "plain" ? plain : 0;
  // The records: build.json, site.id, site.manifest, routes.json, serve.json, hosts.json, handler.js with an edge host,
  // answer-inputs.json with a static host, and catalogue-inputs.json with the catalogue.
  let n =
    compiled.site.length +
    6 +
    (compiled.handler === undefined ? 0 : 1) +
    (compiled.answers ? 1 : 0) +
    (compiled.cataloguePrints === undefined ? 0 : 1);
  for (const host of compiled.hosts) n += host.files.length + links(host.docroot);
  for (const folder of compiled.beside) n += folder.files.length + 1 + (folder.plainFiles === undefined ? 0 : plain);
  return n;
}
