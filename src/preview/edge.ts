// src/preview/edge.ts
// The edge hosts' previews (`--as netlify|vercel|cloudflare`; the default when one is built): /api.php (and
// /api.php/…) answered by the request-time handler the build emitted, exactly as the edge hosts answer; everything
// else by the files listener of the same host (server.ts). The handler is found through the build's records
// (src/layout), run as Cloudflare runs it, and given its data files the way a host gives them: its ASSETS binding is
// a fetch to this preview's own static file serving. After a rebuild (dev), the next request loads the new handler,
// with an empty cache: no restart.

import type http from "node:http";
import { UsageError } from "../errors.js";
import { buildVersion } from "../layout/build-status.js";
import { readBuild } from "../layout/read-build.js";
import type { Assets, EdgeHandler } from "../layout/handler-module.js";
import { OWN_FETCH_HEADER, OWN_FETCH_TOKEN } from "./own-fetch.js";
import { isApiPath, resolveSitePath, targetPath } from "./site-path.js";

/** Loads the handler the build in `dir` emitted. */
async function loadHandler(dir: string): Promise<EdgeHandler> {
  const build = await readBuild(dir);
  const handler = await build.handler();
  if (handler === null) {
    throw new UsageError(
      `${dir} was built without an edge host: there is no request-time handler to preview.`,
      "Build with netlify, vercel or cloudflare in --hosts (they are in the default), or preview with --static.",
    );
  }
  return handler;
}

/** The request headers the handler reads (If-None-Match), as the hosts hand them on. */
const validators = (req: http.IncomingMessage): Record<string, string> => {
  const v = req.headers["if-none-match"];
  return v === undefined ? {} : { "If-None-Match": v };
};

/** The request's own origin, as a host hands it to the handler (`--base-url request` answers with it). */
function originOf(req: http.IncomingMessage): string {
  const host = req.headers.host;
  if (host !== undefined && host !== "") {
    try {
      return new URL(`http://${host}`).origin;
    } catch {
      // a Host header no URL can hold: the placeholder below
    }
  }
  return "http://preview.invalid";
}

const versionOf = (dir: string): string => {
  try {
    return buildVersion(dir);
  } catch {
    return "";
  }
};

/**
 * A listener that answers /api.php with the emitted handler and hands every other request to `fallback`. `self()`
 * is the preview's own URL once it listens: the handler's data reads go there, as a host's go to its static files.
 */
export async function createEdgeListener(
  dir: string,
  fallback: http.RequestListener,
  self: () => string,
): Promise<http.RequestListener> {
  let version = versionOf(dir);
  let handler = await loadHandler(dir);
  let reloading: Promise<void> | null = null;
  const current = async (): Promise<EdgeHandler> => {
    const now = versionOf(dir);
    if (now !== version && now !== "") {
      // A failed load (mid-swap, a build without a handler) keeps the handler loaded; the next request tries again.
      reloading ??= loadHandler(dir)
        .then(
          (h) => {
            handler = h;
            version = now;
          },
          () => undefined,
        )
        .finally(() => {
          reloading = null;
        });
      await reloading;
    }
    return handler;
  };
  const assets: Assets = {
    fetch: async (request) => {
      const url = new URL(request.url);
      return fetch(new URL(`${url.pathname}${url.search}`, self()), {
        method: "GET",
        headers: { [OWN_FETCH_HEADER]: OWN_FETCH_TOKEN },
      });
    },
  };
  return (req, res) => {
    // The static preview's one path resolution (site-path.ts) decides what is /api.php; it also refuses bad paths and
    // the internal files.
    const { pathname, query } = targetPath(req.url ?? "/");
    const resolved = resolveSitePath(pathname);
    if (resolved.kind !== "path" || resolved.internal || !isApiPath(resolved.path)) {
      fallback(req, res);
      return;
    }
    // The body is never read: every method but OPTIONS is answered like GET.
    const target = `${originOf(req)}${resolved.path}${query === "" ? "" : `?${query}`}`;
    let request: Request;
    try {
      request = new Request(target, { method: req.method ?? "GET", headers: validators(req) });
    } catch {
      request = new Request(target, { headers: validators(req) }); // methods fetch refuses (TRACE, CONNECT): like GET
    }
    current()
      .then((h) => h.fetch(request, { ASSETS: assets }))
      .then(
        async (response) => {
          // Whole, with its length (as a host sends a function's answer): an empty body is no chunked "0".
          const body = Buffer.from(await response.arrayBuffer());
          res.writeHead(response.status, {
            ...Object.fromEntries(response.headers),
            "content-length": String(body.length),
          });
          res.end(req.method === "HEAD" ? undefined : body);
        },
        (error: unknown) => {
          res.writeHead(500, { "Content-Type": "text/plain" });
          res.end(`Internal error in the edge handler: ${String(error)}\n`);
        },
      );
  };
}
