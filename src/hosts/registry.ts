// src/hosts/registry.ts
// The host registry: each host folder's renderer by its preset's name (one import per folder). The type checker
// holds it to the presets (a name without a renderer, or a renderer without a preset, does not compile);
// test/hosts/host-folders.test.ts holds both to the folders under src/hosts/.

import { apache } from "./apache/render.js";
import { cloudflare } from "./cloudflare/render.js";
import type { HostName } from "./names.js";
import { netlify } from "./netlify/render.js";
import { netlifyStatic } from "./netlify-static/render.js";
import { nginx } from "./nginx/render.js";
import type { HostAdapter } from "./types.js";
import { vercel } from "./vercel/render.js";
import { vercelStatic } from "./vercel-static/render.js";

export const HOSTS = {
  netlify,
  "netlify-static": netlifyStatic,
  apache,
  nginx,
  vercel,
  "vercel-static": vercelStatic,
  cloudflare,
} as const satisfies Record<HostName, HostAdapter>;
