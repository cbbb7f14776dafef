// src/hosts/index.ts
// The host registry: name → adapter, the `--hosts` parser, and rendering the chosen hosts' files.

import { UsageError } from "../errors.js";
import type { RouteTable } from "../routes/route-table.js";
import { apache } from "./apache.js";
import { cloudflare } from "./cloudflare.js";
import { netlify } from "./netlify.js";
import { nginx } from "./nginx.js";
import { HOST_NAMES, type HostAdapter, type HostFile, type HostName } from "./types.js";
import { vercel } from "./vercel.js";

export { HOST_NAMES, type HostAdapter, type HostFile, type HostName } from "./types.js";

export const HOSTS = { netlify, apache, nginx, vercel, cloudflare } as const satisfies Record<HostName, HostAdapter>;

const isHostName = (name: string): name is HostName => (HOST_NAMES as readonly string[]).includes(name);

/** `--hosts netlify,apache` → the names, in registry order, without duplicates; "all" or "" → every host. */
export function parseHosts(list: string): HostName[] {
  const names = list.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (names.length === 0 || (names.length === 1 && names[0] === "all")) return [...HOST_NAMES];
  const unknown = names.filter((n) => !isHostName(n));
  if (unknown.length > 0) {
    throw new UsageError(`Unknown host ${unknown.map((n) => JSON.stringify(n)).join(", ")} in --hosts.`,
      `Choose from ${HOST_NAMES.join(", ")} (comma-separated), or all.`);
  }
  return HOST_NAMES.filter((n) => names.includes(n));
}

/** Every chosen host's files, in registry order. */
export function renderHosts(table: RouteTable, hosts: readonly HostName[] = HOST_NAMES): HostFile[] {
  return HOST_NAMES.filter((n) => hosts.includes(n)).flatMap((n) => HOSTS[n].render(table));
}
