// src/edge/handler-data.ts
// What a request-time handler keeps for its isolate's life: the data files it read (core.json, the shards), the site
// model and the answers over them, and within a fixed budget the bodies made for each request origin
// (--base-url request: made from the whole answers' templates as they are read, src/edge/rebase-stream.ts).
// Web APIs only: esbuild bundles it with the handler (src/edge/handler.ts).

import * as A from "../php/answers.js";
import type { Answers } from "../php/php-request.js";
import type { SiteModel } from "../model/types.js";
import {
  corePath,
  DATA_FORMAT,
  isHandlerPath,
  jsonText,
  rebase,
  shardOf,
  shardPath,
  templatePath,
  type CoreData,
  type FileRow,
  type LookupKind,
  type ShardData,
  type WholeAnswer,
} from "./data.js";
import { sha1Base64url } from "./etag.js";
import { keptWhenSmall, rebasedStream, textPieces } from "./rebase-stream.js";

/**
 * Reads one data file (a site path under /_edge-data) the host's way: Cloudflare's ASSETS binding, or a fetch from
 * the deploy's own origin. Never called with a path the handler answers.
 */
export type DataReader = (path: string) => Promise<Response>;

/** A data file could not be read: the host answers 502, and nothing is cached. */
export class DataUnavailable extends Error {}

/** One loaded shard: its rows as parsed, and each kind's map, made when a request first looks that kind up. */
interface Shard {
  data: ShardData;
  maps: Partial<Record<LookupKind, Map<string, unknown>>>;
}

const EMPTY = new Map<string, never>();
export const UTF8 = new TextEncoder();

/** How many request origins a handler keeps answers for (a deploy has a few: production, its preview URLs). */
const ORIGINS_KEPT = 8;
/**
 * How many bytes of rebased whole bodies (`--base-url request`) a handler keeps, whatever the site: a warm request
 * from an origin it has answered sends them again; beyond it (two ×100 `icons` bodies) each request rebases.
 */
const REBASED_BYTES_KEPT = 24 * 1024 * 1024;
/**
 * Templates of up to this many bytes are kept decoded once read (a new origin's body is then joined without a read):
 * at ×10, icons' is 0.75 MB; keeping ×100's 7.5 MB would cost a fresh isolate about as much as its body.
 */
export const TEMPLATE_KEPT_BYTES = 1024 * 1024;
/** How many (origin, answer) pairs a handler remembers having sent a rebased body for once, not kept. */
const ONCE_KEPT = 64;
/** How many computed replies a handler keeps: a few hundred KB at most, whatever the site. */
const REPLIES_KEPT = 2048;

/**
 * What a handler keeps for one request origin (`--base-url request`): the site under it, its tag and its text. Its
 * rebased whole bodies are kept apart, within a fixed budget (REBASED_BYTES_KEPT), whatever the number of origins.
 */
export interface OriginState {
  site: SiteModel;
  /** The ETag suffix of this origin: the SHA-1 of its text (an answer's ETag is its base ETag and this). */
  tag: string;
  /** The origin's JSON text, and its UTF-8 bytes: what takes the base URL's places. */
  json: string;
  text: Uint8Array;
}

/** What a response says before the ETag is held against the request. */
export interface Reply {
  status: number;
  /** The response's headers, as a plain record: the Response makes its Headers once. */
  headers: Record<string, string>;
  etag: string | undefined;
  /** The body, or how to read it when it is sent (not for HEAD, not for a 304). */
  body: Uint8Array | null | (() => Promise<Uint8Array | string | Blob | ReadableStream<Uint8Array> | null>);
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
export interface Loaded {
  core: CoreData;
  site: SiteModel;
  answers: Answers;
}

/** A rebased body as kept: bytes, the chunks it was sent in, or (asked again) a Blob. */
type KeptBody = Uint8Array | Uint8Array[] | Blob;
const sizeOf = (body: KeptBody): number =>
  Array.isArray(body)
    ? body.reduce((sum, chunk) => sum + chunk.byteLength, 0)
    : body instanceof Blob
      ? body.size
      : body.byteLength;

/** The data of one handler, read when first needed and kept: an entry makes one handler, so it lives with the isolate. */
export class HandlerData {
  /** Data files as read and kept: text (core.json, shards), until parsed. */
  private readonly texts = new Map<string, Promise<string>>();
  /** Small templates (TEMPLATE_KEPT_BYTES) as read, decoded, by answer (`--base-url request`). */
  private readonly templates = new Map<WholeAnswer, string[]>();
  private readonly shards = new Map<number, Shard>();
  /** Shards the running phpAnswer asked for and that are not loaded (phpAnswer is synchronous: one at a time). */
  readonly misses = new Set<number>();
  private state: Promise<Loaded> | undefined;
  /** The same, once it has loaded: a warm request does not wait on it. */
  loaded: Loaded | undefined;
  /** The whole answer (core.json's) each precomputed answer stands for. */
  readonly whole = new WeakMap<A.Answer, WholeAnswer>();
  /** Inline whole bodies (core.json's), encoded once. */
  private readonly inline = new Map<WholeAnswer, Uint8Array>();
  /** The replies of computed answers by origin and raw query, the latest REPLIES_KEPT (a reply is a few hundred bytes). */
  readonly replies = new Map<string, Reply>();
  private readonly origins = new Map<string, OriginState>();
  /**
   * Icon files known without their own shard: findIcon's fallbacks (core.json) and the targets of the `e` rows of the
   * shards loaded, so that findIcon reads one shard. The same rows as the `f` shards hold (data-files.ts writes both).
   */
  private readonly knownFiles = new Map<string, IconFile | null>();

