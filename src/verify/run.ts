// src/verify/run.ts
// `verify`: ask a live site (or the PHP service it replaces) every request the build derives, compare each answer
// with what the build says, and classify every difference. The build is read only through src/layout/read-build.ts.

import { setMaxListeners } from "node:events";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { incompleteLine } from "../layout/build-status.js";
import { NotABuildError, readBuild, type Build, type BuildAnswer } from "../layout/read-build.js";
import type { EdgeHandler } from "../layout/handler-module.js";
import type { SiteFileRecord } from "../layout/site-manifest.js";
import { isEdgeDataPath } from "../edge/data.js";
import { API_HEADERS, compareAnswer, sha256, type Expected, type Received } from "./compare-answers.js";
import { fallbackCovers, REFERENCE_OMITS, STATIC_FALLBACKS } from "./fallbacks.js";
import { createClient, TargetError, type Client } from "./http.js";
import {
  DEFAULT_LIMIT,
  isOwnPage,
  isPlainFile,
  requestsOf,
  sampleOf,
  urlOf,
  type Scope,
  type VerifyRequest,
} from "./requests.js";

export { DEFAULT_LIMIT };

export interface VerifyOptions {
  dir: string;
  target: URL;
  concurrency?: number;
  timeoutMs?: number;
  headers?: Record<string, string>;
  sample?: number;
  seed?: number;
  strict?: boolean;
  /** The target is the PHP service (true), a site (false), or detected from its X-Powered-By (undefined). */
  reference?: boolean;
  baseUrl?: string;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

export interface Difference {
  method: string;
  url: string;
  group: string;
  scope: Scope;
  differences: string[];
}

export interface GroupCount {
  precomputed: { pass: number; total: number };
  beyond: { pass: number; fallback: number; total: number };
}

export interface VerifyReport {
  ok: boolean;
  exitCode: 0 | 1;
  target: string;
  dir: string;
  reference: boolean;
  /** The requests to ask (all the build derives, or the sample), and how many were asked (fewer when stopped). */
  requests: number;
  checked: number;
  stopped: boolean;
  sample?: { size: number; seed: number };
  /** Why the beyond-domain set was not asked (a build without the handler has no exact answers for it). */
  beyondSkipped?: string;
  groups: Record<string, GroupCount>;
  /** Wrong answers, precomputed first. */
  differences: Difference[];
  /** Beyond-domain answers that a documented static fallback explains. */
  fallbacks: Array<{ method: string; url: string; fallback: string }>;
  ms: number;
}

const lowerHeaders = (headers: Record<string, string>): Record<string, string | undefined> => {
  const out: Record<string, string | undefined> = {};
  const given = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  for (const name of API_HEADERS) out[name] = given.get(name);
  return out;
};

/** What the build says a request answers. */
class Expectations {
  private readonly types = new Map<string, string>();
  private readonly files = new Map<string, { sha256: string; size: number }>();
  constructor(
    private readonly build: Build,
    private readonly handler: EdgeHandler | null,
    serve: Record<string, unknown>,
    private readonly records: ReadonlyMap<string, SiteFileRecord>,
    readonly reference: boolean,
  ) {
    // The Content-Type the build gives each file extension (serve.json's static rules: "**/*.png").
    for (const rule of (serve.headers ?? []) as Array<{
      source: string;
      headers: Array<{ key: string; value: string }>;
    }>) {
      const m = /^\*\*\/\*\.([^/]+)$/.exec(rule.source);
      const type = rule.headers.find((h) => h.key.toLowerCase() === "content-type")?.value;
      if (m !== null && type !== undefined) this.types.set(m[1]!.toLowerCase(), type);
    }
  }

  async fromTable(answer: BuildAnswer, method: string): Promise<Expected & { size: number }> {
    const text = await readFile(answer.file, "utf8");
    return {
      status: answer.status,
      headers: lowerHeaders(answer.headers),
      body: method === "HEAD" ? { kind: "empty" } : { kind: "json", value: JSON.parse(text) as unknown },
      size: Buffer.byteLength(text),
    };
  }

