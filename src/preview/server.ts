// src/preview/server.ts
// I/O: serves a built site as its deploy answers: /api.php by the request-time handler (edge.ts) when the build has
// an edge host, else by evaluating the route table (the static rules); every other path, and the routed target, is
// served as a plain file (send-file.ts: validators, conditional and range requests) with serve.json's headers. The
// build is read through src/layout/read-build.ts, and reloaded when a build replaces its records. Every request path
// goes through the one resolution of site-path.ts; the names of the build's own files (src/routes/internal-files.ts)
// are 404.

import { realpath, stat } from "node:fs/promises";
import type { Stats } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import mime from "mime-types";
import { minimatch } from "minimatch";
import { BuildError, UsageError } from "../errors.js";
import { createEdgeListener } from "./edge.js";
import { PAGE_CSP, SVG_CSP } from "../hosts/common.js";
import { buildVersion } from "../layout/build-status.js";
import { readBuild, type Build } from "../layout/read-build.js";
import { FileTags } from "./file-tags.js";
import { sendFile } from "./send-file.js";
import { isApiPath, resolveSitePath, targetPath } from "./site-path.js";

export interface PreviewOptions {
  dir: string;
  port: number;
  host: string;
  /** Called with one line per answered request (method, URL, status, milliseconds). Off by default. */
  log?: (line: string) => void;
  /**
   * How /api.php is answered: "edge", with the request-time handler the build emitted (what Netlify, Vercel and
   * Cloudflare run); "static", with the route table and the answer files (what the static hosts do). Absent: as the
   * deploy the build describes, i.e. "edge" when the build has an edge host, else "static". Plain files are served
   * the same way either way.
   */
  semantics?: Semantics;
  /** Old spelling of `semantics: "edge"` (`preview --edge`). */
  edge?: boolean;
}

export type Semantics = "edge" | "static";

/** What the start-up line says a preview serves. */
export const semanticsLine = (semantics: Semantics): string =>
  semantics === "edge"
    ? "edge semantics: /api.php answered by the request-time handler, as on Netlify, Vercel and Cloudflare"
    : "static semantics: /api.php answered by the route table and the answer files, as on apache, nginx and the static fallbacks";

export interface Preview {
  url: string;
  /** The same server on the loopback address (where the handler's data reads come back). */
  self: string;
  /** How /api.php is answered (absent while dev serves its content-errors page). */
  semantics?: Semantics;
  server: http.Server;
  /** Answers every later request with `listener`. */
  use(listener: http.RequestListener): void;
  close(): Promise<void>;
}

/** serve.json's `headers` (the rules `npx serve` applies): a glob on the site path, and headers to add. */
interface ServeConfig {
  headers?: Array<{ source: string; headers: Array<{ key: string; value: string }> }>;
}

/** The headers of every `/api.php` answer (reference-behaviour.md §9); OPTIONS gets these and an empty body. */
const API_OPTIONS_HEADERS = {
  "Content-Type": "application/json",
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type, Authorization",
  "Content-Length": "0",
};

/** The records' version (src/layout) when they can be seen, "" otherwise (mid-swap, removed): the loaded table stays. */
function recordsVersion(root: string): string {
  try {
    return buildVersion(root);
  } catch {
    return "";
  }
}

interface SiteState {
  /** The records' version: a rebuild replaces them, so it changes. */
  key: string;
  /** The records: `answer` routes an /api.php query by the route table, read and compiled when first asked (the
   * static semantics; the edge handler answers without it). */
  build: Build;
  headerRules: Array<{ match: (sitePath: string) => boolean; headers: Record<string, string> }>;
  realRoot: string;
}

/** The site as the build's records describe it (the one reader, src/layout/read-build.ts). */
async function loadSite(root: string): Promise<SiteState> {
  const build = await readBuild(root);
  const serve = (await build.serveConfig()) as ServeConfig;
  return {
    key: build.version(),
    build,
    headerRules: (serve.headers ?? []).map(({ source, headers }) => ({
      match: (p: string) => minimatch(p, source.startsWith("/") ? source : `/${source}`, { dot: true }),
      headers: Object.fromEntries(headers.map(({ key: k, value }) => [k, value])),
    })),
    realRoot: await realpath(root),
  };
}

