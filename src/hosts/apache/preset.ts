// src/hosts/apache/preset.ts
// Apache (one `.htaccess`): its name and kind. A server of your own publishes no per-deploy limits.

import type { HostPreset } from "../host-preset.js";

export const preset = {
  name: "apache",
  kind: "static",
  default: true,
  limits: [],
} as const satisfies HostPreset;
