// src/verify/run.ts
// `verify`: ask a live site (or the PHP service it replaces) every request the build derives, compare each answer
// with what the build says, and classify every difference. The build is read only through src/layout/read-build.ts.

import { setMaxListeners } from "node:events";
import {
  incompleteLine,
  NotABuildError,
  readBuild,
  type Build,
  type EdgeHandler,
  type SiteFileRecord,
} from "../layout/read-build.js";
import { isEdgeDataPath } from "../edge/data.js";
import type { RouteTable } from "../routes/route-table.js";
import { compareAnswer, type Received } from "./compare-answers.js";
import { Expectations } from "./expectations.js";
import { fallbackCovers, REFERENCE_OMITS, STATIC_FALLBACKS } from "./fallbacks.js";
import { createClient, TargetError, type Client } from "./http.js";
import { ApiAnswers } from "./unrouted.js";
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
  /** What the target is when every request to /api.php got the same 404 (src/verify/unrouted.ts). */
  unrouted?: string;
  ms: number;
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

/** What a run asks, read from the build: the requests (all, or the sample) and what their answers are checked with. */
interface Plan {
  build: Build;
  records: Map<string, SiteFileRecord>;
  serve: Record<string, unknown>;
  handler: EdgeHandler | null;
  baseUrl: string;
  beyondSkipped: string | undefined;
  requests: VerifyRequest[];
  sample: { size: number; seed: number } | undefined;
}

async function planOf(options: VerifyOptions): Promise<Plan> {
  const build = await readBuild(options.dir);
  // What the build says each URL answers is not one build's: nothing to check against until it is finished.
  if (!build.complete) throw new NotABuildError(incompleteLine(options.dir));
  // The manifest's records of the plain files; of the answer files too when every request is asked (a sample's answers
  // are read from their files instead: a large site has many records).
  const [table, records, serve, handler, builtBase] = await Promise.all([
    build.table(),
    build.siteFiles(options.sample === undefined ? (p) => !isEdgeDataPath(p) : isPlainFile),
    build.serveConfig(),
    build.handler(),
    build.baseUrl(),
  ]);
  const beyondSkipped =
    handler === null
      ? "the build has no request-time handler (build with the cloudflare host) to say the exact answers"
      : undefined;
  const { requests, size, seed } = requestsAsked(options, table, [...records.keys()].filter(isPlainFile), handler);
  const sample = size === undefined ? undefined : { size, seed };
  return { build, records, serve, handler, baseUrl: options.baseUrl ?? builtBase, beyondSkipped, requests, sample };
}

/** The requests to ask: every one the build derives (those the handler must answer only with one), or a sample. */
function requestsAsked(
  options: VerifyOptions,
  table: RouteTable,
  plainFiles: string[],
  handler: EdgeHandler | null,
): { requests: VerifyRequest[]; size: number | undefined; seed: number } {
  // The requests are generated, and only those asked are kept (a large site derives very many).
  const generate = function* (): Generator<VerifyRequest> {
    for (const r of requestsOf(table, plainFiles)) if (handler !== null || r.scope === "precomputed") yield r;
  };
  let total = 0;
  for (const _request of generate()) total += 1;
  const size = options.sample ?? (total > DEFAULT_LIMIT ? DEFAULT_LIMIT : undefined);
  const seed = options.seed ?? 1;
  return { requests: size === undefined ? [...generate()] : sampleOf(generate, size, seed), size, seed };
}

/** Asks each request and tallies what it finds: passes by group, differences, and the fallbacks that explain some. */
class Checker {
  readonly groups: Record<string, GroupCount> = {};
  readonly differences: Difference[] = [];
  readonly fallbacks: VerifyReport["fallbacks"] = [];
  readonly api = new ApiAnswers();

  constructor(
    private readonly target: URL,
    private readonly plan: Plan,
    private readonly expectations: Expectations,
    private readonly client: Client,
    private readonly signal: AbortSignal,
  ) {}

  private count(r: VerifyRequest): GroupCount {
    return (this.groups[r.group] ??= {
      precomputed: { pass: 0, total: 0 },
      beyond: { pass: 0, fallback: 0, total: 0 },
    });
  }

  async check(request: VerifyRequest): Promise<void> {
    const url = urlOf(this.target, request);
    const { got, found } = await this.ask(request, url);
    this.api.note(request, got, found.length === 0);
    const c = this.count(request);
    const row = request.scope === "precomputed" ? c.precomputed : c.beyond;
    row.total += 1;
    if (found.length === 0) {
      row.pass += 1;
      return;
    }
    if (await this.explained(request, url, got)) {
      c.beyond.fallback += 1;
      return;
    }
    this.differences.push({
      method: request.method,
      url: url.href,
      group: request.group,
      scope: request.scope,
      differences: found,
    });
  }

