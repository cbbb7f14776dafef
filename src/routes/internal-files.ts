// src/routes/internal-files.ts
// The names of the build's own files (route table, host configs, build records). None is written into --out (they
// live beside it: docs/layout.md), and none is part of the API: the host configs that sit in an upload folder
// (.htaccess, _redirects, _headers, …) and the previews also answer 404 for these names, so that an older build's
// copy or a host that serves its own config never publishes one.

/** Site paths (no leading "/") of the build's own files. */
export const INTERNAL_FILES: readonly string[] = [
  ".build-inputs",
  ".build-manifest",
  ".htaccess",
  "_headers",
  "_redirects",
  "_routes.json",
  "_worker.js",
  "nginx-http.conf",
  "nginx.conf",
  "routes.json",
  "serve.json",
  "vercel.json",
];

const INTERNAL = new Set(INTERNAL_FILES.map((f) => f.toLowerCase()));

/**
 * Whether a decoded, normalised request path ("/routes.json") names an internal file. Case is ignored: on a
 * case-insensitive file system "/ROUTES.JSON" opens the same file.
 */
export const isInternalPath = (pathname: string): boolean => INTERNAL.has(pathname.replace(/^\/+/, "").toLowerCase());
