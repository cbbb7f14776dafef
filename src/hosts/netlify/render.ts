// src/hosts/netlify/render.ts
// Netlify, the default output: the request-time handler as an edge function, through Netlify's Frameworks API.
// Netlify reads `.netlify/v1/` in the base directory (the folder that holds --out when --out is dist): the edge
// function under `edge-functions/` (one bundled module: src/hosts/netlify/entry.ts, the same for every site), its
// declaration in `config.json`. Every /api.php request (and /api.php/…, which PHP sends to the script as PATH_INFO)
// is answered by the handler, which sets status and headers itself; plain files never reach it. The handler reads
// its data files (`_edge-data/`, published with the site) with a fetch from the deploy's own origin, forwarding
// the request's Authorization and Cookie headers (a password-protected deploy preview). The publish folder is the
// host's own, `.build-index-site/<out>/hosts/netlify/`: links to the plain files and the data files only. `cache: "manual"` lets Netlify's CDN cache each answer by its Cache-Control
// (query parameters are part of the cache key of such answers: docs.netlify.com/platform/caching).

import { PAGE_CSP, PAGE_PATHS, SVG_CSP, SVG_PATHS } from "../shared/csp.js";
import type { HostAdapter, HostFile, HostInput } from "../types.js";
import { preset } from "./preset.js";

/** Where Netlify's Frameworks API looks, relative to the base directory. */
export const NETLIFY_DIR = ".netlify/v1";
export const NETLIFY_FUNCTION = "build-index-site-api";
/** The paths the edge function answers (URLPattern syntax). */
export const NETLIFY_PATHS = ["/api.php", "/api.php/*"] as const;

/** `.netlify/v1/config.json`: the function's declaration (one per path, the same function). */
export function printNetlifyConfig(): string {
  const edgeFunctions = NETLIFY_PATHS.map((p) => ({ function: NETLIFY_FUNCTION, path: p, cache: "manual" }));
  // The static files' headers (Frameworks API `headers`, as netlify.toml's): the SVG policy on every folder an SVG
  // may be in, the pages' policy on the pages.
  const headers = [
    ...SVG_PATHS.map((p) => ({ for: p, values: { "Content-Security-Policy": SVG_CSP } })),
    ...PAGE_PATHS.map((p) => ({ for: p, values: { "Content-Security-Policy": PAGE_CSP } })),
  ];
  return `${JSON.stringify({ edge_functions: edgeFunctions, headers }, null, 2)}\n`;
}

/** The files of `.netlify/v1/`, relative to it. */
export function netlifyEdgeFiles(input: HostInput): HostFile[] {
  const dir = `edge-functions/${NETLIFY_FUNCTION}`;
  return [
    { path: "config.json", data: printNetlifyConfig() },
    { path: `${dir}/${NETLIFY_FUNCTION}.js`, data: input.entry(preset.name) },
  ];
}

export const netlify: HostAdapter = {
  name: preset.name,
  render(input) {
    // The publish folder is the host's own folder: the plain files and the handler's data, no answer file (the edge
    // function answers /api.php), even when a static host's answers are in --out.
    return { files: [], docroot: "plain", beside: [{ dir: NETLIFY_DIR, files: netlifyEdgeFiles(input) }] };
  },
};