/** A plain file's headers: its type (mime-types), then serve.json's rules in order, and the SVG policy. */
function fileHeaders(site: SiteState, sitePath: string): Record<string, string> {
  const type = mime.contentType(path.posix.basename(sitePath));
  const headers: Record<string, string> = type === false ? {} : { "Content-Type": type };
  for (const rule of site.headerRules) if (rule.match(sitePath)) Object.assign(headers, rule.headers);
  return withSvgPolicy(headers);
}

/** The SVG policy on SVG files, the pages' policy on HTML pages (the catalogue), as every host config sends them. */
const withSvgPolicy = (headers: Record<string, string>): Record<string, string> =>
  /^image\/svg\+xml\b/i.test(headers["Content-Type"] ?? "")
    ? { ...headers, "Content-Security-Policy": SVG_CSP }
    : /^text\/html\b/i.test(headers["Content-Type"] ?? "")
      ? { ...headers, "Content-Security-Policy": PAGE_CSP }
      : headers;

function plain(res: http.ServerResponse, status: number, extra: Record<string, string> = {}): void {
  const body = `${http.STATUS_CODES[status] ?? "Error"}\n`;
  res.writeHead(status, {
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(body)),
    ...extra,
  });
  res.end(res.req.method === "HEAD" ? undefined : body);
}

/**
 * The regular file at `sitePath` inside the site, or null: a path through a symlink that leads outside the site (the
 * site folder itself may be a symlink repointed since: resolved again), a folder, a FIFO or a device, or any error.
 */
async function siteFile(
  root: string,
  site: SiteState,
  sitePath: string,
): Promise<{ file: string; stats: Stats } | null> {
  const file = path.join(root, sitePath);
  const inside = (real: string, top: string): boolean => real === top || real.startsWith(top + path.sep);
  try {
    const real = await realpath(file);
    if (!inside(real, site.realRoot) && !inside(real, await realpath(root))) return null;
    const stats = await stat(real);
    return stats.isFile() ? { file: real, stats } : null;
  } catch {
    return null;
  }
}

/**
 * A request listener for a built site: usable with any node:http server (and as the fallback of an edge listener).
 * `log` receives one line per answered request.
 */
export async function createPreviewHandler(dir: string, log?: (line: string) => void): Promise<http.RequestListener> {
  const root = path.resolve(dir);
  let site = await loadSite(root);
  // Kept across rebuilds: a tag is kept by its file's identity, which a rebuild changes when it replaces the file.
  const tags = new FileTags();
  let reloading: Promise<void> | null = null;
  /** Reload when the records are others than the ones loaded (a build replaced them). A stat or two. */
  const current = async (): Promise<SiteState> => {
    const key = recordsVersion(root);
    if (key !== site.key && key !== "") {
      reloading ??= loadSite(root)
        .then(
          (s) => {
            site = s;
          },
          () => undefined,
        )
        .finally(() => {
          reloading = null;
        });
      await reloading;
    }
    return site;
  };

  const serve = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const { pathname, query } = targetPath(req.url ?? "/");
    const resolved = resolveSitePath(pathname);
    if (resolved.kind === "bad") return plain(res, 400);
    if (resolved.internal) return plain(res, 404);
    const state = await current();
    const method = req.method ?? "GET";
    let sitePath = resolved.path;
    let status = 200;
    let headers: Record<string, string>;
    if (isApiPath(sitePath)) {
      // Every method but OPTIONS is answered like GET, as by the PHP service (nginx: see docs/behaviour.md).
      if (method === "OPTIONS") {
        res.writeHead(200, API_OPTIONS_HEADERS);
        res.end();
        return;
      }
      const routed = await state.build.answer(query);
      sitePath = routed.target;
      status = routed.status;
      headers = withSvgPolicy({ ...routed.headers });
    } else {
      if (method !== "GET" && method !== "HEAD") return plain(res, 405, { Allow: "GET, HEAD" });
      // A folder is its index.html, as nginx, Apache and the hosts serve it (the site's root: the catalogue).
      if (resolved.dir) sitePath = `${sitePath.replace(/\/$/, "")}/index.html`;
      headers = fileHeaders(state, sitePath);
    }
    const found = await siteFile(root, state, sitePath);
    if (found === null) return plain(res, 404);
    // A host answers an error with its body, whatever the client asks for: no validators, no 304, no ranges.
    let etag: string | undefined;
    if (status === 200) {
      try {
        etag = await tags.of(found.file, found.stats);
      } catch {
        return plain(res, 404); // no longer a regular file
      }
    }
    await sendFile(req, res, { ...found, status, headers, etag });
  };

  const listener: http.RequestListener = (req, res) => {
    serve(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" });
      res.end("Internal Server Error\n");
    });
  };
  return log === undefined ? listener : logged(listener, log);
}

