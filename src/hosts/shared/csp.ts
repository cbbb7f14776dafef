// src/hosts/shared/csp.ts
// The Content-Security-Policy every host config and both previews send: on SVG files, and on the site's pages.

/**
 * Sent with every `image/svg+xml` answer by every host config and both previews: an SVG opened from the site's
 * origin runs no script, loads nothing and is sandboxed (issue 27). A constant: printed into configs as it is.
 */
export const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/**
 * Sent with the site's HTML pages (the catalogue, src/catalogue) by every host config and both previews: scripts,
 * styles, images and data from the site itself only, nothing inline, no frames, no plugins.
 */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
/** The site paths of those pages (URL patterns of Netlify's and Cloudflare's `_headers`): the root and catalogue/. */
export const PAGE_PATHS: readonly string[] = ["/", "/index.html", "/catalogue/*"];
/** The folders whose files may be SVG (the content's published folders: src/content/read-content.ts PUBLISHED_DIRS). */
export const SVG_PATHS: readonly string[] = ["/icons/*", "/style/*", "/favicon/*"];

/**
 * The SVG policy as a `_headers` block (Netlify's and Cloudflare's syntax) on every folder a file may be an SVG in:
 * neither documents a pattern by file extension, and a CSP acts only where a file is opened as a document (an SVG).
 * Then the pages' policy on the pages (the rules match different paths: one policy per answer).
 */
export const SVG_POLICY_HEADERS_BLOCK = `# Files opened from this origin (an SVG) run no script.\n${SVG_PATHS.map(
  (p) => `${p}\n  Content-Security-Policy: ${SVG_CSP}\n`,
).join("")}# The site's pages (the catalogue): scripts, styles and data from the site only.\n${PAGE_PATHS.map(
  (p) => `${p}\n  Content-Security-Policy: ${PAGE_CSP}\n`,
).join("")}`;
