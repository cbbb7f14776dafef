// src/php/header-groups.ts
// The API's response headers by site path: one small list that path-matching hosts (serve.json, _headers,
// .htaccess) can carry. The build checks that every answer file gets exactly the headers of its answer.

import type { AnswerKind, Status } from "./answers.js";
import { answerHeaders, CORS_HEADERS } from "./answers.js";

export interface HeaderGroup {
  /** Exact file paths, or folder prefixes ending in "/" (every file below). */
  paths: string[];
  headers: Record<string, string>;
}

const cache = (seconds: number): Record<string, string> => ({ "Cache-Control": `public, max-age=${seconds}` });

/** Every group whose paths cover a file applies, in this order. Error answers live in /api/errors/, uncached. */
export const HEADER_GROUPS: readonly HeaderGroup[] = [
  { paths: ["/api/"], headers: { "Content-Type": "application/json", ...CORS_HEADERS } },
  { paths: ["/api/config.json"], headers: cache(3600) },
  { paths: ["/api/versionCheck.json", "/api/versionCheck/"], headers: cache(900) },
  {
    paths: [
      "/api/icons.json",
      "/api/iconMappings.json",
      "/api/configReference.json",
      "/api/findIcon/",
      "/api/extensionMappings/",
      "/api/getExtensionSetting/",
    ],
    headers: cache(86400),
  },
];

const covers = (groupPath: string, path: string): boolean =>
  groupPath.endsWith("/") ? path.startsWith(groupPath) : path === groupPath;

/** The headers the groups give a site path. */
export function pathHeaders(path: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const group of HEADER_GROUPS) {
    if (group.paths.some((p) => covers(p, path))) Object.assign(headers, group.headers);
  }
  return headers;
}

const sameHeaders = (a: Record<string, string>, b: Record<string, string>): boolean => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
};

/**
 * Throws when a file's path would get other headers than its answer needs (a layout bug, never a content one).
 * A set of answers is checked once: every member of a folder gets the headers of its folder's prefix groups, unless a
 * group names a single file inside that folder (then the set is refused too).
 */
export function checkHeaderGroups(
  files: Iterable<{ path: string; dir?: string; kind: AnswerKind; status: Status }>,
): void {
  for (const { path, dir, kind, status } of files) {
    const want = answerHeaders({ kind, status });
    const got = pathHeaders(path);
    const named =
      dir === undefined
        ? undefined
        : HEADER_GROUPS.flatMap((g) => g.paths).find((p) => !p.endsWith("/") && p.startsWith(`${dir}/`));
    if (named !== undefined)
      throw new Error(`Internal: the header group for ${named} lies inside the answer folder ${dir}.`);
    if (!sameHeaders(want, got)) {
      throw new Error(
        `Internal: ${path} would be served with ${JSON.stringify(got)}, but its answer needs ${JSON.stringify(want)}.`,
      );
    }
  }
}
