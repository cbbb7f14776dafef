// test/hosts/vercel-edge-runtime.ts
// Runs a Vercel edge function file (Build Output API: one ES module whose default export takes a Request) under
// `edge-runtime`, Vercel's emulator of its edge runtime. edge-runtime evaluates scripts, not modules: the file's one
// `export default` becomes a constant that a fetch listener calls, as Vercel's own dev server wires it.
// startVercelOutput serves a whole `.vercel/output` folder: the static files, and the function for /api.php.

import { readFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { EdgeRuntime as Runtime } from "edge-runtime";
import { requireRuntime } from "../runtimes/locate.mjs";
import type { RunningServer } from "./servers.js";

export interface VercelFunction {
  (request: Request): Promise<Response>;
  close(): Promise<void>;
}

const DEFAULT_EXPORT = /^export default /m;
/** esbuild's spelling of a bundle's one default export. */
const NAMED_DEFAULT = /^export\s*\{\s*([A-Za-z_$][\w$]*) as default\s*\};?\s*$/m;

export async function loadVercelFunction(moduleText: string): Promise<VercelFunction> {
  if (
    (moduleText.match(/^\s*(?:export|import)\b/gm) ?? []).length !== 1 ||
    !(DEFAULT_EXPORT.test(moduleText) || NAMED_DEFAULT.test(moduleText))
  ) {
    throw new Error("The Vercel edge function is not one self-contained module with one default export.");
  }
  const body = moduleText
    .replace(DEFAULT_EXPORT, "const __vercelEntry = ")
    .replace(NAMED_DEFAULT, "const __vercelEntry = $1;");
  const script = `${body}
addEventListener("fetch", (event) => { event.respondWith(__vercelEntry(event.request)); });
`;
  const { EdgeRuntime } = requireRuntime("edge-runtime") as { EdgeRuntime: typeof Runtime };
  const runtime = new EdgeRuntime({ initialCode: script });
  const call = async (request: Request): Promise<Response> => {
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
    const res = await runtime.dispatchFetch(request.url, {
      method: request.method,
      headers: Object.fromEntries(request.headers),
      ...(body ? { body } : {}),
    });
    await res.waitUntil();
    // The emulator's Response belongs to its own realm: copy it into this one (a 304, 204 or HEAD answer has no body).
    const bodyless = request.method === "HEAD" || res.status === 304 || res.status === 204;
    return new Response(bodyless ? null : await res.arrayBuffer(), {
      status: res.status,
      headers: Object.fromEntries(res.headers),
    });
  };
  return Object.assign(call, { close: async () => {} });
}

/**
 * The Content-Type of a static file by its extension, as Vercel labels them (its MIME table; text types with
 * charset=utf-8). Written out here, not taken from the build, so that verify's check of the types means something.
 */
const STATIC_TYPES: Readonly<Record<string, string>> = {
  json: "application/json; charset=utf-8",
  png: "image/png",
  svg: "image/svg+xml",
  gif: "image/gif",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  ico: "image/x-icon",
  css: "text/css; charset=utf-8",
  html: "text/html; charset=utf-8",
  txt: "text/plain; charset=utf-8",
  js: "application/javascript; charset=utf-8",
};

/** What the Vercel harness saw: every request it served, by path, with the headers the data reads carried. */
export interface VercelHarnessLog {
  requests: Array<{ path: string; authorization: string | null; cookie: string | null; handler: boolean }>;
}

/**
 * A minimal Vercel edge over a Build Output API folder (`.vercel/output`), as its config.json routes: SVG headers,
 * then the filesystem (`static/`: a type by extension, a folder's index.html), then /api.php and /api.php/… to the
 * edge function (run under edge-runtime).
 * The function is called with the request's Host on this harness (as Vercel calls it with the deployment's host), so
 * its data reads (a fetch from the request's origin) are sub-requests to this server's static files. `requireAuth`
 * answers 401 to any request without that Authorization
 * header, as a protected deploy preview does.
 */
export async function startVercelOutput(
  outputDir: string,
  options: { requireAuth?: string } = {},
): Promise<RunningServer & { log: VercelHarnessLog }> {
  const fn = await loadVercelFunction(await readFile(path.join(outputDir, "functions/api.php.func/index.js"), "utf8"));
  const staticDir = path.join(outputDir, "static");
  const log: VercelHarnessLog = { requests: [] };
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const handler = url.pathname === "/api.php" || url.pathname.startsWith("/api.php/");
      log.requests.push({
        path: url.pathname,
        authorization: req.headers.authorization ?? null,
        cookie: req.headers.cookie ?? null,
        handler,
      });
      if (options.requireAuth !== undefined && req.headers.authorization !== options.requireAuth) {
        res.writeHead(401, { "Content-Type": "text/plain" });
        res.end("Unauthorized\n");
        return;
      }
      let sitePath: string;
      try {
        sitePath = decodeURIComponent(url.pathname);
      } catch {
        sitePath = url.pathname;
      }
      const file = path.join(staticDir, sitePath.endsWith("/") ? `${sitePath}index.html` : sitePath);
      const data = !handler && file.startsWith(staticDir + path.sep) ? await readFile(file).catch(() => null) : null;
      if (data !== null) {
        res.writeHead(200, {
          "Content-Type": STATIC_TYPES[path.extname(file).slice(1).toLowerCase()] ?? "application/octet-stream",
        });
        res.end(req.method === "HEAD" ? undefined : data);
        return;
      }
      if (!handler) {
        res.writeHead(404, { "Content-Type": "text/plain" });
        res.end("Not Found\n");
        return;
      }
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const host = req.headers.host ?? `127.0.0.1:${(server.address() as AddressInfo).port}`;
      const method = req.method === "TRACE" || req.method === "CONNECT" ? "GET" : (req.method ?? "GET");
      // The request's body goes to the function as Vercel sends it (a GET or HEAD has none).
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const sent = method === "GET" || method === "HEAD" || chunks.length === 0 ? undefined : Buffer.concat(chunks);
      const response = await fn(new Request(`http://${host}${req.url ?? "/"}`, { method, headers, body: sent }));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(req.method === "HEAD" ? undefined : Buffer.from(await response.arrayBuffer()));
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" });
      res.end(`harness error: ${String(error)}\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await fn.close();
    },
  };
}
