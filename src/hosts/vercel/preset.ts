// src/hosts/vercel/preset.ts
// Vercel's default output, the Build Output API with the request-time handler as an edge function: its name, kind
// and plan limits.

import { MB, type HostPreset } from "../host-preset.js";

export const preset = {
  name: "vercel",
  kind: "edge",
  default: true,
  limits: [
    {
      measure: "handler gzip bytes",
      free: 1 * MB,
      paid: 2 * MB,
      what: "Edge Function size after gzip (Hobby, Pro)",
      source: "https://vercel.com/docs/functions/limitations",
      read: "2026-11-25",
    },
    {
      measure: "response start ms",
      free: 25_000,
      paid: 25_000,
      what: "time an Edge Function has to begin its response (Vercel publishes no CPU limit for it)",
      source: "https://vercel.com/docs/functions/limitations",
      read: "2026-11-28",
    },
  ],
} as const satisfies HostPreset;
