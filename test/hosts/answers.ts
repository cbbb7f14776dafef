// test/hosts/answers.ts
// One answer shape for every host (status, body, Content-Type, Cache-Control, CORS) and how each host produces it:
// over HTTP (preview, Apache, nginx), through Netlify's engine, our Vercel evaluator, or the Cloudflare worker.

import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import mime from "mime-types";
import type { VercelHas, VercelJson } from "../../src/hosts/vercel-static/render.js";
import type { NetlifyEngine } from "./netlify-engine.js";

export interface HostAnswer {
  status: number;
  body: string;
  contentType: string | null;
  cacheControl: string | null;
  cors: string | null;
}

export type Answerer = (query: string) => Promise<HostAnswer>;

const ENTRY = "/api.php";

export function httpAnswerer(baseUrl: string): Answerer {
  const base = baseUrl.replace(/\/$/, "");
  return async (query) => {
    return visibleAnswer(await fetch(`${base}${ENTRY}${query === "" ? "" : `?${query}`}`, { redirect: "manual" }));
  };
}

/** A file of the built site, or null. */
async function siteFile(siteDir: string, sitePath: string): Promise<string | null> {
  const file = path.join(siteDir, decodeURIComponent(sitePath));
  if (!file.startsWith(path.resolve(siteDir) + path.sep)) return null;
  return readFile(file, "utf8").catch(() => null);
}

const typeOf = (sitePath: string): string | null => mime.lookup(sitePath) || null;

function headerAnswer(
  status: number,
  body: string,
  headers: ReadonlyMap<string, string>,
  fallbackType: string | null,
): HostAnswer {
  return {
    status,
    body,
    contentType: headers.get("content-type") ?? fallbackType,
    cacheControl: headers.get("cache-control") ?? null,
    cors: headers.get("access-control-allow-origin") ?? null,
  };
}

const NOT_FOUND = "(host's own 404 page)";

// --- Netlify ------------------------------------------------------------------------------------------------------

/** `_headers` blocks: a path (exact, or ending in `/*`), then indented `Name: value` lines. */
export function parseNetlifyHeaders(text: string): Array<{ path: string; headers: Array<[string, string]> }> {
  const blocks: Array<{ path: string; headers: Array<[string, string]> }> = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "" || line.trim().startsWith("#")) continue;
    if (!/^\s/.test(line)) blocks.push({ path: line.trim(), headers: [] });
    else {
      const i = line.indexOf(":");
      blocks.at(-1)!.headers.push([line.slice(0, i).trim(), line.slice(i + 1).trim()]);
    }
  }
  return blocks;
}

/** Netlify: the engine picks the line; the body is the target file; `_headers` apply by target path (netlify dev). */
export async function netlifyAnswerer(siteDir: string, engine: NetlifyEngine): Promise<Answerer> {
  const blocks = parseNetlifyHeaders(await readFile(path.join(siteDir, "_headers"), "utf8"));
  return async (query) => {
    const m = engine.match(ENTRY, query);
    if (m === null) return { status: 404, body: NOT_FOUND, contentType: "text/html", cacheControl: null, cors: null };
    const body = await siteFile(siteDir, m.to);
    if (body === null)
      return { status: 404, body: NOT_FOUND, contentType: "text/html", cacheControl: null, cors: null };
    const headers = new Map<string, string>();
    for (const b of blocks) {
      const hit = b.path.endsWith("/*") ? m.to.startsWith(b.path.slice(0, -1)) : m.to === b.path;
      if (!hit) continue;
      for (const [k, v] of b.headers) {
        const key = k.toLowerCase();
        headers.set(key, headers.has(key) ? `${headers.get(key)!}, ${v}` : v); // Netlify joins repeated headers
      }
    }
    return headerAnswer(m.status, body, headers, typeOf(m.to));
  };
}

// --- Vercel -------------------------------------------------------------------------------------------------------

