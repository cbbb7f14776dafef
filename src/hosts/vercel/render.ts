// src/hosts/vercel/render.ts
// Vercel, the default output: the Build Output API v3 (chosen over Edge Middleware: it is a documented, file-based
// output of a build that needs no framework and no `middleware.js` in the user's project). `.vercel/output/` in the
// folder that holds --out: `static/` the site's plain files and the handler's data files (`_edge-data/`; hard links
// to the output folder's files; no answer file, since the function answers every /api.php request), one edge
// function `api.php.func` that answers /api.php (and /api.php/…, PHP's PATH_INFO, routed to it), and `config.json`
// with the routes. The edge function is one file, the same for every site (src/hosts/vercel/entry.ts bundled with
// the handler): it reads its data files with a fetch from the deploy's own origin, forwarding the request's
// Authorization and Cookie headers (Vercel's deployment protection). Vercel deploys it as it finds it.

import { PAGE_CSP, SVG_CSP } from "../shared/csp.js";
import type { HostAdapter, HostFile, HostInput } from "../types.js";
import { preset } from "./preset.js";

export const VERCEL_DIR = ".vercel/output";
/** The function's folder: a function is served at its path, so `api.php.func` answers /api.php. */
export const VERCEL_FUNCTION_DIR = "functions/api.php.func";

export interface VercelRoute {
  src?: string;
  dest?: string;
  handle?: "filesystem";
  headers?: Record<string, string>;
  continue?: boolean;
}

/** `config.json`: the filesystem (plain files), then PATH_INFO requests to the function. The function sets its own
 * status and headers; no answer file is deployed, so no path needs headers of its own. */
export function vercelConfig(): { version: 3; routes: VercelRoute[] } {
  return {
    version: 3,
    routes: [
      // SVG files run no script from this origin.
      { src: "^/.*\\.[Ss][Vv][Gg]$", headers: { "Content-Security-Policy": SVG_CSP }, continue: true },
      // The site's pages (the catalogue): scripts, styles and data from the site only.
      { src: "^/(?:index\\.html)?$|^/catalogue/.*$", headers: { "Content-Security-Policy": PAGE_CSP }, continue: true },
      { handle: "filesystem" },
      { src: "^/api\\.php/.*$", dest: "/api.php" },
    ],
  };
}

/** The edge function: one bundled module (src/hosts/vercel/entry.ts), whose default export Vercel calls. */
export function printVercelFunction(input: HostInput): string {
  return input.entry(preset.name);
}

/** The generated files of `.vercel/output/`, relative to it (`static/`, the links to the plain files, the build adds). */
export function vercelEdgeFiles(input: HostInput): HostFile[] {
  return [
    { path: "config.json", data: `${JSON.stringify(vercelConfig(), null, 2)}\n` },
    {
      path: `${VERCEL_FUNCTION_DIR}/.vc-config.json`,
      data: `${JSON.stringify({ runtime: "edge", entrypoint: "index.js" }, null, 2)}\n`,
    },
    { path: `${VERCEL_FUNCTION_DIR}/index.js`, data: printVercelFunction(input) },
  ];
}

export const vercel: HostAdapter = {
  name: preset.name,
  render(input) {
    return { files: [], beside: [{ dir: VERCEL_DIR, files: vercelEdgeFiles(input), plainFiles: "static" }] };
  },
};
