// src/preview/server.ts
// EDGE: serves a built site like a static host would. `/api.php` is routed by evaluating routes.json (nothing
// smarter); every other path, and the routed target, is served as a plain file by serve-handler. The route table is
// reloaded when a build replaces the records (src/layout); the names of the build's own files are 404 here too.

import { lstat, realpath, stat } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import handler from "serve-handler";
import { BuildError, UsageError } from "../errors.js";
import { createEdgeListener } from "./edge.js";
import { API_ENTRY, compileTable, matchRoute, parseQuery, type CompiledTable, type RouteTable } from "../routes/route-table.js";
import { isInternalPath } from "../routes/internal-files.js";
import { buildVersion, readBuild } from "../layout/read-build.js";
import { notFound, readRegularFile } from "./read-file.js";

export interface PreviewOptions {
  dir: string;
  port: number;
  host: string;
  /** Called with one line per answered request (method, URL, status, milliseconds). Off by default. */
  log?: (line: string) => void;
  /**
   * Answer /api.php with the request-time handler the build emitted (`_worker.js`: what the edge hosts run) instead
   * of the route table (what static hosts do). Plain files are served the same way either way.
   */
  edge?: boolean;
}

export interface Preview {
  url: string;
  server: http.Server;
  close(): Promise<void>;
}

type ServeConfig = Parameters<typeof handler>[2] & object;
type ServeMethods = Parameters<typeof handler>[3] & object;

/** The headers of every `/api.php` answer (reference-behaviour.md §9); OPTIONS gets these and an empty body. */
const API_OPTIONS_HEADERS = {
  "Content-Type": "application/json",
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type, Authorization",
  "Content-Length": "0",
};

/**
 * serve-handler's lstat, confined to the site: a path through a symlinked folder that leads outside it, a NUL byte, a
 * name too long for the file system, or anything but a regular file, folder or symlink (a FIFO, a device) is "not
 * found". Every error is "not found", so serve-handler never logs one (with an absolute path) nor answers 500.
 */
function confinedLstat(siteRoot: string, realRoot: () => string): ServeMethods["lstat"] {
  let known = "";
  const inside = (real: string, root: string): boolean => real === root || real.startsWith(root + path.sep);
  return (async (file: string) => {
    if (file.includes("\0")) throw notFound();
    try {
      const root = known || realRoot();
      const real = await realpath(file).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT" || error.code === "ENOTDIR") return null;
        throw error;
      });
      if (real !== null && !inside(real, root)) {
        // The site folder may be a symlink that a deployment pointed elsewhere since: resolve it again (this path only).
        const fresh = await realpath(siteRoot);
        if (fresh === root || !inside(real, fresh)) throw notFound();
        known = fresh;
      }
      const stats = await lstat(file);
      if (!stats.isFile() && !stats.isDirectory() && !stats.isSymbolicLink()) throw notFound();
      return stats;
    } catch {
      throw notFound();
    }
  }) as unknown as ServeMethods["lstat"];
}

interface SiteState {
  /** The records' version (src/layout): a rebuild replaces them, so it changes. */
  key: string;
  compiled: CompiledTable;
  base: ServeConfig;
  realRoot: string;
}

/** The site as the build's records describe it (the one reader, src/layout/read-build.ts). */
async function loadSite(root: string): Promise<SiteState> {
  const build = await readBuild(root);
  const key = build.version();
  const [table, serveJson] = await Promise.all([build.table(), build.serveConfig()]);
  return {
    key,
    compiled: compileTable(table),
    base: { ...(serveJson as ServeConfig), public: root, etag: false, symlinks: false, directoryListing: false, cleanUrls: false },
    realRoot: await realpath(root),
  };
}

/** The records' version when they can be read, "" otherwise (mid-swap, removed): the loaded table stays. */
function recordsVersion(root: string): string {
  try {
    return buildVersion(root);
  } catch {
    return "";
  }
}

/** Hosts send no Content-Disposition; serve-handler adds one to every file. */
function writeHeadWithoutDisposition(this: http.ServerResponse, ...args: unknown[]): http.ServerResponse {
  const headers = args[1];
  if (headers !== null && typeof headers === "object" && !Array.isArray(headers)) {
    delete (headers as Record<string, unknown>)["Content-Disposition"];
  }
  const proto = Object.getPrototypeOf(this) as { writeHead: (...a: unknown[]) => http.ServerResponse };
  return proto.writeHead.apply(this, args);
}

/** `http://host/path?q` (absolute-form request target, RFC 9112 §3.2.2) → `/path?q`. */
function originForm(raw: string): string {
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/.exec(raw);
  if (m === null) return raw;
  const rest = raw.slice(m[0].length);
  return rest.startsWith("/") ? rest : `/${rest}`;
}

/** The decoded, normalised site path of a request path, or null when it does not decode. */
function sitePath(pathname: string): string | null {
  try {
    return path.posix.normalize(decodeURIComponent(pathname));
  } catch {
    return null;
  }
}

/** Whether an If-Range validator fails to match the file (we send no ETag; a date must equal Last-Modified). */
async function ifRangeFails(validator: string, file: string): Promise<boolean> {
  if (validator.startsWith('"') || validator.startsWith("W/")) return true;
  const stats = await stat(file).catch(() => null);
  return stats === null || stats.mtime.toUTCString() !== validator;
}

