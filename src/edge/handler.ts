// src/edge/handler.ts
// The request-time handler: Web Request → Response for /api.php (and /api.php/…, PHP's PATH_INFO), answered from
// the site data by the same functions that precompute the files (src/api). Web APIs only: esbuild bundles this file
// into the one self-contained ES module every edge host runs (src/edge/bundle.ts).

import { sha1 } from "@noble/hashes/legacy";
import fresh from "fresh";
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

/** A strong ETag: the SHA-1 of the body, base64url, as the build's manifest hashes the answer files. */
function bodyEtag(body: string): string {
  const base64 = btoa(String.fromCharCode(...sha1(new TextEncoder().encode(body))));
  return `"${base64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}"`;
}

export function createApiHandler(data: SiteData): (request: Request) => Response {
  const site = fromSiteData(data);
  return (request) => {
    // HEAD is answered as GET without the body: the same headers, ETag included.
    const answer = phpRespond(site, request.method === "HEAD" ? "GET" : request.method, rawQuery(request.url));
    if (answer.status !== 200 || answer.body === "") {
      return new Response(answer.body === "" || request.method === "HEAD" ? null : answer.body, { status: answer.status, headers: answer.headers });
    }
    const headers = new Headers(answer.headers);
    headers.set("ETag", bodyEtag(answer.body));
    // A revalidation whose If-None-Match holds this ETag: 304, no body (RFC 9110 §13.1.2; `fresh` compares weakly).
    const conditional = { "if-none-match": request.headers.get("if-none-match") ?? undefined };
    if ((request.method === "GET" || request.method === "HEAD") && fresh(conditional, { etag: headers.get("ETag")! })) {
      headers.delete("Content-Type");
      return new Response(null, { status: 304, headers });
    }
    return new Response(request.method === "HEAD" ? null : answer.body, { status: 200, headers });
  };
}
