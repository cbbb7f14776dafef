// src/hosts/nginx/preset.ts
// nginx (two snippets to include): its name and kind. A server of your own publishes no per-deploy limits.

import type { HostPreset } from "../host-preset.js";

export const preset = {
  name: "nginx",
  kind: "static",
  default: true,
  limits: [],
} as const satisfies HostPreset;
