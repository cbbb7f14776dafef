// src/hosts/cloudflare/entry.ts
// The Cloudflare Worker (Workers with static assets): /api.php and /api.php/… are answered by the handler, which
// reads its data files through the ASSETS binding; every other path is handed to the assets (wrangler.json runs the
// worker first only for /api.php, so those reach it only through Pages-like routing or a direct call).
// esbuild bundles this file into one self-contained ES module (lib/edge/bundles/cloudflare.js).

import { createApiHandler, discardBody, isApiPath, unavailable } from "../../edge/handler.js";
import { isInternalPath } from "../../routes/internal-files.js";

interface Env {
  ASSETS: { fetch(request: Request): Promise<Response> };
}

const answer = createApiHandler();

function decodedPath(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

// Named as esbuild names the default export of a file called cloudflare.ts: the bundle's text does not depend on
// this file's name.
const cloudflare_default = {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (isApiPath(url.pathname)) {
      // A data file is an asset: the binding serves it without running this worker again.
      return answer(request, (path) => env.ASSETS.fetch(new Request(new URL(path, url.origin)))).catch(unavailable);
    }
    if (isInternalPath(decodedPath(url.pathname))) {
      await discardBody(request); // as the handler does: an unread body costs workerd the connection
      return new Response("Not Found", { status: 404 });
    }
    return env.ASSETS.fetch(request);
  },
};
export { cloudflare_default as default };
