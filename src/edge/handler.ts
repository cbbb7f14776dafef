// src/edge/handler.ts
// The request-time handler: Web Request → Response for /api.php (and /api.php/…, PHP's PATH_INFO), answered by the
// same functions that precompute the files (src/php) over data it reads through its host (src/edge/handler-data.ts):
// the whole-site answers precomputed, the per-key lookups from shards loaded on first use and kept for the isolate's
// life. The module holds no site data: its size and start-up do not grow with the site. Web APIs only: esbuild
// bundles it into each host's entry (src/hosts/*/entry.ts).

import * as A from "../php/answers.js";
import {
  BARE_HEADERS,
  parsePhpQuery,
  phpAnswer,
  respondTo,
  TYPE_ERROR,
  type Answers,
  type PhpQuery,
} from "../php/php-request.js";
import type { SiteModel } from "../model/types.js";
import { isHandlerPath, wholePath, type CoreData } from "./data.js";
import { bodyEtag } from "./etag.js";
import { DataUnavailable, HandlerData, UTF8, type DataReader, type OriginState, type Reply } from "./handler-data.js";

export { DataUnavailable, type DataReader } from "./handler-data.js";

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

/**
 * Whether an If-None-Match header holds `etag`, compared weakly (RFC 9110 §13.1.2), exactly as the `fresh` package
 * (which the preview uses) decides it for a request with If-None-Match alone: `*`, or one of the comma-separated
 * entity tags equal to it with or without `W/`. Written out here so that the handler bundles no CommonJS module.
 */
export function ifNoneMatchHolds(header: string | null, etag: string): boolean {
  if (header === null || header === "") return false;
  if (header === "*") return true;
  let start = 0;
  let end = 0;
  const holds = (tag: string): boolean => tag === etag || tag === `W/${etag}` || `W/${tag}` === etag;
  for (let i = 0; i < header.length; i++) {
    const c = header.charCodeAt(i);
    if (c === 0x20) {
      if (start === end) start = end = i + 1;
    } else if (c === 0x2c) {
      if (holds(header.substring(start, end))) return true;
      start = end = i + 1;
    } else end = i + 1;
  }
  return holds(header.substring(start, end));
}

/**
 * Reads a request's body to its end and drops it, as PHP does with a body it does not use. Left unread (or only
 * cancelled), workerd loses the connection after the answer, and a request already sent on it fails: wrangler dev
 * answers it 503 ("Your worker restarted mid-request"), or retries it when it is a GET or HEAD.
 */
export async function discardBody(request: Request): Promise<void> {
  if (request.body === null || request.bodyUsed) return;
  try {
    const reader = request.body.getReader();
    for (;;) if ((await reader.read()).done) return;
  } catch {
    // The client went away mid-body: the answer is still written, and goes nowhere.
  }
}

/** Whether a request path is the handler's: /api.php or /api.php/… (PHP's PATH_INFO). */
export const isApiPath = (pathname: string): boolean => pathname === "/api.php" || pathname.startsWith("/api.php/");

/** A new handler with an empty cache: an entry makes one, at module level, so the cache lives as long as the isolate. */
export function createApiHandler(): (request: Request, read: DataReader) => Promise<Response> {
  const data = new HandlerData();
  return async (request, read) => {
    const method = request.method;
    await discardBody(request);
    if (method === "OPTIONS") return new Response(null, { status: 200, headers: BARE_HEADERS });
    const { core, site, answers } = data.loaded ?? (await data.load(read));
    const origin = data.originOf(core, site, request.url);
    const raw = rawQuery(request.url);
    // A computed answer depends on the query and the origin alone: asked again, it is the reply made the first time.
    const key = origin === null ? raw : `${origin.site.baseUrl} ${raw}`;
    let reply = data.replies.get(key);
    if (reply === undefined) {
      const answer = await answerOf(data, origin?.site ?? site, parsePhpQuery(raw), answers, read);
      reply = replyOf(data, core, answer, origin, read);
      if (typeof reply.body !== "function") data.remember(key, reply);
    }
    const { status, etag, body } = reply;
    const headers = { ...reply.headers };
    if (etag !== undefined) {
      headers.ETag = etag;
      // A revalidation whose If-None-Match holds this ETag: 304, no body (RFC 9110 §13.1.2, weak comparison).
      if ((method === "GET" || method === "HEAD") && ifNoneMatchHolds(request.headers.get("if-none-match"), etag)) {
        delete headers["Content-Type"];
        return new Response(null, { status: 304, headers });
      }
    }
    return new Response(method === "HEAD" ? null : typeof body === "function" ? await body() : body, {
      status,
      headers,
    });
  };
}

