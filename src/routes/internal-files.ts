// src/routes/internal-files.ts
// Files the build writes into the output folder for tools and hosts (route table, host configs, build records).
// None of them is part of the API: every emitted host config and the preview answer 404 for them.

/** Site paths (no leading "/") of the output folder's internal files. */
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
