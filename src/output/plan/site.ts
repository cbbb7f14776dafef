// src/output/plan/site.ts
// Every file of --out, the public site, as the plan lists it.

import type { RawFile } from "../../content/read-content.js";
import { DATA_FOLDER, isEdgeDataPath } from "../../edge/data.js";
import { isAnswerPath } from "../../layout/link-trees.js";
import { AnswerOutput } from "../../routes/answer-files.js";
import type { BuiltRoutes } from "../../routes/build-routes.js";
import type { OutputFile } from "./files.js";

/**
 * Every file of --out, the public site: the plain files sorted by path (the content's, and the pages the build makes:
 * the catalogue, src/catalogue), then the answer files (all under api/) in the order the route table made them.
 * Answers are not sorted: their paths are made only when the writer asks.
 */
export function planSite(
  routes: BuiltRoutes,
  published: readonly RawFile[],
  parts: {
    answers: boolean;
    data: ReadonlyArray<{ path: string; data: string; hash?: Buffer }>;
    /** The site's own pages (the catalogue): plain files of the site that the build makes. */
    pages?: readonly OutputFile[];
  } = { answers: true, data: [] },
): OutputFile[] {
  const files: OutputFile[] = published.map((f) => ({
    path: f.path,
    source: f.absPath,
    size: f.size,
    mtimeMs: f.mtimeMs,
    ...(f.data === undefined ? {} : { bytes: f.data }),
    ...(f.facts === undefined ? {} : { hash: f.facts.hash }),
  }));
  for (const f of parts.data) {
    if (!isEdgeDataPath(f.path)) throw new Error(`Internal: the data file ${f.path} lies outside ${DATA_FOLDER}/.`);
    files.push({ path: f.path, data: f.data, ...(f.hash === undefined ? {} : { hash: f.hash }) });
  }
  files.push(...(parts.pages ?? []));
  files.sort(byPath);
  for (let i = 0; i < files.length; i++) {
    if (i > 0 && files[i]!.path === files[i - 1]!.path)
      throw new Error(`Internal: ${files[i]!.path} is written twice.`);
    if (isAnswerPath(files[i]!.path)) throw new Error(`Internal: ${files[i]!.path} is not an answer but lies in api/.`);
  }
  // The answer files only when a static host routes /api.php to them: an edge host's handler never reads them.
  if (parts.answers) routes.files.pushOutputs(files);
  return files;
}

/**
 * Whether an edge host serves this file of --out as a file (its upload links it): a plain file of the content, a
 * page of the site (the catalogue), or one of the handler's data files. Never an answer file (its handler answers
 * /api.php).
 */
export function servedByEdge(f: OutputFile): boolean {
  // An answer's path is made only when asked for: it is known without it (a large site has hundreds of thousands).
  if (f instanceof AnswerOutput) return false;
  return !isAnswerPath(f.path); // the content's files, the site's own pages, the handler's data
}

const byPath = (a: OutputFile, b: OutputFile): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
