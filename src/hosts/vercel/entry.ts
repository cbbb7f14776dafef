// src/hosts/vercel/entry.ts
// The Vercel edge function (Build Output API, functions/api.php.func): config.json routes only /api.php and
// /api.php/… to it, after the filesystem, so a data file, fetched from the deploy's own origin, is a static file.
// The data read forwards the request's Authorization and Cookie headers (a password-protected deploy preview).
// esbuild bundles this file into one self-contained ES module (lib/edge/bundles/vercel.js).

import { createApiHandler, originReader, unavailable } from "../../edge/handler.js";

const answer = createApiHandler();

// Named as esbuild names the default export of a file called vercel.ts: the bundle's text does not depend on this
// file's name.
const vercel_default = (request: Request): Promise<Response> =>
  answer(request, originReader(request)).catch(unavailable);
export { vercel_default as default };