  private file<T>(
    cache: Map<string, Promise<T>>,
    path: string,
    read: DataReader,
    take: (res: Response) => Promise<T>,
  ): Promise<T> {
    let p = cache.get(path);
    if (p === undefined) {
      p = this.fetched(path, read).then(take);
      cache.set(path, p);
      p.catch(() => cache.delete(path));
    }
    return p;
  }

  private text(path: string, read: DataReader): Promise<string> {
    return this.file(this.texts, path, read, (res) => res.text());
  }

  /** A lookup map that answers from the loaded shards, and notes the shard of a key it cannot answer yet. */
  private lookup<V>(kind: LookupKind, n: number): ReadonlyMap<string, V> {
    const get = (key: string): V | undefined => {
      if (kind === "f" && this.knownFiles.has(key)) return (this.knownFiles.get(key) ?? undefined) as V | undefined;
      const i = shardOf(kind, key, n);
      const loaded = this.shards.get(i);
      if (loaded === undefined) {
        this.misses.add(i);
        return undefined;
      }
      const map = (loaded.maps[kind] ??= shardMap(loaded.data, kind));
      return map.get(key) as V | undefined;
    };
    const partial = { get, has: (key: string) => get(key) !== undefined };
    return partial as unknown as ReadonlyMap<string, V>;
  }

  /** core.json, read once (again after a failed read): the site and the answers over the shards. */
  load(read: DataReader): Promise<Loaded> {
    return (this.state ??= (async () => {
      const core = JSON.parse(await this.text(corePath(), read)) as CoreData;
      this.texts.delete(corePath()); // kept parsed
      if (core.format !== DATA_FORMAT) throw new DataUnavailable(`${corePath()}: format ${String(core.format)}`);
      for (const row of core.files) this.knownFiles.set(row[0], fileOf(row));
      return (this.loaded = { core, site: this.siteOf(core), answers: this.answersOf(core) });
    })().catch((error: unknown) => {
      this.state = undefined;
      throw error;
    }));
  }

  /** The site model over core.json and the shards: the maps look keys up in the shards, loaded when first asked. */
  private siteOf(core: CoreData): SiteModel {
    return {
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
        indexing: this.lookup("x", core.shards),
        viewing: this.lookup("v", core.shards),
        lastModified: core.extensionMapLastModified,
      },
      iconMap: { json: EMPTY, entries: this.lookup("e", core.shards), lastModified: core.iconMapLastModified },
      iconDirFiles: this.lookup("f", core.shards),
      configReference: null,
    } as unknown as SiteModel;
  }

