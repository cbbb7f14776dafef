// src/hosts/index.ts
// The host registry: name → adapter, the `--hosts` parser, and rendering the chosen hosts' files.

import { UsageError } from "../errors.js";
import { apache } from "./apache.js";
import { cloudflare } from "./cloudflare.js";
import { netlifyStatic } from "./netlify.js";
import { netlify } from "./netlify-edge.js";
import { nginx } from "./nginx.js";
import {
  DEFAULT_HOSTS, HOST_NAMES, type BesideFolder, type HostAdapter, type HostFile, type HostInput, type HostName,
} from "./types.js";
import { vercelStatic } from "./vercel.js";
import { vercel } from "./vercel-edge.js";

export {
  DEFAULT_HOSTS, HOST_NAMES, type BesideFolder, type HostAdapter, type HostFile, type HostInput, type HostName,
  type HostOutput,
} from "./types.js";

export const HOSTS = {
  netlify, "netlify-static": netlifyStatic, apache, nginx, vercel, "vercel-static": vercelStatic, cloudflare,
} as const satisfies Record<HostName, HostAdapter>;

const isHostName = (name: string): name is HostName => (HOST_NAMES as readonly string[]).includes(name);

/**
 * `--hosts netlify,apache` → the names, in registry order, without duplicates; "default" or "" → DEFAULT_HOSTS
 * (every host but the fallbacks); "all" → every host.
 */
export function parseHosts(list: string): HostName[] {
  const names = list.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (names.length === 0 || (names.length === 1 && names[0] === "default")) return [...DEFAULT_HOSTS];
  if (names.length === 1 && names[0] === "all") return [...HOST_NAMES];
  const unknown = names.filter((n) => !isHostName(n));
  if (unknown.length > 0) {
    throw new UsageError(`Unknown host ${unknown.map((n) => JSON.stringify(n)).join(", ")} in --hosts.`,
      `Choose from ${HOST_NAMES.join(", ")} (comma-separated), default (${DEFAULT_HOSTS.join(",")}) or all.`);
  }
  return HOST_NAMES.filter((n) => names.includes(n));
}

/** What the chosen hosts write: files into the output folder, folders beside it. */
export interface RenderedHosts {
  files: HostFile[];
  beside: BesideFolder[];
}

/** Every chosen host's files, in registry order. Two hosts never write the same folder beside --out. */
export function renderHosts(input: HostInput, hosts: readonly HostName[] = DEFAULT_HOSTS): RenderedHosts {
  const out: RenderedHosts = { files: [], beside: [] };
  for (const name of HOST_NAMES.filter((n) => hosts.includes(n))) {
    const { files, beside = [] } = HOSTS[name].render(input);
    out.files.push(...files);
    for (const folder of beside) {
      if (out.beside.some((f) => f.dir === folder.dir)) throw new Error(`Internal: two hosts write ${folder.dir}.`);
      out.beside.push(folder);
    }
  }
  return out;
}

/** The folders beside --out that the chosen hosts write. */
export function besideDirs(hosts: readonly HostName[] = DEFAULT_HOSTS): string[] {
  return HOST_NAMES.filter((n) => hosts.includes(n)).flatMap((n) => HOSTS[n].besideDirs ?? []);
}
