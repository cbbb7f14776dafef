// src/preview/server.ts
// I/O: serves a built site as one of the hosts it was built for answers it (hosts.ts; by default an edge host when one
// is built): /api.php by the request-time handler (edge.ts) or by that host's own rules (api-route.ts); every other
// path, and the routed target, as a plain file (send-file.ts: validators, conditional and range requests) with
// serve.json's headers, as far as that host uploads it, and with its server's own answers (server-quirks.ts). The
// build is read through src/layout/read-build.ts, and reloaded when a build replaces its records. Every request path
// goes through the one resolution of site-path.ts; the names of the build's own files are 404.

import type http from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { BuildError, UsageError } from "../errors.js";
import { createEdgeListener } from "./edge.js";
import { isAnswerPath } from "../layout/link-trees.js";
import { pathHeaders } from "../php/header-groups.js";
import { readBuild } from "../layout/read-build.js";
import { apiRouter } from "./api-route.js";
import { FileTags } from "./file-tags.js";
import { behaviourOf, choosePreviewAs, type HostBehaviour, type PreviewAs } from "./hosts.js";

export { asLine, type PreviewAs } from "./hosts.js";
import { sendFile } from "./send-file.js";
import { APACHE_ALLOW, apachePath, folderAnswer, plainMethod } from "./server-quirks.js";
import { isApiPath, resolveSitePath, targetPath } from "./site-path.js";
import { empty, fileHeaders, plain, siteEntry, siteReader, uploads, withSvgPolicy, type SiteState } from "./site.js";

export interface PreviewOptions {
  dir: string;
  port: number;
  host: string;
  /** Called with one line per answered request (method, URL, status, milliseconds). Off by default. */
  log?: (line: string) => void;
  /**
   * The host to answer as: one the build was written for (`--as nginx`), or "route-table" (the table exactly, no
   * host's fallbacks). Absent: as `semantics` asks, else an edge host when one was built, else the first static host.
   */
  as?: string;
  /** Old switches: "edge" is the first edge host built (`--edge`), "static" the first static host (`--static`). */
  semantics?: Semantics;
  /** Old spelling of `semantics: "edge"`. */
  edge?: boolean;
}

export type Semantics = "edge" | "static";

export interface Preview {
  url: string;
  /** The same server on the loopback address (where the handler's data reads come back). */
  self: string;
  /** The host it answers as (absent while dev serves its content-errors page). */
  as?: PreviewAs;
  /** "edge" when the request-time handler answers /api.php, else "static". */
  semantics?: Semantics;
  server: http.Server;
  /** Answers every later request with `listener`. */
  use(listener: http.RequestListener): void;
  close(): Promise<void>;
}

/** The headers of every `/api.php` answer (reference-behaviour.md §9); OPTIONS gets these and an empty body. */
const API_OPTIONS_HEADERS = {
  "Content-Type": "application/json",
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type, Authorization",
  "Content-Length": "0",
};

/** What a path is served as: the file's site path, the status and headers; `refuse`: 405 once the file is found. */
interface Planned {
  sitePath: string;
  status: number;
  headers: Record<string, string>;
  refuse?: true;
}

/** /api.php routed by the host's rules (OPTIONS: the API's CORS answer), or null when it is answered already. */
async function routeApi(
  state: SiteState,
  b: HostBehaviour,
  method: string,
  query: string,
  res: http.ServerResponse,
): Promise<Planned | null> {
  if (method === "OPTIONS") {
    res.writeHead(200, API_OPTIONS_HEADERS);
    res.end();
    return null;
  }
  state.router ??= apiRouter(state.build, b.api === "handler" ? "route-table" : b.api);
  const routed = await (await state.router)(query);
  if (routed.target === "") {
    plain(res, 404);
    return null;
  }
  return { sitePath: routed.target, status: routed.status, headers: withSvgPolicy({ ...routed.headers }) };
}

/** What one preview's requests share: the site's folder, the host it answers as, its state and its file tags. */
interface Context {
  root: string;
  b: HostBehaviour;
  current: () => Promise<SiteState>;
  tags: FileTags;
}

/** A plain path as the host serves it (GET and HEAD; Apache's POST and OPTIONS), or null when answered already. */
function planPlain(
  ctx: Context,
  state: SiteState,
  resolved: { path: string; dir: boolean },
  method: string,
  res: http.ServerResponse,
): Planned | null {
  const allowed = plainMethod(ctx.b.server, method);
  if (allowed === 405) plain(res, 405, { Allow: "GET, HEAD" });
  else if (allowed === "options") empty(res, 200, { Allow: APACHE_ALLOW });
  else if (!uploads(ctx.b, resolved.path)) plain(res, 404);
  else {
    // A folder is its index.html, as nginx, Apache and the hosts serve it (the site's root: the catalogue).
    const sitePath = resolved.dir ? `${resolved.path.replace(/\/$/, "")}/index.html` : resolved.path;
    const headers = fileHeaders(state, sitePath);
    return { sitePath, status: 200, headers, ...(allowed === "found-405" ? { refuse: true } : {}) };
  }
  return null;
}

