// src/edge/entries/netlify.ts
// The Netlify edge function (Frameworks API, .netlify/v1/edge-functions): declared for /api.php and /api.php/*
// only, so a data file, fetched from the deploy's own origin, is served by Netlify's static files and never reaches it.
// The data read forwards the request's Authorization and Cookie headers (a password-protected deploy preview).
// esbuild bundles this file into one self-contained ES module (lib/edge/bundles/netlify.js).

import { createApiHandler, originReader, unavailable } from "../handler.js";

const answer = createApiHandler();

export default (request: Request): Promise<Response> => answer(request, originReader(request)).catch(unavailable);
