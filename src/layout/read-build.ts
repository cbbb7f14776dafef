// src/layout/read-build.ts
// I/O: the one reader of a finished build. `preview`, `dev`, `check`, `verify`, `diff` and incremental rebuilds ask
// it where things are and what the build recorded; none of them parses the output folders on its own.

import { existsSync, statSync } from "node:fs";
import { readFile, realpath } from "node:fs/promises";
import path from "node:path";
import { UsageError } from "../errors.js";
import { compileTable, matchRoute, parseQuery, type CompiledTable, type RouteTable } from "../routes/route-table.js";
import { corePath, DATA_DIR } from "../edge/data.js";
import { isEdgeHost, needsAnswers } from "../hosts/names.js";
import { fileVersion } from "./build-status.js";
import { loadHandler, type Assets, type EdgeHandler } from "./handler-module.js";
import { describesSite } from "./last-build.js";
import { layoutOf, type Layout } from "./paths.js";
import { keptSiteFiles, parseSiteManifest, type SiteFileRecord } from "./site-manifest.js";
import { LAYOUT_FORMAT, parseStamp, type BuildStamp } from "./stamp.js";

// The reader's whole surface, so that its users import one module.
export { buildVersion, incompleteLine, isBuild } from "./build-status.js";
export type { Assets, EdgeHandler } from "./handler-module.js";
export type { SiteFileRecord } from "./site-manifest.js";

/** What the build says an `/api.php` request answers (through the route table): the rule, status, headers and body file. */
export interface BuildAnswer {
  /** The id of the rule that matched (`findIcon.file`). */
  rule: string;
  status: number;
  /** Exactly the headers of the answer (besides those of the file itself). */
  headers: Record<string, string>;
  /** The site path of the body ("/api/findIcon/file/php.json"). */
  target: string;
  /** The body's file in --out, absolute. */
  file: string;
}

/** A finished build, as its records describe it. Everything is read when asked for, and read again after a rebuild. */
export interface Build {
  layout: Layout;
  stamp: BuildStamp;
  /**
   * Whether --out is the folder the records describe, whole. False when a build was stopped between its swaps, or an
   * in-place update midway (its journal is there): the files are whole, but not all of one build; the next build
   * finishes it.
   */
  complete: boolean;
  /** Whether the build wrote this host's files (--hosts). */
  has(host: string): boolean;
  /** Whether an edge host was built: the deploy answers /api.php with the handler (and --out holds its data files). */
  edge: boolean;
  /** Whether --out holds the answer files: a static host was built (only those route /api.php to them). */
  answers: boolean;
  /** The route table (routes.json), read once per reader (shared with answer(): do not change it). */
  table(): Promise<RouteTable>;
  /** The static rules the preview hands serve-handler (serve.json). */
  serveConfig(): Promise<Record<string, unknown>>;
  /**
   * Every file of --out: its site path ("icons/a.png") → hash and size; only those `keep` accepts when given (a large
   * site has hundreds of thousands: a reader that needs a few keeps only those).
   */
  siteFiles(keep?: (sitePath: string) => boolean): Promise<Map<string, SiteFileRecord>>;
  /** The request-time handler the build emitted (a Cloudflare-shaped module in the records), or null when no edge host
   * was built. */
  handlerFile(): string | null;
  /** The answer the route table gives an `/api.php` query (the raw query, without "?"). The table is read once. */
  answer(query: string): Promise<BuildAnswer>;
  /** The handler the build emitted, loaded as a module (see handlerFile), or null when no edge host was built. */
  handler(): Promise<EdgeHandler | null>;
  /** The base URL the answers were built with (the default answer's icon_base_url, less "/icons/"). */
  baseUrl(): Promise<string>;
  /** Changes whenever a build replaces the records: a reader that holds data compares it to know when to reload. */
  version(): string;
  /** The client versions whose versionCheck answer the build precomputed (the route table's versionCheck.known rules). */
  versions(): Promise<string[]>;
  /**
   * The bytes of a file of the public site ("icons.json", "icons/a.png"), or null when the build did not publish it.
   * The content's plain files are published byte for byte in every build (edge-only builds too), the answers not.
   */
  published(sitePath: string): Promise<Buffer | null>;
}

/** A folder that is no build of this tool (or of an older layout): one line, exit 2. */
export class NotABuildError extends UsageError {}

async function readJson(file: string): Promise<unknown> {
  return JSON.parse(await readFile(file, "utf8")) as unknown;
}

/**
 * Opens the build whose --out is `outDir`. Throws NotABuildError when the folder is missing, is not a build, or was
 * built by a version of this tool with another layout.
 */