/**
 * A request listener for a built site: usable with any node:http server (and as the fallback of an edge listener).
 * `log` receives one line per answered request.
 */
export async function createPreviewHandler(dir: string, log?: (line: string) => void): Promise<http.RequestListener> {
  const root = path.resolve(dir);
  let site = await loadSite(root);
  let reloading: Promise<void> | null = null;
  /** Reload when the records are others than the ones loaded (a build replaced them). Cheap: a stat or two. */
  const current = async (): Promise<SiteState> => {
    const key = recordsVersion(root);
    if (key !== site.key && key !== "") {
      reloading ??= loadSite(root).then((s) => { site = s; }, () => undefined).finally(() => { reloading = null; });
      await reloading;
    }
    return site;
  };
  const lstat = confinedLstat(root, () => site.realRoot);
  /**
   * Per request. A pipelined request's file is opened only once its answer is the connection's current one (a client
   * that never reads holds one file at most, not one per request). A file that cannot be read after all (gone in a
   * rebuild, descriptors exhausted) is a plain 404, never serve-handler's 500 with a logged stack. A stream is closed
   * when its answer ends or its client leaves (a pipe never closes it).
   */
  const methodsFor = (res: http.ServerResponse): ServeMethods => ({
    lstat,
    createReadStream: (async (file: string, options: { start?: number; end?: number }) => {
      if (res.socket === null && !res.closed) {
        await new Promise<void>((resolve) => {
          res.once("socket", () => resolve());
          res.once("close", () => resolve());
        });
      }
      let stream: Readable;
      try {
        stream = await readRegularFile(file, options);
      } catch {
        const body = Buffer.from("Not Found\n");
        res.writeHead = function (this: http.ServerResponse) {
          return http.ServerResponse.prototype.writeHead.call(this, 404, { "Content-Type": "text/plain; charset=utf-8", "Content-Length": body.length });
        } as typeof res.writeHead;
        return Readable.from([body]);
      }
      if (res.closed) stream.destroy();
      else res.once("close", () => stream.destroy());
      return stream;
    }) as unknown as ServeMethods["createReadStream"],
  });

  const serve = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const raw = originForm(req.url ?? "/");
    req.url = raw;
    const q = raw.indexOf("?");
    const pathname = q === -1 ? raw : raw.slice(0, q);
    res.writeHead = writeHeadWithoutDisposition as typeof res.writeHead;
    let state = site;
    let config = state.base;
    let file: string | null = null;
    if (pathname === API_ENTRY) {
      if (req.method === "OPTIONS") {
        res.writeHead(200, API_OPTIONS_HEADERS);
        res.end();
        return;
      }
      state = await current();
      const { rule, target } = matchRoute(state.compiled, parseQuery(q === -1 ? "" : raw.slice(q + 1)));
      req.url = encodeURI(target);
      file = target;
      res.statusCode = rule.status;
      // A host answers an error with its body, whatever the client asks for: no 304, no partial content.
      if (rule.status !== 200) {
        delete req.headers.range;
        delete req.headers["if-none-match"];
        delete req.headers["if-modified-since"];
      }
      // Exactly the rule's headers (they override serve-handler's Content-Type for .json).
      config = { ...state.base, headers: [{ source: "**", headers: Object.entries(rule.headers).map(([key, value]) => ({ key, value })) }] };
    } else {
      file = sitePath(pathname);
      if (file !== null && isInternalPath(file)) {
        res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" });
        res.end("Not Found\n");
        return;
      }
    }
    const ifRange = req.headers["if-range"];
    if (req.headers.range !== undefined && ifRange !== undefined
      && (file === null || await ifRangeFails(String(ifRange), path.join(state.base.public ?? root, file)))) {
      delete req.headers.range;
    }
    await handler(req, res, config, methodsFor(res));
  };

  return (req, res) => {
    const started = process.hrtime.bigint();
    const url = req.url ?? "/";
    if (log !== undefined) {
      // "close" comes after every answer, also one the client did not wait for.
      res.once("close", () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        log(`${req.method ?? "GET"} ${url} ${res.statusCode} ${ms.toFixed(1)}ms`);
      });
    }
    serve(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" });
      res.end("Internal Server Error\n");
    });
  };
}

export async function startPreview(options: PreviewOptions): Promise<Preview> {
  const files = await createPreviewHandler(options.dir, options.log);
  const server = http.createServer(options.edge ? await createEdgeListener(options.dir, files) : files);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  }).catch((error: NodeJS.ErrnoException) => {
    const where = `${options.host} port ${options.port}`;
    if (error.code === "EADDRINUSE") {
      throw new BuildError("PREVIEW_PORT", `Port ${options.port} on ${options.host} is in use.`, { hint: "Pass --port 0 to take any free port." });
    }
    if (error.code === "EADDRNOTAVAIL" || error.code === "ENOTFOUND" || error.code === "EAI_AGAIN") {
      // A bad --host is a usage error (exit 2), like any other bad flag.
      throw new UsageError(`Cannot listen on ${where}: ${options.host} is not an address of this machine.`,
        "Pass --host 127.0.0.1 (this machine only) or --host 0.0.0.0 (every interface).");
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
  return {
    url: `http://${host}:${address.port}/`,
    server,
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
