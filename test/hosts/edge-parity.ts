// test/hosts/edge-parity.ts
// The edge parity suite's engine: build a site with every edge output, run each on its host's runtime (Netlify's
// edge function under Deno, Vercel's under edge-runtime behind a server of .vercel/output's static files,
// Cloudflare's worker in-process with an ASSETS binding over its assets folder; `wrangler dev` is test/edge's), and
// compare every host's answer with the expected one. The handlers read their data files through the host's own
// path: the ASSETS binding, or a sub-request to the harness's own server (never the disk):
// - the precomputed domain (test/helpers/domain.ts, enumerated independently of the route builder): the preview's
//   answer, i.e. the precomputed file with its rule's status and headers;
// - requests outside it (test/hosts/requests.ts' variants, and test/edge's generated requests when present): the
//   reference answers test/edge computes from the spec.

import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "../../src/pipeline/pipeline.js";
import { VERCEL_DIR } from "../../src/hosts/vercel/render.js";
import { CLOUDFLARE_ASSETS, CLOUDFLARE_ENTRY } from "../../src/hosts/cloudflare/render.js";
import type { SiteModel } from "../../src/model/types.js";
import type { RouteTable } from "../../src/routes/route-table.js";
import { startPreview } from "../../src/preview/server.js";
import { domainQueries, toSearch } from "../helpers/domain.js";
import { removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { visibleAnswer as visible, type HostAnswer } from "./answers.js";
import { expectedAnswer } from "../edge/expected.js";
import { edgeRequests } from "../edge/requests.js";
import { generateRequests } from "./requests.js";
import type { RunningServer } from "./servers.js";
import { startNetlifyDeno } from "./netlify-deno.js";
import { startVercelOutput } from "./vercel-edge-runtime.js";
import { layoutOf } from "../../src/layout/paths.js";

export const EDGE_HOSTS = ["netlify", "vercel", "cloudflare"] as const;
export type EdgeHost = (typeof EDGE_HOSTS)[number];

export interface EdgeRequest {
  method: string;
  /** Raw query string, without "?". */
  query: string;
  /** "domain", or the generator's category. */
  category: string;
  /** The request path: "/api.php" unless given (PATH_INFO: "/api.php/extra"). */
  path?: string;
}

/** A host's handler: one request in, what a client sees out. */
export type EdgeAnswerer = (request: EdgeRequest) => Promise<HostAnswer>;

export interface EdgeMismatch {
  request: EdgeRequest;
  fields: string[];
  got: HostAnswer;
  want: HostAnswer;
}

export interface EdgeReport {
  host: EdgeHost;
  compared: number;
  equal: number;
  byCategory: Record<string, { compared: number; equal: number }>;
  mismatches: EdgeMismatch[];
}

const FIELDS = ["status", "body", "contentType", "cacheControl", "cors"] as const;

/** `timestamp` fields may carry the request time (the reference's status answer does): compared as present only. */
const maskTimestamps = (body: string): string => body.replace(/("timestamp": )"[^"]*"/g, '$1"<time>"');

function differing(got: HostAnswer, want: HostAnswer): string[] {
  return FIELDS.filter((f) =>
    f === "body" ? maskTimestamps(got.body) !== maskTimestamps(want.body) : got[f] !== want[f],
  );
}

const apiUrl = (base: string, r: EdgeRequest): string =>
  `${base}${r.path ?? "/api.php"}${r.query === "" ? "" : `?${r.query}`}`;

export interface EdgeSite {
  root: string;
  siteDir: string;
  model: SiteModel;
  table: RouteTable;
  answerers: Record<EdgeHost, EdgeAnswerer>;
  /** The servers of the hosts that run as one (Netlify's function under Deno, Vercel's under edge-runtime). */
  urls: { netlify: string; vercel: string };
  /** The precomputed answers, as the preview serves them. */
  preview: EdgeAnswerer;
  close(): Promise<void>;
}

interface Worker {
  fetch(request: Request, env: { ASSETS: { fetch(request: Request): Promise<Response> } }): Promise<Response>;
}

/** Builds `content` with the edge outputs and starts each host's runtime over it. */
export async function startEdgeSite(content: string): Promise<EdgeSite> {
  const root = await tmpDir("bis-edge-parity-");
  const siteDir = path.join(root, "dist");
  let deno: RunningServer | undefined;
  let vercel: RunningServer | undefined;
  let preview: Awaited<ReturnType<typeof startPreview>> | undefined;
  try {
    const { model, routes } = await build({
      content,
      out: siteDir,
      sourceDateEpoch: TEST_EPOCH,
      hosts: ["netlify", "vercel", "cloudflare"],
    });
    deno = await startNetlifyDeno(root, layoutOf(siteDir).host("netlify")); // its publish folder
    vercel = await startVercelOutput(path.join(root, VERCEL_DIR));
    // The precomputed answers: an edge-only build has none, so a static build of the same content serves them.
    const staticDir = path.join(root, "static", "dist");
    await build({ content, out: staticDir, sourceDateEpoch: TEST_EPOCH, hosts: ["nginx"] });
    preview = await startPreview({ dir: staticDir, port: 0, host: "127.0.0.1", as: "route-table" });
    // Cloudflare uploads its own folder: the worker, and the assets folder its ASSETS binding serves.
    const upload = layoutOf(siteDir).host("cloudflare");
    const assetsDir = path.join(upload, CLOUDFLARE_ASSETS);
    const worker = (await import(`${pathToFileURL(path.join(upload, CLOUDFLARE_ENTRY)).href}?t=${Date.now()}`)) as {
      default: Worker;
    };
    const assets = {
      async fetch(request: Request): Promise<Response> {
        const file = path.join(assetsDir, decodeURIComponent(new URL(request.url).pathname));
        if (!file.startsWith(assetsDir + path.sep)) return new Response("Not found", { status: 404 });
        const data = await readFile(file).catch(() => null);
        if (data === null) return new Response("Not found", { status: 404 });
        return new Response(data, {
          headers: { "Content-Type": file.endsWith(".json") ? "application/json" : "application/octet-stream" },
        });
      },
    };
    const denoUrl = deno.url;
    const previewUrl = preview.url.replace(/\/$/, "");
    const vercelUrl = vercel.url;
    const answerers: Record<EdgeHost, EdgeAnswerer> = {
      netlify: async (r) => visible(await fetch(apiUrl(denoUrl, r), { method: r.method, redirect: "manual" })),
      vercel: async (r) => visible(await fetch(apiUrl(vercelUrl, r), { method: r.method, redirect: "manual" })),
      cloudflare: async (r) =>
        visible(
          await worker.default.fetch(new Request(apiUrl("https://site.example", r), { method: r.method }), {
            ASSETS: assets,
          }),
        ),
    };
    const running = { deno, vercel, preview };
    return {
      root,
      siteDir,
      model,
      table: routes.table,
      answerers,
      urls: { netlify: denoUrl, vercel: vercelUrl },
      preview: async (r) => visible(await fetch(apiUrl(previewUrl, r), { method: r.method, redirect: "manual" })),
      async close() {
        await running.preview.close();
        await running.vercel.stop();
        await running.deno.stop();
        await removeDir(root);
      },
    };
  } catch (error) {
    await preview?.close();
    await vercel?.stop();
    await deno?.stop();
    await removeDir(root);
    throw error;
  }
}

/** Every request of the precomputed domain, GET. */
export function domainRequests(model: SiteModel): EdgeRequest[] {
  return [...new Set(domainQueries(model).map(toSearch))].map((query) => ({
    method: "GET",
    query,
    category: "domain",
  }));
}

/**
 * Requests outside the precomputed domain: the static parity suite's variants of every rule (extra, reordered,
 * repeated, unknown, empty, bare, case, encoded …), shapes of reference-behaviour.md (versions around the manifest's,
 * PHP's name mangling and arrays, invalid UTF-8, icon paths), and other methods.
 */
export function referenceRequests(site: EdgeSite, membersPerSet: number): EdgeRequest[] {
  const table = site.table;
  const out: EdgeRequest[] = generateRequests(table, { membersPerSet })
    .filter((r) => r.category !== "own")
    .map((r) => ({ method: "GET", query: r.query, category: r.category }));
  const latest = site.model.versions.at(-1) ?? "1.0.0";
  const versions = [
    latest,
    `v${latest}`,
    `${latest}.0`,
    `${latest}-rc1`,
    `${latest}pl1`,
    `${latest}-r9`,
    "2.0",
    "0.0.1",
    "99",
    "1.2.0",
    "1.2.0-rc1",
    " 1.0",
    "1.0 ",
  ];
  const shapes: Array<[string, string]> = [
    ...versions.map((v): [string, string] => [
      "version",
      `action=versionCheck&current_version=${encodeURIComponent(v)}`,
    ]),
    ["mangled", "action=versionCheck&current.version=1.0"],
    ["mangled", "action=versionCheck&current%20version=1.0"],
    ["mangled", "action=versionCheck&current[version=1.0"],
    ["array", "action[]=config"],
    ["array", "action=findIcon&extension[]=php"],
    ["array", "action=versionCheck&current_version[a]=1"],
    ["repeated", "action=config&action=status"],
    ["utf8", "action=getExtensionSetting&extension=%FF"],
    ["utf8", "action=findIcon&extension=%C3%A9"],
    ["case", "action=getExtensionSetting&extension=PHP"],
    ["case", "action=getExtensionSetting&extension=pHp&type=viewing"],
    ["case", "action=findIcon&extension=PhP&type=folder"],
    ["icon", "action=icon&name=../icons/php.png"],
    ["icon", "action=icon&name=PHP.PNG"],
    ["icon", "action=icon&name=%00"],
    ["plus", "action=findIcon&extension=c%2B%2B"],
    ["plus", "action=findIcon&extension=c++"],
  ];
  for (const [category, query] of shapes) out.push({ method: "GET", query, category });
  for (const method of ["OPTIONS", "HEAD", "POST", "PUT"]) {
    for (const query of ["", "action=config", "action=icon", "action=findIcon&extension=php"])
      out.push({ method, query, category: `method-${method}` });
  }
  const seen = new Set<string>();
  return out.filter((r) => {
    const key = `${r.method} ${r.query}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** test/edge's generated requests (the domain, and everything outside it the reference answers otherwise). */
export function generatedEdgeRequests(model: SiteModel, perSet: number): EdgeRequest[] {
  return edgeRequests(model, { perSet }).map((r) => ({
    method: r.method,
    query: r.query,
    category: r.category,
    path: r.url.split("?")[0]!,
  }));
}

/** src/php's answer to a request (test/edge's oracle: the reference semantics, checked against PHP), as a client sees it. */
export function referenceAnswer(model: SiteModel): (r: EdgeRequest) => Promise<HostAnswer> {
  return async (r) => {
    const answer = expectedAnswer(model, r);
    const header = (name: string): string | null =>
      Object.entries(answer.headers).find(([k]) => k.toLowerCase() === name)?.[1] ?? null;
    return {
      status: answer.status,
      body: answer.body,
      contentType: header("content-type"),
      cacheControl: header("cache-control"),
      cors: header("access-control-allow-origin"),
    };
  };
}

/** Asks every host each request and compares with `expected`. */
export async function compareHosts(
  site: EdgeSite,
  requests: readonly EdgeRequest[],
  expected: (r: EdgeRequest) => Promise<HostAnswer>,
  hosts: readonly EdgeHost[] = EDGE_HOSTS,
): Promise<EdgeReport[]> {
  const wants = new Map<EdgeRequest, HostAnswer>();
  for (const r of requests) wants.set(r, await expected(r));
  const reports: EdgeReport[] = [];
  for (const host of hosts) {
    const report: EdgeReport = { host, compared: 0, equal: 0, byCategory: {}, mismatches: [] };
    for (const r of requests) {
      const got = await site.answerers[host](r);
      const want = wants.get(r)!;
      const fields = differing(got, want);
      const cat = (report.byCategory[r.category] ??= { compared: 0, equal: 0 });
      report.compared++;
      cat.compared++;
      if (fields.length === 0) {
        report.equal++;
        cat.equal++;
      } else report.mismatches.push({ request: r, fields, got, want });
    }
    reports.push(report);
  }
  return reports;
}

export function summarizeEdge(name: string, reports: readonly EdgeReport[]): string {
  const lines = [`${name}:`];
  for (const r of reports) {
    const cats = Object.entries(r.byCategory)
      .map(([c, n]) => `${c} ${n.equal}/${n.compared}`)
      .join(", ");
    lines.push(`  ${r.host.padEnd(10)} ${r.equal}/${r.compared} equal (${cats})`);
    for (const m of r.mismatches.slice(0, 8)) {
      lines.push(
        `    ${m.request.method} ?${m.request.query} [${m.request.category}] ${m.fields.join(",")}: ` +
          `got ${m.got.status} ${m.got.body.slice(0, 60).replace(/\s+/g, " ")} cc=${m.got.cacheControl} | ` +
          `want ${m.want.status} ${m.want.body.slice(0, 60).replace(/\s+/g, " ")} cc=${m.want.cacheControl}`,
      );
    }
  }
  return lines.join("\n");
}