  async exact(request: VerifyRequest): Promise<Expected & { size: number }> {
    const url = `http://verify.invalid${request.path}${request.query === "" ? "" : `?${request.query}`}`;
    // The handler reads its data files from the build (src/layout/read-build.ts), as a host serves them.
    const response = await this.handler!.fetch(new Request(url, { method: request.method }));
    const text = await response.text();
    let body: Expected["body"];
    if (request.method !== "GET") body = { kind: "empty" };
    else {
      try {
        body = { kind: "json", value: JSON.parse(text) as unknown };
      } catch {
        body = { kind: "bytes", sha256: sha256(text), size: Buffer.byteLength(text) };
      }
    }
    return {
      status: response.status,
      headers: lowerHeaders(Object.fromEntries(response.headers)),
      body,
      size: Buffer.byteLength(text),
    };
  }

  private async file(sitePath: string): Promise<{ sha256: string; size: number }> {
    let known = this.files.get(sitePath);
    if (known === undefined) {
      const file = sitePath
        .split("/")
        .filter((p) => p !== "")
        .map(decodeURIComponent)
        .join("/");
      const bytes = await this.build.published(file); // through the one reader of the build
      if (bytes === null) throw new Error(`Internal: ${sitePath} is not a file of the build.`);
      known = { sha256: sha256(bytes), size: bytes.length };
      this.files.set(sitePath, known);
    }
    return known;
  }

  /**
   * A precomputed answer without parsing it: its rule's status and headers, and its file's bytes as the build recorded
   * them (sha1 and size, when the records were read) or as they are. A body with those bytes is the answer; any other
   * body is compared as JSON (`full`).
   */
  async recorded(
    request: VerifyRequest,
  ): Promise<(Expected & { size: number; same: (body: Buffer) => boolean; full: () => Promise<Expected> }) | null> {
    if (!this.build.answers || request.method !== "GET") return null;
    const answer = await this.build.answer(request.query);
    const expected = { status: answer.status, headers: lowerHeaders(answer.headers) };
    const record = this.records.get(answer.target.slice(1));
    if (record !== undefined) {
      return {
        ...expected,
        body: { kind: "any" },
        size: record.size,
        same: (body) =>
          body.length === record.size && createHash("sha1").update(body).digest("base64url") === record.sha1,
        full: () => this.fromTable(answer, request.method),
      };
    }
    // A sample's answer: its file, read synchronously (one small file; an asynchronous read is four thread-pool trips).
    let bytes: Buffer;
    try {
      bytes = readFileSync(answer.file);
    } catch {
      return null;
    }
    return {
      ...expected,
      body: { kind: "any" },
      size: bytes.length,
      same: (body) => body.equals(bytes),
      full: async () => ({ ...expected, body: { kind: "json", value: JSON.parse(bytes.toString("utf8")) as unknown } }),
    };
  }

