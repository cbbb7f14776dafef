// src/hosts/netlify-static/preset.ts
// Netlify's fallback for sites without edge functions (`_redirects`, `_headers`): its name and kind. Not a default
// host: redundant beside the edge output, and it refuses large sites (its printer's HostLimitError).

import type { HostPreset } from "../host-preset.js";

export const preset = {
  name: "netlify-static",
  kind: "static",
  default: false,
  limits: [],
} as const satisfies HostPreset;