/** The semantics a preview of `dir` serves: asked for, or as the build's deploy answers. Refuses what cannot be served. */
async function semanticsOf(options: Pick<PreviewOptions, "dir" | "edge" | "semantics">): Promise<Semantics> {
  const build = await readBuild(options.dir);
  const asked = options.semantics ?? (options.edge === true ? "edge" : undefined);
  if (asked === "static" && !build.answers) {
    throw new UsageError(
      `${options.dir} was built for edge hosts only (${build.stamp.hosts.join(", ")}): it holds no answer files for the static rules.`,
      "Preview without --static (the handler answers, as on the deploy), or build with a static host in --hosts (apache, nginx, netlify-static, vercel-static).",
    );
  }
  return asked ?? (build.edge ? "edge" : "static");
}

/**
 * The listener that answers for the build in `options.dir`, and the semantics it serves. `self` is the preview's own
 * URL, through which the handler reads its data files (as a host's handler reads them from its static files).
 */
export async function previewListener(
  options: Pick<PreviewOptions, "dir" | "edge" | "semantics" | "log">,
  self: () => string,
): Promise<{ listener: http.RequestListener; semantics: Semantics }> {
  const semantics = await semanticsOf(options);
  const files = await createPreviewHandler(options.dir);
  const listener = semantics === "edge" ? await createEdgeListener(options.dir, files, self) : files;
  return { semantics, listener: options.log === undefined ? listener : logged(listener, options.log) };
}

/** One line per answered request (method, URL, status, milliseconds), whichever semantics answered it. */
function logged(listener: http.RequestListener, log: (line: string) => void): http.RequestListener {
  return (req, res) => {
    const started = process.hrtime.bigint();
    const url = req.url ?? "/";
    // "close" comes after every answer, also one the client did not wait for.
    res.once("close", () =>
      log(
        `${req.method ?? "GET"} ${url} ${res.statusCode} ${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(1)}ms`,
      ),
    );
    listener(req, res);
  };
}

export async function startPreview(options: PreviewOptions): Promise<Preview> {
  let self = "";
  const { listener, semantics } = await previewListener(options, () => self);
  const preview = await listen(options, listener, semantics);
  self = preview.self;
  return preview;
}

/**
 * A server on `options.port` answering with `listener`, which `use` replaces (dev: the content-errors page, then the
 * site once the content is fixed).
 */
export async function listen(
  options: Pick<PreviewOptions, "port" | "host">,
  listener: http.RequestListener,
  semantics?: Semantics,
): Promise<Preview> {
  let current = listener;
  const server = http.createServer((req, res) => current(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  }).catch((error: NodeJS.ErrnoException) => {
    const where = `${options.host} port ${options.port}`;
    if (error.code === "EADDRINUSE") {
      throw new BuildError("PREVIEW_PORT", `Port ${options.port} on ${options.host} is in use.`, {
        hint: "Pass --port 0 to take any free port.",
      });
    }
    if (error.code === "EADDRNOTAVAIL" || error.code === "ENOTFOUND" || error.code === "EAI_AGAIN") {
      // A bad --host is a usage error (exit 2), like any other bad flag.
      throw new UsageError(
        `Cannot listen on ${where}: ${options.host} is not an address of this machine.`,
        "Pass --host 127.0.0.1 (this machine only) or --host 0.0.0.0 (every interface).",
      );
    }
    if (error.code === "EACCES") {
      throw new BuildError("PREVIEW_PORT", `Not allowed to listen on ${where}.`, {
        hint: "Ports below 1024 need privileges: pass --port 8080, or --port 0 for any free port.",
      });
    }
    throw error;
  });
  // Past listening, a failed accept (EMFILE under a flood) must not crash the preview: the client retries.
  server.on("error", () => undefined);
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  // The handler's data reads come back here, on the loopback address when the preview listens on every interface.
  const loopback = address.address === "0.0.0.0" ? "127.0.0.1" : address.address === "::" ? "[::1]" : host;
  return {
    url: `http://${host}:${address.port}/`,
    self: `http://${loopback}:${address.port}/`,
    ...(semantics === undefined ? {} : { semantics }),
    server,
    use: (next) => {
      current = next;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
