// src/hosts/netlify-static/preset.ts
// Netlify's fallback for sites without edge functions (`_redirects`, `_headers`): its name, kind and Netlify's
// guidance on redirect counts. Not a default host: redundant beside the edge output, and a large site crosses that
// guidance (a warning) long before its printer refuses a rule of more than 20,000 lines (HostLimitError).

import type { HostPreset } from "../host-preset.js";

export const preset = {
  name: "netlify-static",
  kind: "static",
  default: false,
  limits: [
    {
      measure: "redirect lines",
      free: 10_000,
      paid: 10_000,
      what: "the redirects from which Netlify recommends wildcards or placeholders (a larger _redirects may fail to deploy)",
      source: "https://docs.netlify.com/manage/routing/redirects/overview/",
      read: "2026-11-28",
    },
  ],
} as const satisfies HostPreset;
