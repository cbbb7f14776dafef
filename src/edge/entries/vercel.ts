// src/edge/entries/vercel.ts
// The Vercel edge function (Build Output API, functions/api.php.func): config.json routes only /api.php and
// /api.php/… to it, after the filesystem, so a data file, fetched from the deploy's own origin, is a static file.
// The data read forwards the request's Authorization and Cookie headers (a password-protected deploy preview).
// esbuild bundles this file into one self-contained ES module (lib/edge/bundles/vercel.js).

import { createApiHandler, originReader, unavailable } from "../handler.js";

const answer = createApiHandler();

export default (request: Request): Promise<Response> => answer(request, originReader(request)).catch(unavailable);
