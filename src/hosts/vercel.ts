// src/hosts/vercel.ts
import type { HostAdapter } from "./types.js";
export const vercel: HostAdapter = { name: "vercel", render: () => [] };
