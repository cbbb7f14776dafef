// src/edge/handler.ts
// The request-time handler: Web Request → Response for /api.php (and /api.php/…, PHP's PATH_INFO), answered by the
// same functions that precompute the files (src/php) over data it reads through its host (src/edge/data.ts): the
// whole-site answers precomputed, the per-key lookups from shards loaded on first use and kept for the isolate's
// life. The module holds no site data: its size and start-up do not grow with the site. Web APIs only: esbuild
// bundles it into each host's entry (src/hosts/*/entry.ts).

import * as A from "../php/answers.js";
import { BARE_HEADERS, parsePhpQuery, phpAnswer, respondTo, TYPE_ERROR, type Answers } from "../php/php-request.js";
import type { SiteModel } from "../model/types.js";
import {
  baseAtPath,
  corePath,
  DATA_FORMAT,
  isHandlerPath,
  jsonText,
  rebase,
  shardOf,
  shardPath,
  wholePath,
  type CoreData,
  type FileRow,
  type LookupKind,
  type ShardData,
  type WholeAnswer,
} from "./data.js";
import { bodyEtag, sha1Base64url } from "./etag.js";

/**
 * Reads one data file (a site path under /_edge-data) the host's way: Cloudflare's ASSETS binding, or a fetch from
 * the deploy's own origin. Never called with a path the handler answers.
 */
export type DataReader = (path: string) => Promise<Response>;

/** A data file could not be read: the host answers 502, and nothing is cached. */
export class DataUnavailable extends Error {}

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

/** Whether a request path is the handler's: /api.php or /api.php/… (PHP's PATH_INFO). */
export const isApiPath = (pathname: string): boolean => pathname === "/api.php" || pathname.startsWith("/api.php/");

/** One loaded shard: its rows as parsed, and each kind's map, made when a request first looks that kind up. */
interface Shard {
  data: ShardData;
  maps: Partial<Record<LookupKind, Map<string, unknown>>>;
}

const EMPTY = new Map<string, never>();
const UTF8 = new TextEncoder();

/** How many request origins a handler keeps answers for (a deploy has a few: production, its preview URLs). */
const ORIGINS_KEPT = 8;

/** What a handler keeps for one request origin (`--base-url request`): the site under it, and rebased whole bodies. */
interface OriginState {
  site: SiteModel;
  /** The ETag suffix of this origin: the SHA-1 of its text (an answer's ETag is its base ETag and this). */
  tag: string;
  bodies: Map<WholeAnswer, Promise<Uint8Array>>;
}

/** A shard's rows of one kind as a map (the icon files' rows as { size, lastModified }). */
function shardMap(data: ShardData, kind: LookupKind): Map<string, unknown> {
  if (kind === "f") return new Map(data.f.map(([name, size, lastModified]) => [name, { size, lastModified }]));
  if (kind === "e") return new Map(data.e.map((row) => [row[0], row[1]]));
  return new Map(data[kind]);
}

type IconFile = { size: number; lastModified: number };
/** An icon file's row as the `f` lookup answers it: its size and time, or null when icons/ has no such file. */
const fileOf = (row: FileRow): IconFile | null => (row.length === 3 ? { size: row[1], lastModified: row[2] } : null);

/** What a handler has once core.json is read: the site it answers for, and the answers over its data. */
interface Loaded {
  core: CoreData;
  site: SiteModel;
  answers: Answers;
}

