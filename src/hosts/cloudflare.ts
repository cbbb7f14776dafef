// src/hosts/cloudflare.ts
import type { HostAdapter } from "./types.js";
export const cloudflare: HostAdapter = { name: "cloudflare", render: () => [] };
