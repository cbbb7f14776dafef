// src/preview/own-fetch.ts
// How the preview knows the edge handler's own data reads (its ASSETS fetches to the preview itself, src/preview/edge.ts)
// from a client's requests: they carry a header with a token made once per process, which no client knows. The
// request log of `preview` and `dev` leaves them out (src/cli/watch.ts).

import { randomUUID } from "node:crypto";
import type http from "node:http";

export const OWN_FETCH_HEADER = "x-build-index-site-own-fetch";
export const OWN_FETCH_TOKEN = randomUUID();

/** Whether a request is the handler's own read of its data. */
export const isOwnFetch = (req: http.IncomingMessage): boolean => req.headers[OWN_FETCH_HEADER] === OWN_FETCH_TOKEN;