/** A new handler with an empty cache: an entry makes one, at module level, so the cache lives as long as the isolate. */
export function createApiHandler(): (request: Request, read: DataReader) => Promise<Response> {
  /** Data files as read and kept: text (core.json, shards, offsets) or bytes (whole answers to rewrite per origin). */
  const texts = new Map<string, Promise<string>>();
  const blobs = new Map<string, Promise<Uint8Array>>();
  const shards = new Map<number, Shard>();
  /** Shards the running phpAnswer asked for and that are not loaded (phpAnswer is synchronous: one at a time). */
  const misses = new Set<number>();
  let state: Promise<Loaded> | undefined;
  /** The same, once it has loaded: a warm request does not wait on it. */
  let loaded: Loaded | undefined;
  const whole = new WeakMap<A.Answer, WholeAnswer>();
  /** Inline whole bodies (core.json's), encoded once. */
  const inline = new Map<WholeAnswer, Uint8Array>();
  const origins = new Map<string, OriginState>();

  const file = <T>(
    cache: Map<string, Promise<T>>,
    path: string,
    read: DataReader,
    take: (res: Response) => Promise<T>,
  ): Promise<T> => {
    let p = cache.get(path);
    if (p === undefined) {
      if (isHandlerPath(path)) throw new Error(`Internal: the data path ${path} is the handler's own route.`);
      p = read(path).then(async (res) => {
        if (!res.ok) throw new DataUnavailable(`${path}: ${res.status}`);
        return take(res);
      });
      cache.set(path, p);
      p.catch(() => cache.delete(path));
    }
    return p;
  };
  const text = (path: string, read: DataReader): Promise<string> => file(texts, path, read, (res) => res.text());
  const bytes = (path: string, read: DataReader): Promise<Uint8Array> =>
    file(blobs, path, read, async (res) => new Uint8Array(await res.arrayBuffer()));

  /**
   * Icon files known without their own shard: findIcon's fallbacks (core.json) and the targets of the `e` rows of the
   * shards loaded, so that findIcon reads one shard. The same rows as the `f` shards hold (data-files.ts writes both).
   */
  const knownFiles = new Map<string, IconFile | null>();

  /** A lookup map that answers from the loaded shards, and notes the shard of a key it cannot answer yet. */
  const lookup = <V>(kind: LookupKind, n: number): ReadonlyMap<string, V> => {
    const get = (key: string): V | undefined => {
      if (kind === "f" && knownFiles.has(key)) return (knownFiles.get(key) ?? undefined) as V | undefined;
      const i = shardOf(kind, key, n);
      const loaded = shards.get(i);
      if (loaded === undefined) {
        misses.add(i);
        return undefined;
      }
      const map = (loaded.maps[kind] ??= shardMap(loaded.data, kind));
      return map.get(key) as V | undefined;
    };
    const partial = { get, has: (key: string) => get(key) !== undefined };
    return partial as unknown as ReadonlyMap<string, V>;
  };

  const load = (read: DataReader) =>
    (state ??= (async () => {
      const core = JSON.parse(await text(corePath(), read)) as CoreData;
      texts.delete(corePath()); // kept parsed
      if (core.format !== DATA_FORMAT) throw new DataUnavailable(`${corePath()}: format ${String(core.format)}`);
      for (const row of core.files) knownFiles.set(row[0], fileOf(row));
      const site: SiteModel = {
        baseUrl: core.baseUrl,
        service: core.service,
        serviceVersion: core.serviceVersion,
        description: core.description,
        versions: [],
        buildTime: core.buildTime,
        config: { json: EMPTY, version: core.config.version, lastModified: core.config.lastModified },
        extensionMap: {
          indexingJson: EMPTY,
          viewingJson: EMPTY,
          indexing: lookup("x", core.shards),
          viewing: lookup("v", core.shards),
          lastModified: core.extensionMapLastModified,
        },
        iconMap: { json: EMPTY, entries: lookup("e", core.shards), lastModified: core.iconMapLastModified },
        iconDirFiles: lookup("f", core.shards),
        configReference: null,
      } as unknown as SiteModel;
      const precomputed = (name: WholeAnswer, kind: A.AnswerKind): A.Answer => {
        const answer = { kind, status: core.whole[name].status as A.Status, body: null };
        whole.set(answer, name);
        return answer;
      };
      const answers: Answers = {
        ...A,
        info: () => precomputed("info", "info"),
        status: () => precomputed("status", "status"),
        config: () => precomputed("config", "config"),
        icons: () => precomputed("icons", "icons"),
        iconMappings: () => precomputed("iconMappings", "iconMappings"),
        configReference: () => precomputed("configReference", "configReference"),
        extensionMappings: (_site, type) =>
          precomputed(
            type === "indexing" || type === "viewing" ? `extensionMappings-${type}` : "extensionMappings-all",
            "extensionMappings",
          ),
      };
      return (loaded = { core, site, answers });
    })().catch((error: unknown) => {
      state = undefined;
      throw error;
    }));

  const loadShard = async (i: number, read: DataReader): Promise<void> => {
    if (shards.has(i)) return;
    const data = JSON.parse(await text(shardPath(i), read)) as ShardData;
    if (shards.has(i)) return;
    shards.set(i, { data, maps: {} });
    for (const [, ...file] of data.e) if (!knownFiles.has(file[0])) knownFiles.set(file[0], fileOf(file as FileRow));
    texts.delete(shardPath(i)); // kept parsed, not twice
  };

  /** A whole answer's inline body (core.json's), encoded once. */
  const inlineBody = (name: WholeAnswer, body: string): Uint8Array => {
    let encoded = inline.get(name);
    if (encoded === undefined) inline.set(name, (encoded = UTF8.encode(body)));
    return encoded;
  };

  /** A data file's body as the host serves it, not kept (a whole answer's file, sent as it is). */
  const stream = async (path: string, read: DataReader): Promise<ReadableStream<Uint8Array> | null> => {
    if (isHandlerPath(path)) throw new Error(`Internal: the data path ${path} is the handler's own route.`);
    const res = await read(path);
    if (!res.ok) throw new DataUnavailable(`${path}: ${res.status}`);
    return res.body;
  };

  /** A whole answer's body as the build wrote it, as bytes (to rewrite it): inline in core.json, or its file. */
  const wholeBytes = (core: CoreData, name: WholeAnswer, read: DataReader): Promise<Uint8Array> => {
    const body = core.whole[name].body;
    return body === undefined ? bytes(wholePath(name), read) : Promise.resolve(inlineBody(name, body));
  };

  /**
   * The state for a request's origin when answers take it (`--base-url request`), else null: answers say the build's
   * base URL. The origin is scheme and host (and port), as the URL parser writes it.
   */
  const originOf = (core: CoreData, site: SiteModel, url: string): OriginState | null => {
    if (core.requestOrigin !== true) return null;
    const origin = new URL(url).origin;
    if (origin === core.baseUrl) return null;
    let kept = origins.get(origin);
    if (kept === undefined) {
      if (origins.size >= ORIGINS_KEPT) origins.delete(origins.keys().next().value!);
      kept = { site: { ...site, baseUrl: origin }, tag: sha1Base64url(UTF8.encode(origin)), bodies: new Map() };
      origins.set(origin, kept);
    }
    return kept;
  };

  /** A whole answer's body with the request's origin in place of the base URL (built once per origin). */
  const rebased = (core: CoreData, name: WholeAnswer, origin: OriginState, read: DataReader): Promise<Uint8Array> => {
    let p = origin.bodies.get(name);
    if (p === undefined) {
      const meta = core.whole[name];
      p = (async () => {
        const body = await wholeBytes(core, name, read);
        const at = meta.baseAt ?? (JSON.parse(await text(baseAtPath(name), read)) as number[]);
        return rebase(body, at, UTF8.encode(jsonText(core.baseUrl)).length, UTF8.encode(jsonText(origin.site.baseUrl)));
      })();
      origin.bodies.set(name, p);
      p.catch(() => origin.bodies.delete(name));
    }
    return p;
  };

  return async (request, read) => {
    const method = request.method;
    if (method === "OPTIONS") return new Response(null, { status: 200, headers: BARE_HEADERS });
    const { core, site, answers } = loaded ?? (await load(read));
    const origin = originOf(core, site, request.url);
    const query = parsePhpQuery(rawQuery(request.url));
    let answer: A.Answer | typeof TYPE_ERROR;
    for (let round = 0; ; round++) {
      misses.clear();
      answer = phpAnswer(origin?.site ?? site, query, answers);
      if (misses.size === 0) break;
      if (round === 8) throw new Error("Internal: a request asked for shards without end.");
      const needed = [...misses];
      await Promise.all(needed.map((i) => loadShard(i, read)));
    }
    // HEAD is answered as GET without the body: the same headers, ETag included.
    const name = answer === TYPE_ERROR ? undefined : whole.get(answer);
    let status: number;
    /** The response's headers, as a plain record: the Response makes its Headers once. */
    let headers: Record<string, string>;
    let etag: string | undefined;
    /** The body, or how to read it when it is sent (not for HEAD, not for a 304). */
    let body: Uint8Array | null | (() => Promise<Uint8Array | ReadableStream<Uint8Array> | null>);
    if (name !== undefined) {
      const meta = core.whole[name];
      status = meta.status;
      headers = A.answerHeaders(answer as A.Answer);
      if (origin !== null && (meta.baseAt !== undefined || meta.baseAtFile === true)) {
        // The base ETag names the build's bytes, the origin's tag the replacement: together, these bytes (strong).
        etag = meta.etag === undefined ? undefined : `"${meta.etag.slice(1, -1)}.${origin.tag}"`;
        body = () => rebased(core, name, origin, read);
      } else {
        etag = meta.etag;
        const inlined = meta.body;
        // core.json's small bodies, encoded once; a file's body is the host's response to the data read, streamed
        // through: it never enters this isolate's heap, and is never decoded or encoded.
        body = inlined !== undefined ? inlineBody(name, inlined) : () => stream(wholePath(name), read);
      }
    } else {
      const got = respondTo(answer, "GET");
      status = got.status;
      headers = got.headers;
      const encoded = got.body === "" ? null : UTF8.encode(got.body);
      etag = got.status === 200 && encoded !== null ? bodyEtag(encoded) : undefined;
      body = encoded;
    }
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
