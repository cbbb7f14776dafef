// src/preview/server-quirks.ts
// What nginx and Apache answer by their own rules, before or instead of a file, where the preview's RFC 9110 serving
// answers otherwise (measured against the real servers with the emitted configs: test/hosts/odd-requests*.ts):
// Apache's refusal of an encoded slash or NUL byte, its OPTIONS and POST on plain paths and its If-Modified-Since;
// both servers' redirect of a folder named without its slash, and nginx's 403 for a folder without an index.

import type { RangeFlavour } from "./ranges.js";

const UNRESERVED = /^[A-Za-z0-9._~-]$/;

/**
 * A request path as Apache resolves it before any file is looked up: its dot segments resolved on the path with only
 * unreserved escapes decoded (`%2e` is "."; above the root: 400), and what is left may not hold an encoded slash
 * (`AllowEncodedSlashes Off`) or NUL byte (404). Else the path it goes on with (other escapes still encoded).
 */
export function apachePath(pathname: string): 400 | 404 | string {
  if (!pathname.startsWith("/") || /%(?![0-9A-Fa-f]{2})/.test(pathname)) return pathname; // 400 from the resolution
  const unreserved = pathname.replace(/%([0-9A-Fa-f]{2})/g, (m, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(ch) ? ch : m;
  });
  const parts = unreserved.split("/");
  const segments: string[] = [];
  for (const segment of parts) {
    if (segment === "" || segment === ".") continue;
    if (segment !== "..") segments.push(segment);
    else if (segments.pop() === undefined) return 400;
  }
  if (segments.some((s) => /%2f|%00/i.test(s))) return 404;
  const last = parts[parts.length - 1];
  const folder = segments.length > 0 && (last === "" || last === "." || last === "..");
  return `/${segments.join("/")}${folder ? "/" : ""}`;
}

/** The methods Apache's core lists for a static path (its answer to OPTIONS). */
export const APACHE_ALLOW = "GET,POST,OPTIONS,HEAD,TRACE";

/**
 * How a server answers a method on a plain path (not /api.php): "file" to serve it (GET and HEAD; POST too on
 * Apache, whose default handler serves files to POST), "options" (Apache answers OPTIONS on any path itself: 200,
 * empty), "found-405" (nginx's static module looks a POST's file up, then refuses it: 405, or 404 when missing), or
 * 405.
 */
export function plainMethod(server: RangeFlavour, method: string): "file" | "options" | "found-405" | 405 {
  if (method === "GET" || method === "HEAD") return "file";
  if (server === "apache" && method === "POST") return "file";
  if (server === "apache" && method === "OPTIONS") return "options";
  if (server === "nginx" && method === "POST") return "found-405";
  return 405;
}

/**
 * The If-Modified-Since a server compares: Apache counts a date later than its own clock as no date (so the file is
 * sent: 200); nginx with the emitted `if_modified_since before`, and RFC 9110, take it.
 */
export function ifModifiedSince(server: RangeFlavour, value: string | undefined): string | undefined {
  if (server !== "apache" || value === undefined) return value;
  const date = Date.parse(value);
  return !Number.isNaN(date) && date > Date.now() ? undefined : value;
}

/**
 * A folder's answer when its path names no file: nginx and Apache redirect a folder named without its slash (301 to
 * the same path with "/", the query kept); nginx answers a folder without an index.html with 403. Null: 404, as the
 * other hosts, which serve files only, answer.
 */
export function folderAnswer(
  server: RangeFlavour,
  slash: boolean,
  sitePath: string,
  query: string,
): { status: number; headers: Record<string, string> } | null {
  if (server === "rfc") return null;
  if (!slash) return { status: 301, headers: { Location: `${sitePath}/${query === "" ? "" : `?${query}`}` } };
  return server === "nginx" ? { status: 403, headers: {} } : null;
}
