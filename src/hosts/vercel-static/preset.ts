// src/hosts/vercel-static/preset.ts
// Vercel's fallback for deployments without functions (`vercel.json`): its name and kind. Not a default host:
// redundant beside the edge output, and it refuses large sites (its printer's HostLimitError).

import type { HostPreset } from "../host-preset.js";

export const preset = {
  name: "vercel-static",
  kind: "static",
  default: false,
  limits: [],
} as const satisfies HostPreset;