/** The answer to `query`: asked again, with the shards it looked into loaded, until it needs no other shard. */
async function answerOf(
  data: HandlerData,
  site: SiteModel,
  query: PhpQuery,
  answers: Answers,
  read: DataReader,
): Promise<A.Answer | typeof TYPE_ERROR> {
  for (let round = 0; ; round++) {
    data.misses.clear();
    const answer = phpAnswer(site, query, answers);
    if (data.misses.size === 0) return answer;
    if (round === 8) throw new Error("Internal: a request asked for shards without end.");
    const needed = [...data.misses];
    await Promise.all(needed.map((i) => data.loadShard(i, read)));
  }
}

/** The reply of an answer; HEAD is answered as GET without the body: the same headers, ETag included. */
function replyOf(
  data: HandlerData,
  core: CoreData,
  answer: A.Answer | typeof TYPE_ERROR,
  origin: OriginState | null,
  read: DataReader,
): Reply {
  const name = answer === TYPE_ERROR ? undefined : data.whole.get(answer);
  if (name === undefined) {
    const got = respondTo(answer, "GET");
    const encoded = got.body === "" ? null : UTF8.encode(got.body);
    const etag = got.status === 200 && encoded !== null ? bodyEtag(encoded) : undefined;
    return { status: got.status, headers: got.headers, etag, body: encoded };
  }
  const meta = core.whole[name];
  const headers = A.answerHeaders(answer as A.Answer);
  if (origin !== null && (meta.baseAt !== undefined || meta.templateFile === true)) {
    // The base ETag names the build's bytes, the origin's tag the replacement: together, these bytes (strong).
    const etag = meta.etag === undefined ? undefined : `"${meta.etag.slice(1, -1)}.${origin.tag}"`;
    return { status: meta.status, headers, etag, body: () => data.rebased(core, name, origin, read) };
  }
  const inlined = meta.body;
  // core.json's small bodies, encoded once; a file's body is the host's response to the data read, streamed
  // through: it never enters this isolate's heap, and is never decoded or encoded.
  const body = inlined !== undefined ? data.inlineBody(name, inlined) : () => data.stream(wholePath(name), read);
  return { status: meta.status, headers, etag: meta.etag, body };
}

/**
 * A DataReader that fetches from the deploy's own origin (the request URL's), forwarding the request's
 * Authorization and Cookie headers so that it passes a password-protected deploy preview as the client did.
 * Netlify's and Vercel's entries use it.
 */
export function originReader(request: Request): DataReader {
  const headers = new Headers();
  for (const name of ["authorization", "cookie"]) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  return (path) => {
    const url = new URL(path, request.url);
    if (isHandlerPath(url.pathname)) throw new Error(`Internal: the data path ${path} is the handler's own route.`);
    return fetch(url, { headers });
  };
}

/** The answer when a data file cannot be read (the deploy is broken or the read was refused). */
export function unavailable(error: unknown): Response {
  if (!(error instanceof DataUnavailable)) throw error;
  return new Response(`Bad Gateway: the API's data file ${error.message}\n`, {
    status: 502,
    headers: { "Content-Type": "text/plain" },
  });
}
