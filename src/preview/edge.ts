// src/preview/edge.ts
// `preview --edge`: /api.php (and /api.php/…) answered by the request-time handler the build emitted, exactly as
// the edge hosts answer; everything else by the static preview. The handler and its data are Cloudflare's worker,
// found through the build's records (src/layout), run as Cloudflare runs it.

import { readFile } from "node:fs/promises";
import type http from "node:http";
import { UsageError } from "../errors.js";
import { readBuild } from "../layout/read-build.js";
import { isApiPath, resolveSitePath, targetPath } from "./site-path.js";

interface Worker {
  fetch(request: Request, env: { ASSETS: { fetch(request: Request): Promise<Response> } }): Promise<Response>;
}

/** Loads the handler the build emitted (Cloudflare's worker) as an ES module, from its text. */
async function loadWorker(dir: string): Promise<Worker> {
  const file = (await readBuild(dir)).handlerFile();
  const text = file === null ? null : await readFile(file, "utf8").catch(() => null);
  if (file === null || text === null) {
    throw new UsageError(`${dir} was built without the handler: the edge preview runs the handler the build wrote for Cloudflare.`,
      "Build with the cloudflare host (it is in the default --hosts), then preview again.");
  }
  const mod = (await import(`data:text/javascript;base64,${Buffer.from(text).toString("base64")}`)) as { default?: Worker };
  if (typeof mod.default?.fetch !== "function") throw new UsageError(`${file} is not a handler written by build-index-site.`, "Rebuild the site.");
  return mod.default;
}

/** The request headers the handler reads (If-None-Match), as the hosts hand them on. */
const validators = (req: http.IncomingMessage): Record<string, string> => {
  const v = req.headers["if-none-match"];
  return v === undefined ? {} : { "If-None-Match": v };
};

/** A listener that answers /api.php with the emitted handler and hands every other request to `fallback`. */
export async function createEdgeListener(dir: string, fallback: http.RequestListener): Promise<http.RequestListener> {
  const worker = await loadWorker(dir);
  const noAssets = { fetch: async () => new Response("Not Found", { status: 404 }) };
  return (req, res) => {
    // The static preview's one path resolution (site-path.ts) decides what is /api.php; it also refuses bad paths and
    // the internal files (the handler and its data, _worker.js, among them).
    const { pathname, query } = targetPath(req.url ?? "/");
    const resolved = resolveSitePath(pathname);
    if (resolved.kind !== "path" || resolved.internal || !isApiPath(resolved.path)) {
      fallback(req, res);
      return;
    }
    // The body is never read: every method but OPTIONS is answered like GET.
    const target = `http://preview.invalid${resolved.path}${query === "" ? "" : `?${query}`}`;
    let request: Request;
    try {
      request = new Request(target, { method: req.method ?? "GET", headers: validators(req) });
    } catch {
      request = new Request(target, { headers: validators(req) }); // methods fetch refuses (TRACE, CONNECT): like GET
    }
    worker.fetch(request, { ASSETS: noAssets }).then(async (response) => {
      const body = req.method === "HEAD" ? "" : await response.text();
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(body);
    }, (error: unknown) => {
      res.writeHead(500, { "Content-Type": "text/plain" });
      res.end(`Internal error in the edge handler: ${String(error)}\n`);
    });
  };
}
