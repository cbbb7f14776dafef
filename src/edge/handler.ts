// src/edge/handler.ts
// The request-time handler: Web Request → Response for /api.php (and /api.php/…, PHP's PATH_INFO), answered from
// the site data by the same functions that precompute the files (src/api). Web APIs only: esbuild bundles this file
// into the one self-contained ES module every edge host runs (src/edge/bundle.ts).

import { phpRespond } from "../api/php-request.js";
import { fromSiteData, type SiteData } from "./site-data.js";

export type { SiteData } from "./site-data.js";

/**
 * The raw query of a request URL, without "?". The URL parser keeps percent-escapes as sent and encodes other
 * characters as UTF-8, so PHP sees the same bytes, with one known exception: raw (unescaped) bytes that are not
 * UTF-8 in the request line reach the runtime as Latin-1 characters and are re-encoded; clients send %XX instead.
 */
function rawQuery(url: string): string {
  const q = url.indexOf("?");
  if (q === -1) return "";
  const hash = url.indexOf("#", q);
  return url.slice(q + 1, hash === -1 ? undefined : hash);
}

export function createApiHandler(data: SiteData): (request: Request) => Response {
  const site = fromSiteData(data);
  return (request) => {
    const answer = phpRespond(site, request.method, rawQuery(request.url));
    const body = answer.body === "" || request.method === "HEAD" ? null : answer.body;
    return new Response(body, { status: answer.status, headers: answer.headers });
  };
}