  /** The API's answers, with the whole-site ones standing for their precomputed bodies. */
  private answersOf(core: CoreData): Answers {
    const precomputed = (name: WholeAnswer, kind: A.AnswerKind): A.Answer => {
      const answer = { kind, status: core.whole[name].status as A.Status, body: null };
      this.whole.set(answer, name);
      return answer;
    };
    return {
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
  }

  async loadShard(i: number, read: DataReader): Promise<void> {
    if (this.shards.has(i)) return;
    const data = JSON.parse(await this.text(shardPath(i), read)) as ShardData;
    if (this.shards.has(i)) return;
    this.shards.set(i, { data, maps: {} });
    for (const [, ...file] of data.e)
      if (!this.knownFiles.has(file[0])) this.knownFiles.set(file[0], fileOf(file as FileRow));
    this.texts.delete(shardPath(i)); // kept parsed, not twice
  }

  /** Keeps a computed answer's reply, forgetting the oldest beyond REPLIES_KEPT. */
  remember(key: string, reply: Reply): void {
    if (this.replies.size >= REPLIES_KEPT) this.replies.delete(this.replies.keys().next().value!);
    this.replies.set(key, reply);
  }

  /** A whole answer's inline body (core.json's), encoded once. */
  inlineBody(name: WholeAnswer, body: string): Uint8Array {
    let encoded = this.inline.get(name);
    if (encoded === undefined) this.inline.set(name, (encoded = UTF8.encode(body)));
    return encoded;
  }

  /** A data file's body as the host serves it, not kept (a whole answer's file, sent as it is). */
  async stream(path: string, read: DataReader): Promise<ReadableStream<Uint8Array> | null> {
    return (await this.fetched(path, read)).body;
  }

  /** A data file's response, checked: never the handler's own route, and a failed read is DataUnavailable. */
  private async fetched(path: string, read: DataReader): Promise<Response> {
    if (isHandlerPath(path)) throw new Error(`Internal: the data path ${path} is the handler's own route.`);
    const res = await read(path);
    if (!res.ok) throw new DataUnavailable(`${path}: ${res.status}`);
    return res;
  }

  /**
   * The state for a request's origin when answers take it (`--base-url request`), else null: answers say the build's
   * base URL. The origin is scheme and host (and port), as the URL parser writes it.
   */
  originOf(core: CoreData, site: SiteModel, url: string): OriginState | null {
    if (core.requestOrigin !== true) return null;
    const origin = new URL(url).origin;
    if (origin === core.baseUrl) return null;
    let kept = this.origins.get(origin);
    if (kept === undefined) {
      if (this.origins.size >= ORIGINS_KEPT) this.origins.delete(this.origins.keys().next().value!);
      const json = jsonText(origin);
      kept = {
        site: { ...site, baseUrl: origin },
        tag: sha1Base64url(UTF8.encode(origin)),
        json,
        text: UTF8.encode(json),
      };
      this.origins.set(origin, kept);
    }
    return kept;
  }

  /**
   * A whole answer's body with the request's origin in place of the base URL: an inline body rebuilt from its places;
   * a template read and joined with the origin as it is sent (src/edge/rebase-stream.ts). Kept for the origin's next
   * requests within the budget, a template's from the second request on: keeping 8.6 MB (×100 icons) costs a fresh
   * isolate about as much as making it, and an origin asked once (a crawler, a preview) need not pay for it.
   */
  async rebased(
    core: CoreData,
    name: WholeAnswer,
    origin: OriginState,
    read: DataReader,
  ): Promise<Uint8Array | Blob | ReadableStream<Uint8Array>> {
    const meta = core.whole[name];
    const key = `${origin.site.baseUrl} ${name}`;
    const kept = this.rebasedKept.get(key);
    if (kept !== undefined) {
      // Asked again: kept as a Blob from now on (a runtime sends a Blob's bytes as they are, where bytes are copied
      // into each response), and the latest used last, so that the oldest goes first.
      const blob = kept instanceof Blob ? kept : new Blob(Array.isArray(kept) ? kept : [kept]);
      this.rebasedBytes += blob.size - sizeOf(kept);
      this.rebasedKept.delete(key);
      this.rebasedKept.set(key, blob);
      return blob;
    }
    const length = (this.baseLength ??= UTF8.encode(jsonText(core.baseUrl)).length);
    if (meta.body !== undefined)
      return this.keepRebased(key, rebase(this.inlineBody(name, meta.body), meta.baseAt ?? [], length, origin.text));
    const source = this.templates.get(name) ?? (await this.templatePieces(name, read));
    if (!this.sentOnce.delete(key)) {
      if (this.sentOnce.size >= ONCE_KEPT) this.sentOnce.delete(this.sentOnce.values().next().value!);
      this.sentOnce.add(key);
      return rebasedStream(source, origin.json);
    }
    const take = (chunks: Uint8Array[]): void => void this.keepRebased(key, chunks);
    return rebasedStream(source, origin.json, { most: REBASED_BYTES_KEPT, take });
  }

  /**
   * A template's text pieces as read; kept once read whole when it is small (TEMPLATE_KEPT_BYTES), not gathered at all
   * when its length says it is not (holding them until it passed the size would cost memory for nothing).
   */
  private async templatePieces(name: WholeAnswer, read: DataReader): Promise<AsyncIterable<string>> {
    const res = await this.fetched(templatePath(name), read);
    const pieces = textPieces(res);
    if (Number(res.headers.get("content-length")) > TEMPLATE_KEPT_BYTES) return pieces;
    return keptWhenSmall(pieces, TEMPLATE_KEPT_BYTES, (texts) => this.templates.set(name, texts));
  }

  /** Keeps a rebased body while the bytes kept stay within REBASED_BYTES_KEPT, forgetting the least recently used. */
  private keepRebased<T extends KeptBody>(key: string, body: T): T {
    const size = sizeOf(body);
    if (size > REBASED_BYTES_KEPT) return body;
    const before = this.rebasedKept.get(key);
    if (before !== undefined) {
      this.rebasedKept.delete(key);
      this.rebasedBytes -= sizeOf(before);
    }
    for (const [oldKey, old] of this.rebasedKept) {
      if (this.rebasedBytes + size <= REBASED_BYTES_KEPT) break;
      this.rebasedKept.delete(oldKey);
      this.rebasedBytes -= sizeOf(old);
    }
    this.rebasedKept.set(key, body);
    this.rebasedBytes += size;
    return body;
  }

  /** The (origin, answer) pairs whose rebased body was sent once and not kept, the oldest first. */
  private readonly sentOnce = new Set<string>();
  /** Rebased bodies by origin and answer, the most recently used last, and their bytes. */
  private readonly rebasedKept = new Map<string, KeptBody>();
  private rebasedBytes = 0;

  /** The base URL's length as the UTF-8 bytes of its JSON text. */
  private baseLength: number | undefined;
}
