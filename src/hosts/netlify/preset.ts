// src/hosts/netlify/preset.ts
// Netlify's default output, the request-time handler as an edge function: its name, kind and plan limits.

import { MB, type HostPreset } from "../host-preset.js";

export const preset = {
  name: "netlify",
  kind: "edge",
  default: true,
  limits: [
    {
      measure: "handler gzip bytes",
      free: 20 * MB,
      paid: 20 * MB,
      what: "Edge Function code size after compression",
      source: "https://docs.netlify.com/build/edge-functions/limits/",
      read: "2026-11-25",
    },
    {
      measure: "cpu ms",
      free: 50,
      paid: 50,
      what: "Edge Function CPU time per request",
      source: "https://docs.netlify.com/build/edge-functions/limits/",
      read: "2026-11-28",
    },
  ],
} as const satisfies HostPreset;
