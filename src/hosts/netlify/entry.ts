// src/hosts/netlify/entry.ts
// The Netlify edge function (Frameworks API, .netlify/v1/edge-functions): declared for /api.php and /api.php/*
// only, so a data file, fetched from the deploy's own origin, is served by Netlify's static files and never reaches it.
// The data read forwards the request's Authorization and Cookie headers (a password-protected deploy preview).
// esbuild bundles this file into one self-contained ES module (lib/edge/bundles/netlify.js).

import { createApiHandler, originReader, unavailable } from "../../edge/handler.js";

const answer = createApiHandler();

// Named as esbuild names the default export of a file called netlify.ts: the bundle's text does not depend on this
// file's name.
const netlify_default = (request: Request): Promise<Response> =>
  answer(request, originReader(request)).catch(unavailable);
export { netlify_default as default };
