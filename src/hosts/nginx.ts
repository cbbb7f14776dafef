// src/hosts/nginx.ts
import type { HostAdapter } from "./types.js";
export const nginx: HostAdapter = { name: "nginx", render: () => [] };