  async of(request: VerifyRequest): Promise<Expected & { size: number }> {
    switch (request.kind) {
      case "api":
        // An edge-only build has no answer files: its handler says every answer, the precomputed ones too.
        return request.scope === "beyond" || !this.build.answers
          ? this.exact(request)
          : this.fromTable(await this.build.answer(request.query), request.method);
      case "missing":
        return { status: 404, headers: {}, body: { kind: "any" }, size: 0 };
      case "file":
      case "page": {
        const sitePath = request.kind === "page" ? "/index.html" : request.path;
        const file = await this.file(sitePath);
        const ext = /\.([^./]+)$/.exec(sitePath)?.[1]?.toLowerCase();
        const type = ext === undefined ? undefined : this.types.get(ext);
        // Against the PHP service, plain files are compared by bytes and status: the web server in front chooses headers.
        return {
          status: 200,
          headers: this.reference || type === undefined ? {} : { "content-type": type },
          body: { kind: "bytes", ...file },
          size: file.size,
        };
      }
    }
  }
}

/** Asks once, and once more after a transport failure (never after a redirect or a body too large). */
async function ask(client: Client, url: URL, method: string, maxBytes: number, signal: AbortSignal): Promise<Received> {
  try {
    return await client.request(url, method, maxBytes, signal);
  } catch (error) {
    if (
      signal.aborted ||
      (error instanceof TargetError && (error.failure === "redirect" || error.failure === "too-large"))
    )
      throw error;
    return client.request(url, method, maxBytes, signal);
  }
}

/** Redirects followed for a page of the site's own (on the same host only: the client refuses any other). */
const PAGE_REDIRECTS = 3;

/** A page of the site's own, as a browser gets it: a redirect on the same host (/index.html → /) is followed. */
async function askPage(client: Client, url: URL, maxBytes: number, signal: AbortSignal): Promise<Received> {
  let got = await ask(client, url, "GET", maxBytes, signal);
  for (
    let hop = 0;
    hop < PAGE_REDIRECTS && got.status >= 300 && got.status < 400 && got.headers.location !== undefined;
    hop += 1
  ) {
    got = await ask(client, new URL(got.headers.location, url), "GET", maxBytes, signal);
  }
  return got;
}

const maxBytesFor = (size: number): number => 4 * size + 1024 * 1024;
const rawQuery = (query: string): string => query.replace(/%/g, "%25").replace(/\+/g, "%2B");

/**
 * Runs the check. Throws NotABuildError (from the reader) when --dir is no build, TargetError when the target cannot
 * be asked; otherwise resolves to the report (also when stopped by `signal`: `stopped`, with what was checked).
 */
export async function verify(options: VerifyOptions): Promise<VerifyReport> {
  const started = performance.now();
  const build = await readBuild(options.dir);
  // What the build says each URL answers is not one build's: nothing to check against until it is finished.
  if (!build.complete) throw new NotABuildError(incompleteLine(options.dir));
  // The manifest's records of the plain files; of the answer files too when every request is asked (a sample's answers
  // are read from their files instead: a ×100 site has 600,000 records).
  const [table, records, serve, handler, builtBase] = await Promise.all([
    build.table(),
    build.siteFiles(options.sample === undefined ? (p) => !isEdgeDataPath(p) : isPlainFile),
    build.serveConfig(),
    build.handler(),
    build.baseUrl(),
  ]);
  const plainFiles = [...records.keys()].filter(isPlainFile);
  const baseUrl = options.baseUrl ?? builtBase;
  const beyondSkipped =
    handler === null
      ? "the build has no request-time handler (build with the cloudflare host) to say the exact answers"
      : undefined;
  // The requests are generated, and only those asked are kept (a ×100 site derives about 600,000).
  const generate = function* (): Generator<VerifyRequest> {
    for (const r of requestsOf(table, plainFiles)) if (handler !== null || r.scope === "precomputed") yield r;
  };
  let total = 0;
  for (const _ of generate()) total += 1;
  const size = options.sample ?? (total > DEFAULT_LIMIT ? DEFAULT_LIMIT : undefined);
  const seed = options.seed ?? 1;
  let requests = size === undefined ? [...generate()] : sampleOf(generate, size, seed);
  const controller = new AbortController();
  setMaxListeners((options.concurrency ?? 8) + 8, controller.signal); // one listener per request in flight
  const stop = (): void => controller.abort();
  options.signal?.addEventListener("abort", stop, { once: true });
  if (options.signal?.aborted === true) stop();
  const client = createClient({
    concurrency: options.concurrency ?? 8,
    timeoutMs: options.timeoutMs ?? 10_000,
    headers: options.headers ?? {},
  });
  try {
    // One request first: a target that cannot be asked fails here, once; the PHP service tells itself by X-Powered-By.
    const first = await ask(
      client,
      urlOf(options.target, { path: "/api.php", query: "action=status" } as VerifyRequest),
      "GET",
      16 * 1024 * 1024,
      controller.signal,
    );
    const reference = options.reference ?? /php/i.test(first.headers["x-powered-by"] ?? "");
    // The site's own pages (the catalogue: the root, index.html, catalogue/) are not the API's: not asked of the PHP service.
    if (reference) requests = requests.filter((r) => !isOwnPage(r));
    const expectations = new Expectations(build, handler, serve, records, reference);

    const groups: Record<string, GroupCount> = {};
    const differences: Difference[] = [];
    const fallbacks: VerifyReport["fallbacks"] = [];
    let done = 0;
    let failure: unknown = null;
    const count = (r: VerifyRequest): GroupCount =>
      (groups[r.group] ??= { precomputed: { pass: 0, total: 0 }, beyond: { pass: 0, fallback: 0, total: 0 } });

    const check = async (request: VerifyRequest): Promise<void> => {
      const url = urlOf(options.target, request);
      const mayOmit = reference
        ? REFERENCE_OMITS.filter((o) => o.action === request.group).flatMap((o) => o.fields)
        : [];
      let found: string[];
      let got: Received;
      const recorded =
        request.kind === "api" && request.scope === "precomputed" ? await expectations.recorded(request) : null;
      if (recorded !== null) {
        got = await ask(client, url, request.method, maxBytesFor(recorded.size), controller.signal);
        found = compareAnswer(recorded.same(got.body) ? recorded : await recorded.full(), got, { baseUrl, mayOmit });
      } else {
        const want = await expectations.of(request);
        got =
          isOwnPage(request) && request.method === "GET"
            ? await askPage(client, url, maxBytesFor(want.size), controller.signal)
            : await ask(client, url, request.method, maxBytesFor(want.size), controller.signal);
        found = compareAnswer(want, got, { baseUrl, mayOmit });
      }
      const c = count(request);
      const row = request.scope === "precomputed" ? c.precomputed : c.beyond;
      row.total += 1;
      if (found.length === 0) {
        row.pass += 1;
        return;
      }
      if (request.scope === "beyond" && request.method === "GET" && request.probe !== undefined && build.answers) {
        for (const fallback of STATIC_FALLBACKS.filter((f) => f.probes.includes(request.probe!))) {
          const answer = await build.answer(fallback.answeredBy === "table" ? request.query : rawQuery(request.query));
          if (!fallbackCovers(fallback, request.probe, answer.rule)) continue;
          if (compareAnswer(await expectations.fromTable(answer, "GET"), got, { baseUrl }).length === 0) {
            c.beyond.fallback += 1;
            fallbacks.push({ method: request.method, url: url.href, fallback: fallback.id });
            return;
          }
        }
      }
      differences.push({
        method: request.method,
        url: url.href,
        group: request.group,
        scope: request.scope,
        differences: found,
      });
    };

    let next = 0;
    const worker = async (): Promise<void> => {
      while (failure === null && !controller.signal.aborted && next < requests.length) {
        const request = requests[next++]!;
        try {
          await check(request);
          done += 1;
          options.onProgress?.(done, requests.length);
        } catch (error) {
          if (controller.signal.aborted) return;
          failure = error;
          controller.abort();
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 8) }, worker));
    if (failure !== null) throw failure;

    differences.sort((a, b) => (a.scope === b.scope ? 0 : a.scope === "precomputed" ? -1 : 1));
    const failing = differences.filter((d) => d.scope === "precomputed" || options.strict === true);
    const exitCode = failing.length === 0 ? 0 : 1;
    return {
      ok: exitCode === 0,
      exitCode,
      target: options.target.href,
      dir: options.dir,
      reference,
      requests: requests.length,
      checked: done,
      stopped: options.signal?.aborted === true,
      ...(size !== undefined ? { sample: { size, seed } } : {}),
      ...(beyondSkipped !== undefined ? { beyondSkipped } : {}),
      groups,
      differences,
      fallbacks,
      ms: performance.now() - started,
    };
  } finally {
    options.signal?.removeEventListener("abort", stop);
    client.close();
  }
}