  /** The target's answer, and how it differs from the build's. */
  private async ask(request: VerifyRequest, url: URL): Promise<{ got: Received; found: string[] }> {
    const { baseUrl } = this.plan;
    const mayOmit = this.expectations.reference
      ? REFERENCE_OMITS.filter((o) => o.action === request.group).flatMap((o) => o.fields)
      : [];
    const recorded =
      request.kind === "api" && request.scope === "precomputed" ? await this.expectations.recorded(request) : null;
    if (recorded !== null) {
      const got = await ask(this.client, url, request.method, maxBytesFor(recorded.size), this.signal);
      const want = recorded.same(got.body) ? recorded : await recorded.full();
      return { got, found: compareAnswer(want, got, { baseUrl, mayOmit }) };
    }
    const want = await this.expectations.of(request);
    const got =
      isOwnPage(request) && request.method === "GET"
        ? await askPage(this.client, url, maxBytesFor(want.size), this.signal)
        : await ask(this.client, url, request.method, maxBytesFor(want.size), this.signal);
    return { got, found: compareAnswer(want, got, { baseUrl, mayOmit }) };
  }

  /** Whether a documented static fallback explains a beyond-domain answer (then it is noted as one). */
  private async explained(request: VerifyRequest, url: URL, got: Received): Promise<boolean> {
    const { build, baseUrl } = this.plan;
    if (request.scope !== "beyond" || request.method !== "GET" || request.probe === undefined || !build.answers)
      return false;
    for (const fallback of STATIC_FALLBACKS.filter((f) => f.probes.includes(request.probe!))) {
      const answer = await build.answer(fallback.answeredBy === "table" ? request.query : rawQuery(request.query));
      if (!fallbackCovers(fallback, request.probe, answer.rule)) continue;
      if (compareAnswer(await this.expectations.fromTable(answer, "GET"), got, { baseUrl }).length === 0) {
        this.fallbacks.push({ method: request.method, url: url.href, fallback: fallback.id });
        return true;
      }
    }
    return false;
  }
}

/** Checks the requests, `concurrency` at a time, until all are checked, one fails, or the run is stopped. */
async function checkAll(
  checker: Checker,
  requests: readonly VerifyRequest[],
  options: VerifyOptions,
  controller: AbortController,
): Promise<number> {
  let done = 0;
  let failure: unknown = null;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (failure === null && !controller.signal.aborted && next < requests.length) {
      const request = requests[next++]!;
      try {
        await checker.check(request);
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
  return done;
}

/**
 * Runs the check. Throws NotABuildError (from the reader) when --dir is no build, TargetError when the target cannot
 * be asked; otherwise resolves to the report (also when stopped by `signal`: `stopped`, with what was checked).
 */
export async function verify(options: VerifyOptions): Promise<VerifyReport> {
  const started = performance.now();
  const plan = await planOf(options);
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
    const requests = reference ? plan.requests.filter((r) => !isOwnPage(r)) : plan.requests;
    const expectations = new Expectations(plan.build, plan.handler, plan.serve, plan.records, reference);
    const checker = new Checker(options.target, plan, expectations, client, controller.signal);
    const checked = await checkAll(checker, requests, options, controller);

    const { differences } = checker;
    differences.sort((a, b) => (a.scope === b.scope ? 0 : a.scope === "precomputed" ? -1 : 1));
    const failing = differences.filter((d) => d.scope === "precomputed" || options.strict === true);
    const exitCode = failing.length === 0 ? 0 : 1;
    const unrouted = checker.api.diagnosis();
    return {
      ok: exitCode === 0,
      exitCode,
      target: options.target.href,
      dir: options.dir,
      reference,
      requests: requests.length,
      checked,
      stopped: options.signal?.aborted === true,
      ...(plan.sample !== undefined ? { sample: plan.sample } : {}),
      ...(plan.beyondSkipped !== undefined ? { beyondSkipped: plan.beyondSkipped } : {}),
      groups: checker.groups,
      differences,
      fallbacks: checker.fallbacks,
      ...(unrouted === null ? {} : { unrouted }),
      ms: performance.now() - started,
    };
  } finally {
    options.signal?.removeEventListener("abort", stop);
    client.close();
  }
}
