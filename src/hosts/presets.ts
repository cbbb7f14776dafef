// src/hosts/presets.ts
// Every host folder's preset, in registry order (the order of HOST_NAMES, of `--hosts all` and of the hosts'
// records): one import per folder. Light: the presets import no renderer. test/hosts/host-folders.test.ts checks
// that every folder under src/hosts/ (but shared/) is listed here and in the registry (src/hosts/registry.ts).

import { preset as apache } from "./apache/preset.js";
import { preset as cloudflare } from "./cloudflare/preset.js";
import { preset as netlify } from "./netlify/preset.js";
import { preset as netlifyStatic } from "./netlify-static/preset.js";
import { preset as nginx } from "./nginx/preset.js";
import { preset as vercel } from "./vercel/preset.js";
import { preset as vercelStatic } from "./vercel-static/preset.js";

export const PRESETS = [netlify, netlifyStatic, apache, nginx, vercel, vercelStatic, cloudflare] as const;
