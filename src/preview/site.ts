// src/preview/site.ts
// I/O: the built site as the preview serves it: the build's records (read through src/layout/read-build.ts, again
// after a rebuild), serve.json's header rules, and where a site path leads (a file, a folder, nothing), as far as
// the previewed host uploads it.

import { realpath, stat } from "node:fs/promises";
import type { Stats } from "node:fs";
import http from "node:http";
import path from "node:path";
import mime from "mime-types";
import { minimatch } from "minimatch";
import { isEdgeDataPath } from "../edge/data.js";
import { PAGE_CSP, SVG_CSP } from "../hosts/shared/csp.js";
import { isAnswerPath } from "../layout/link-trees.js";
import { buildVersion, readBuild, type Build } from "../layout/read-build.js";
import type { ApiRouter } from "./api-route.js";
import type { HostBehaviour } from "./hosts.js";

/** serve.json's `headers` (the rules `npx serve` applies): a glob on the site path, and headers to add. */
interface ServeConfig {
  headers?: Array<{ source: string; headers: Array<{ key: string; value: string }> }>;
}

/** The records' version (src/layout) when they can be seen, "" otherwise (mid-swap, removed): the loaded table stays. */
export function recordsVersion(root: string): string {
  try {
    return buildVersion(root);
  } catch {
    return "";
  }
}

export interface SiteState {
  /** The records' version: a rebuild replaces them, so it changes. */
  key: string;
  /** The records, and the previewed host's router of /api.php over them (made when first asked). */
  build: Build;
  router?: Promise<ApiRouter>;
  /** serve.json's rules. */
  headerRules: Array<{ match: (sitePath: string) => boolean; headers: Record<string, string> }>;
  realRoot: string;
}

/** The site as the build's records describe it (the one reader, src/layout/read-build.ts). */
export async function loadSite(root: string): Promise<SiteState> {
  const build = await readBuild(root);
  const serve = (await build.serveConfig()) as ServeConfig;
  return {
    key: build.version(),
    build,
    headerRules: (serve.headers ?? []).map(({ source, headers }) => ({
      match: (p: string) => minimatch(p, source.startsWith("/") ? source : `/${source}`, { dot: true }),
      headers: Object.fromEntries(headers.map(({ key: k, value }) => [k, value])),
    })),
    realRoot: await realpath(root),
  };
}

/** A plain file's headers: its type (mime-types), then serve.json's rules in order, and the SVG policy. */
export function fileHeaders(site: SiteState, sitePath: string): Record<string, string> {
  const type = mime.contentType(path.posix.basename(sitePath));
  const headers: Record<string, string> = type === false ? {} : { "Content-Type": type };
  for (const rule of site.headerRules) if (rule.match(sitePath)) Object.assign(headers, rule.headers);
  return withSvgPolicy(headers);
}

/** The SVG policy on SVG files, the pages' policy on HTML pages (the catalogue), as every host config sends them. */
export const withSvgPolicy = (headers: Record<string, string>): Record<string, string> =>
  /^image\/svg\+xml\b/i.test(headers["Content-Type"] ?? "")
    ? { ...headers, "Content-Security-Policy": SVG_CSP }
    : /^text\/html\b/i.test(headers["Content-Type"] ?? "")
      ? { ...headers, "Content-Security-Policy": PAGE_CSP }
      : headers;

export function plain(res: http.ServerResponse, status: number, extra: Record<string, string> = {}): void {
  const body = `${http.STATUS_CODES[status] ?? "Error"}\n`;
  res.writeHead(status, {
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(body)),
    ...extra,
  });
  res.end(res.req.method === "HEAD" ? undefined : body);
}

/** An answer without a body (OPTIONS). */
export function empty(res: http.ServerResponse, status: number, headers: Record<string, string>): void {
  res.writeHead(status, { ...headers, "Content-Length": "0" });
  res.end();
}

/** Where `sitePath` leads inside the site: a regular file, a folder, or nothing (a symlink out of the site, a FIFO or
 * a device, any error). The site folder itself may be a symlink repointed since: resolved again. */
export async function siteEntry(
  root: string,
  site: SiteState,
  sitePath: string,
): Promise<{ file: string; stats: Stats } | "folder" | null> {
  const file = path.join(root, sitePath);
  const inside = (real: string, top: string): boolean => real === top || real.startsWith(top + path.sep);
  try {
    const real = await realpath(file);
    if (!inside(real, site.realRoot) && !inside(real, await realpath(root))) return null;
    const stats = await stat(real);
    return stats.isFile() ? { file: real, stats } : stats.isDirectory() ? "folder" : null;
  } catch {
    return null;
  }
}

/** Whether the host uploads a plain path: the answer files and the handler's data only where its upload holds them. */
export function uploads(behaviour: HostBehaviour, sitePath: string): boolean {
  const relative = sitePath.slice(1);
  if (isAnswerPath(relative)) return behaviour.answerFiles !== "absent";
  return !isEdgeDataPath(relative) || behaviour.edgeData;
}

/** The site's state, reloaded when the records are others than the ones loaded (a build replaced them): a stat or two. */
export async function siteReader(root: string): Promise<() => Promise<SiteState>> {
  let site = await loadSite(root);
  let reloading: Promise<void> | null = null;
  return async () => {
    const key = recordsVersion(root);
    if (key !== site.key && key !== "") {
      reloading ??= loadSite(root)
        .then(
          (s) => {
            site = s;
          },
          () => undefined,
        )
        .finally(() => {
          reloading = null;
        });
      await reloading;
    }
    return site;
  };
}
