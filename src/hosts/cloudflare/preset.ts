// src/hosts/cloudflare/preset.ts
// Cloudflare Workers with static assets, the request-time handler as the Worker: its name, kind and plan limits.

import { MB, MiB, type HostPreset } from "../host-preset.js";

export const preset = {
  name: "cloudflare",
  kind: "edge",
  default: true,
  limits: [
    {
      measure: "files",
      free: 20_000,
      paid: 100_000,
      what: "static asset files per Worker version",
      source: "https://developers.cloudflare.com/workers/static-assets/#limits",
      read: "2026-11-25",
    },
    {
      measure: "file bytes",
      free: 25 * MiB,
      paid: 25 * MiB,
      what: "size of one static asset file",
      source: "https://developers.cloudflare.com/workers/static-assets/#limits",
      read: "2026-11-25",
    },
    {
      measure: "handler gzip bytes",
      free: 3 * MB,
      paid: 10 * MB,
      what: "Worker size after compression",
      source: "https://developers.cloudflare.com/workers/platform/limits/#worker-size",
      read: "2026-11-25",
    },
    {
      measure: "handler bytes",
      free: 64 * MB,
      paid: 64 * MB,
      what: "Worker size before compression",
      source: "https://developers.cloudflare.com/workers/platform/limits/#worker-size",
      read: "2026-11-25",
    },
    {
      measure: "cpu ms",
      free: 10,
      paid: 30_000,
      what: "CPU time per request (Paid: 30 s by default, up to 5 min with limits.cpu_ms)",
      source: "https://developers.cloudflare.com/workers/platform/limits/#cpu-time",
      read: "2026-11-28",
    },
    {
      measure: "startup ms",
      free: 1000,
      paid: 1000,
      what: "Worker start-up time (parsing and running its global scope)",
      source: "https://developers.cloudflare.com/workers/platform/limits/#worker-startup-time",
      read: "2026-11-28",
    },
  ],
} as const satisfies HostPreset;