/** Vercel `source` → RegExp: only the two shapes we emit (an exact path, `/prefix/(.*)`). */
function sourceRegex(source: string): RegExp {
  const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return source.endsWith("(.*)") ? new RegExp(`^${esc(source.slice(0, -4))}(.*)$`) : new RegExp(`^${esc(source)}$`);
}

/**
 * `has` / `missing` as hosts.md describes them: a query item holds when the parameter is present (no value) or its
 * value matches the regex (we emit anchored ones); the value is the last one (Next.js; next-on-pages takes the
 * first); case-sensitive. Named groups feed `:name` in the destination.
 */
function hasHolds(
  items: readonly VercelHas[] | undefined,
  params: URLSearchParams,
  groups: Record<string, string>,
): boolean {
  for (const item of items ?? []) {
    const all = params.getAll(item.key);
    if (all.length === 0) return false;
    if (item.value === undefined) continue;
    const m = new RegExp(item.value).exec(all.at(-1)!);
    if (m === null) return false;
    Object.assign(groups, m.groups ?? {});
  }
  return true;
}

const missingHolds = (items: readonly VercelHas[] | undefined, params: URLSearchParams): boolean =>
  (items ?? []).every((item) => !hasHolds([item], params, {}));

export async function vercelAnswerer(siteDir: string, config: VercelJson): Promise<Answerer> {
  return async (query) => {
    const params = new URLSearchParams(query);
    const headers = new Map<string, string>();
    for (const rule of config.headers) {
      if (!sourceRegex(rule.source).test(ENTRY)) continue;
      if (!hasHolds(rule.has, params, {}) || !missingHolds(rule.missing, params)) continue;
      for (const { key, value } of rule.headers) headers.set(key.toLowerCase(), value);
    }
    for (const rewrite of config.rewrites) {
      if (!sourceRegex(rewrite.source).test(ENTRY)) continue;
      const groups: Record<string, string> = {};
      if (!hasHolds(rewrite.has, params, groups) || !missingHolds(rewrite.missing, params)) continue;
      const dest = rewrite.destination.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) =>
        encodeURIComponent(groups[name] ?? ""),
      );
      const body = await siteFile(siteDir, dest);
      if (body === null)
        return { status: 404, body: NOT_FOUND, contentType: "text/html", cacheControl: null, cors: null };
      return headerAnswer(rewrite.statusCode ?? 200, body, headers, typeOf(dest));
    }
    return { status: 404, body: NOT_FOUND, contentType: "text/html", cacheControl: null, cors: null };
  };
}

// --- Cloudflare ---------------------------------------------------------------------------------------------------

interface Worker {
  fetch(request: Request, env: { ASSETS: { fetch(request: Request): Promise<Response> } }): Promise<Response>;
}

/** Runs the emitted `_worker.js` with a stub ASSETS binding that serves the built site's files. */
export async function cloudflareAnswerer(siteDir: string): Promise<Answerer> {
  const mod = (await import(`${pathToFileURL(path.join(siteDir, "_worker.js")).href}?t=${Date.now()}`)) as {
    default: Worker;
  };
  const env = {
    ASSETS: {
      async fetch(request: Request): Promise<Response> {
        const sitePath = new URL(request.url).pathname;
        const body = await siteFile(siteDir, sitePath);
        if (body === null) return new Response("Not found", { status: 404 });
        return new Response(body, {
          status: 200,
          headers: { "Content-Type": typeOf(sitePath) ?? "application/octet-stream" },
        });
      },
    },
  };
  return async (query) => {
    return visibleAnswer(
      await mod.default.fetch(new Request(`https://site.example${ENTRY}${query === "" ? "" : `?${query}`}`), env),
    );
  };
}

/** What a client sees of an HTTP answer: status, body and the three headers the parity suites compare. */
export async function visibleAnswer(res: Response): Promise<HostAnswer> {
  return {
    status: res.status,
    body: await res.text(),
    contentType: res.headers.get("content-type"),
    cacheControl: res.headers.get("cache-control"),
    cors: res.headers.get("access-control-allow-origin"),
  };
}