export async function readBuild(outDir: string): Promise<Build> {
  const { layout, stamp } = await openBuild(outDir);
  // Read once per reader: answer() compiles the same table.
  let tableRead: Promise<RouteTable> | undefined;
  const table = (): Promise<RouteTable> => (tableRead ??= readJson(layout.routes) as Promise<RouteTable>);
  const edge = stamp.hosts.some(isEdgeHost);
  const answers = needsAnswers(stamp.hosts);
  const handlerFile = (): string | null =>
    edge && statSync(layout.handler, { throwIfNoEntry: false })?.isFile() ? layout.handler : null;
  const answer = answerer(layout, table);
  return {
    layout,
    stamp,
    complete: describesSite(layout) && !existsSync(layout.journal),
    has: (host) => stamp.hosts.includes(host),
    edge,
    answers,
    table,
    serveConfig: async () => (await readJson(layout.serve)) as Record<string, unknown>,
    siteFiles: async (keep) =>
      keep === undefined
        ? parseSiteManifest(await readFile(layout.siteManifest, "utf8"))
        : keptSiteFiles(layout.siteManifest, keep),
    handlerFile,
    answer,
    handler: async () => {
      const file = handlerFile();
      const text = file === null ? null : await readFile(file, "utf8").catch(() => null);
      const worker = text === null ? null : await loadHandler(text, fileVersion(layout.stamp));
      if (worker === null) return null;
      const assets = ownAssets(layout);
      return { fetch: (request, env) => worker.fetch(request, env ?? { ASSETS: assets }) };
    },
    baseUrl: async () => baseUrlOf(layout, answers, answer),
    version: () => fileVersion(layout.stamp),
    versions: async () => versionsOf(await table()),
    published: async (sitePath) => {
      const parts = sitePath.split("/");
      if (parts.some((p) => p === "" || p === "." || p === "..")) return null;
      return readFile(path.join(layout.out, ...parts)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT" || error.code === "ENOTDIR" || error.code === "EISDIR") return null;
        throw error;
      });
    },
  };
}

/** The layout and stamp of the build in `outDir`, or a NotABuildError saying why there is none to read. */
async function openBuild(outDir: string): Promise<{ layout: Layout; stamp: BuildStamp }> {
  const real = await realpath(outDir).catch(() => null);
  const shown = outDir.replace(/[\\/]+$/, "") || outDir;
  if (real === null || !statSync(real).isDirectory()) {
    throw new NotABuildError(
      `${shown} does not exist: there is no build to read.`,
      "Run `build-index-site build` first, or name the output folder with --dir.",
    );
  }
  const layout = layoutOf(real);
  const stampText = await readFile(layout.stamp, "utf8").catch(() => null);
  const stamp = parseStamp(stampText ?? "");
  const otherFormat = stampText === null ? undefined : formatOf(stampText);
  if (stamp === null && otherFormat !== undefined) {
    throw new NotABuildError(
      `${shown} was built by another version of build-index-site (layout format ${otherFormat}; this one reads ${LAYOUT_FORMAT}).`,
      "Build it again with this version.",
    );
  }
  if (stamp === null) {
    const older = statSync(path.join(real, "routes.json"), { throwIfNoEntry: false }) !== undefined;
    throw new NotABuildError(
      older
        ? `${shown} was built by an older version of build-index-site (its records are inside it).`
        : `${shown} is not a build of build-index-site: ${path.relative(process.cwd(), layout.stamp) || layout.stamp} is missing.`,
      older
        ? "Build again: the records now live beside it, in .build-index-site/."
        : "Run `build-index-site build` first, or name the output folder with --dir.",
    );
  }
  return { layout, stamp };
}

/** The answer the route table gives a query; the table is compiled once, when first asked. */
function answerer(layout: Layout, table: () => Promise<RouteTable>): (query: string) => Promise<BuildAnswer> {
  let compiled: Promise<CompiledTable> | undefined;
  return async (query) => {
    compiled ??= table().then(compileTable);
    const { rule, target } = matchRoute(await compiled, parseQuery(query));
    return {
      rule: rule.id,
      status: rule.status,
      headers: rule.headers,
      target,
      file: path.join(layout.out, ...target.split("/")),
    };
  };
}

/** The data files from --out, as a host's static serving would give them (verify's exact answers). */
function ownAssets(layout: Layout): Assets {
  return {
    async fetch(request) {
      const sitePath = decodeURIComponent(new URL(request.url).pathname);
      if (!sitePath.startsWith(`${DATA_DIR}/`) || sitePath.split("/").includes(".."))
        return new Response("Not Found", { status: 404 });
      const data = await readFile(path.join(layout.out, ...sitePath.split("/"))).catch(() => null);
      return data === null ? new Response("Not Found", { status: 404 }) : new Response(data);
    },
  };
}

/** The base URL the answers were built with: the handler's core data's (an edge build), else the default answer's
 * icon_base_url, less "/icons/". */
async function baseUrlOf(
  layout: Layout,
  answers: boolean,
  answer: (query: string) => Promise<BuildAnswer>,
): Promise<string> {
  if (!answers) {
    const core = JSON.parse(await readFile(path.join(layout.out, ...corePath().split("/")), "utf8")) as {
      baseUrl?: unknown;
    };
    return typeof core.baseUrl === "string" ? core.baseUrl : "";
  }
  const info = JSON.parse(await readFile((await answer("")).file, "utf8")) as { icon_base_url?: unknown };
  return typeof info.icon_base_url === "string" ? info.icon_base_url.replace(/\/icons\/$/, "") : "";
}

/** The versions of the route table's versionCheck.known rules: the `in` set, and each escaped version's `eq` rule. */
export function versionsOf(table: RouteTable): string[] {
  const out: string[] = [];
  for (const rule of table.rules) {
    if (rule.id !== "versionCheck.known" && rule.id !== "versionCheck.known.escaped") continue;
    const p = rule.match.current_version;
    if (p === undefined) continue;
    if ("in" in p) out.push(...p.in);
    else if ("eq" in p) out.push(p.eq);
  }
  return out;
}

/** The layout format a stamp names when it is not this tool's (a number), else undefined. */
function formatOf(text: string): number | undefined {
  try {
    const format = (JSON.parse(text) as { format?: unknown }).format;
    return typeof format === "number" && format !== LAYOUT_FORMAT ? format : undefined;
  } catch {
    return undefined;
  }
}
