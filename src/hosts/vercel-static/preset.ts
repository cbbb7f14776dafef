// src/hosts/vercel-static/preset.ts
// Vercel's fallback for deployments without functions (`vercel.json`): its name, kind and vercel.json's hard limits
// on rule counts (errors: Vercel refuses the file). Not a default host: redundant beside the edge output.

import type { HostPreset } from "../host-preset.js";

export const preset = {
  name: "vercel-static",
  kind: "static",
  default: false,
  limits: [
    {
      measure: "rewrites",
      free: 2048,
      paid: 2048,
      what: "rewrites in vercel.json (its schema's maxItems: Vercel refuses more)",
      source: "https://github.com/vercel/vercel/blob/main/packages/routing-utils/src/schemas.ts",
      read: "2026-11-28",
      severity: "error",
    },
    {
      measure: "header rules",
      free: 2048,
      paid: 2048,
      what: "header rules in vercel.json (its schema's maxItems: Vercel refuses more)",
      source: "https://github.com/vercel/vercel/blob/main/packages/routing-utils/src/schemas.ts",
      read: "2026-11-28",
      severity: "error",
    },
  ],
} as const satisfies HostPreset;