async function serve(ctx: Context, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const { b, root } = ctx;
  const target = targetPath(req.url ?? "/");
  const { query } = target;
  let { pathname } = target;
  const method = req.method ?? "GET";
  if (b.server === "apache") {
    if (pathname === "*" && method === "OPTIONS") return empty(res, 200, { Allow: APACHE_ALLOW });
    const apache = apachePath(pathname);
    if (typeof apache === "number") return plain(res, apache);
    pathname = apache;
  }
  const resolved = resolveSitePath(pathname);
  if (resolved.kind === "bad") return plain(res, 400);
  if (resolved.internal) return plain(res, 404);
  const state = await ctx.current();
  // Every method but OPTIONS is answered like GET on /api.php, as by the PHP service (nginx: see docs/behaviour.md).
  const api = isApiPath(resolved.path) && (b.pathInfo || resolved.path === "/api.php");
  const planned = api ? await routeApi(state, b, method, query, res) : planPlain(ctx, state, resolved, method, res);
  if (planned === null) return;
  const found = await siteEntry(root, state, planned.sitePath);
  if (found === null || found === "folder") {
    const folder = planned.sitePath === resolved.path ? found : await siteEntry(root, state, resolved.path);
    const answer = folder === "folder" && !api ? folderAnswer(b.server, resolved.dir, resolved.path, query) : null;
    return answer === null ? plain(res, 404) : plain(res, answer.status, answer.headers);
  }
  if (planned.refuse === true) return plain(res, 405, { Allow: "GET, HEAD" });
  // A host answers an error with its body, whatever the client asks for: no validators, no 304, no ranges.
  let etag: string | undefined;
  if (planned.status === 200) {
    try {
      etag = await ctx.tags.of(found.file, found.stats);
    } catch {
      return plain(res, 404); // no longer a regular file
    }
  }
  // Apache sends the answer files' headers (`Header always set`) with a 304 too.
  const always = b.server === "apache" && isAnswerPath(planned.sitePath.slice(1)) ? pathHeaders(planned.sitePath) : {};
  await sendFile(req, res, { ...found, ...planned, etag, server: b.server, always });
}

/**
 * A request listener for a built site, as `as` answers it (default: the route table exactly, with every file of the
 * site): usable with any node:http server (and as the fallback of an edge listener). `log` receives one line per
 * answered request.
 */
export async function createPreviewHandler(
  dir: string,
  log?: (line: string) => void,
  as: PreviewAs = "route-table",
): Promise<http.RequestListener> {
  const root = path.resolve(dir);
  // The tags are kept across rebuilds: a tag is kept by its file's identity, which a rebuild changes when it
  // replaces the file.
  const ctx: Context = { root, b: behaviourOf(as), current: await siteReader(root), tags: new FileTags() };
  const listener: http.RequestListener = (req, res) => {
    serve(ctx, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" });
      res.end("Internal Server Error\n");
    });
  };
  return log === undefined ? listener : logged(listener, log);
}

/**
 * The listener that answers for the build in `options.dir` as the host it picks (hosts.ts), and that host. `self` is
 * the preview's own URL, through which the handler reads its data files (as a host's handler reads them from its
 * static files).
 */
export async function previewListener(
  options: Pick<PreviewOptions, "dir" | "as" | "edge" | "semantics" | "log">,
  self: () => string,
): Promise<{ listener: http.RequestListener; as: PreviewAs; semantics: Semantics; hosts: readonly string[] }> {
  const build = await readBuild(options.dir);
  const as = choosePreviewAs(options.dir, build.stamp.hosts, options);
  const b = behaviourOf(as);
  const files = await createPreviewHandler(options.dir, undefined, as);
  const listener = b.api === "handler" ? await createEdgeListener(options.dir, files, self) : files;
  return {
    as,
    semantics: b.api === "handler" ? "edge" : "static",
    hosts: build.stamp.hosts,
    listener: options.log === undefined ? listener : logged(listener, options.log),
  };
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

export async function startPreview(options: PreviewOptions): Promise<Preview & { hosts: readonly string[] }> {
  let self = "";
  const { listener, as, semantics, hosts } = await previewListener(options, () => self);
  const preview = await listen(options, listener, { as, semantics });
  self = preview.self;
  return { ...preview, hosts };
}

/**
 * A server on `options.port` answering with `listener`, which `use` replaces (dev: the content-errors page, then the
 * site once the content is fixed).
 */
export async function listen(
  options: Pick<PreviewOptions, "port" | "host">,
  listener: http.RequestListener,
  serving?: { as: PreviewAs; semantics: Semantics },
): Promise<Preview> {
  let current = listener;
  const server = createServer((req, res) => current(req, res));
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
    ...serving,
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
