// src/preview/server.ts
// EDGE: serves a built site like a static host would. `/api.php` is routed by evaluating routes.json (nothing
// smarter); every other path, and the routed target, is served as a plain file by serve-handler.

import { lstat, readFile, realpath } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import handler from "serve-handler";
import { BuildError } from "../errors.js";
import { API_ENTRY, compileTable, matchRoute, parseQuery, type CompiledTable, type RouteTable } from "../routes/route-table.js";

export interface PreviewOptions {
  dir: string;
  port: number;
  host: string;
}

export interface Preview {
  url: string;
  server: http.Server;
  close(): Promise<void>;
}

type ServeConfig = Parameters<typeof handler>[2] & object;
type ServeMethods = Parameters<typeof handler>[3] & object;

/**
 * serve-handler's lstat, confined to the site: a path through a symlinked folder that leads outside it, or with a NUL
 * byte (which the file system API refuses with an exception, i.e. a 500), is "not found".
 */
function confinedLstat(realRoot: string): ServeMethods["lstat"] {
  const notFound = (): NodeJS.ErrnoException => Object.assign(new Error("ENOENT: not found"), { code: "ENOENT" });
  return (async (file: string) => {
    if (file.includes("\0")) throw notFound();
    const real = await realpath(file).catch(() => null);
    if (real !== null && real !== realRoot && !real.startsWith(realRoot + path.sep)) throw notFound();
    return lstat(file);
  }) as unknown as ServeMethods["lstat"];
}

async function readJson(file: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    throw new BuildError("PREVIEW_NO_SITE", `${file} is missing: ${what}`, { hint: "Run `build-index-site build` first, or pass --dir." });
  }
  return JSON.parse(text) as unknown;
}

/** A request listener for a built site: usable with any node:http server. */
export async function createPreviewHandler(dir: string): Promise<http.RequestListener> {
  const root = path.resolve(dir);
  const table = (await readJson(path.join(root, "routes.json"), "it is not a built site.")) as RouteTable;
  const compiled: CompiledTable = compileTable(table);
  const serveJson = (await readJson(path.join(root, "serve.json"), "it is not a built site.")) as ServeConfig;
  const base: ServeConfig = {
    ...serveJson,
    public: root,
    etag: false,
    symlinks: false,
    directoryListing: false,
    cleanUrls: false,
  };
  const methods: ServeMethods = { lstat: confinedLstat(await realpath(root)) };

  return (req, res) => {
    const raw = req.url ?? "/";
    const q = raw.indexOf("?");
    const pathname = q === -1 ? raw : raw.slice(0, q);
    let config = base;
    if (pathname === API_ENTRY) {
      const { rule, target } = matchRoute(compiled, parseQuery(q === -1 ? "" : raw.slice(q + 1)));
      req.url = encodeURI(target);
      res.statusCode = rule.status;
      // A host answers an error with its body, whatever the client asks for: no 304, no partial content.
      if (rule.status !== 200) {
        delete req.headers.range;
        delete req.headers["if-none-match"];
        delete req.headers["if-modified-since"];
      }
      // Exactly the rule's headers (they override serve-handler's Content-Type for .json).
      config = { ...base, headers: [{ source: "**", headers: Object.entries(rule.headers).map(([key, value]) => ({ key, value })) }] };
    }
    handler(req, res, config, methods).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" });
      res.end(String(error));
    });
  };
}

export async function startPreview(options: PreviewOptions): Promise<Preview> {
  const server = http.createServer(await createPreviewHandler(options.dir));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "EADDRINUSE") {
      throw new BuildError("PREVIEW_PORT", `Port ${options.port} on ${options.host} is in use.`, { hint: "Pass --port 0 to take any free port." });
    }
    throw error;
  });
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
