// src/preview/site-path.ts
// The ONE resolution of a request target to a site path, used by every host's preview for the internal-file guard,
// the /api.php test and the file lookup alike (so no two of them can see different files). It follows nginx on Linux:
// the path is percent-decoded byte by byte, doubled slashes are merged, "." and ".." segments are resolved (above
// the root is 400), and a backslash is an ordinary character of a file name (never a separator).

import { isInternalPath } from "../routes/internal-files.js";

export type SitePath =
  /** `path`: "/icons/php.png" (decoded, normalised); `dir`: the target ended with "/" (a folder: never a file). */
  { kind: "path"; path: string; dir: boolean; internal: boolean } | { kind: "bad" };

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** `http://host/path?q` (absolute-form, RFC 9112 §3.2.2) → `/path?q`; origin-form as it is. */
export function originForm(target: string): string {
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/.exec(target);
  if (m === null) return target;
  const rest = target.slice(m[0].length);
  return rest.startsWith("/") ? rest : `/${rest}`;
}

/** The path of a request target (origin- or absolute-form), without its query. */
export function targetPath(target: string): { pathname: string; query: string } {
  const origin = originForm(target);
  const q = origin.indexOf("?");
  return q === -1 ? { pathname: origin, query: "" } : { pathname: origin.slice(0, q), query: origin.slice(q + 1) };
}

/**
 * The site path a request path names. "bad" (answer 400): not starting with "/", a "%" not followed by two hex
 * digits, a NUL byte, or ".." above the root. A path whose bytes are not UTF-8 names no file: it resolves to a
 * path that cannot exist (U+FFFD), so the lookup answers 404, as nginx does.
 */
export function resolveSitePath(pathname: string): SitePath {
  if (!pathname.startsWith("/") || /%(?![0-9A-Fa-f]{2})/.test(pathname)) return { kind: "bad" };
  const bytes = Buffer.from(
    pathname.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    "latin1",
  );
  if (bytes.includes(0)) return { kind: "bad" };
  let decoded: string;
  try {
    decoded = utf8.decode(bytes);
  } catch {
    decoded = "/\uFFFD";
  }
  const segments: string[] = [];
  const parts = decoded.split("/");
  for (const part of parts) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (segments.length === 0) return { kind: "bad" };
      segments.pop();
    } else {
      segments.push(part);
    }
  }
  const last = parts[parts.length - 1];
  const path = `/${segments.join("/")}`;
  return { kind: "path", path, dir: last === "" || last === "." || last === "..", internal: isInternalPath(path) };
}

/** Whether a resolved site path is answered as the API: /api.php, and /api.php/… (PHP's PATH_INFO). */
export const isApiPath = (sitePath: string): boolean => sitePath === "/api.php" || sitePath.startsWith("/api.php/");
