// src/hosts/names.ts
// The hosts' names, the default set and the `--hosts` parser: all the CLI needs before a build, without loading the
// renderers. Every list is read off the host folders' presets (src/hosts/presets.ts).

import { UsageError } from "../errors.js";
import { PRESETS } from "./presets.js";

type Preset = (typeof PRESETS)[number];
type EdgePreset = Extract<Preset, { kind: "edge" }>;

/**
 * Every host, in registry order. `netlify` and `vercel` are the edge outputs (the request-time handler as an edge
 * function); `netlify-static` and `vercel-static` are their fallbacks for sites without functions (rewrite configs).
 */
export type HostName = Preset["name"];
export const HOST_NAMES: readonly HostName[] = PRESETS.map((p) => p.name);

/** What `--hosts` writes when it is not given: every host except the fallbacks (they are redundant beside their edge
 * output, and refuse large sites). */
export const DEFAULT_HOSTS: readonly HostName[] = PRESETS.filter((p) => p.default).map((p) => p.name);

const isHostName = (name: string): name is HostName => (HOST_NAMES as readonly string[]).includes(name);

/**
 * `--hosts netlify,apache` → the names, in registry order, without duplicates; "default" or "" → DEFAULT_HOSTS
 * (every host but the fallbacks); "all" → every host.
 */
export function parseHosts(list: string): HostName[] {
  const names = list
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (names.length === 0 || (names.length === 1 && names[0] === "default")) return [...DEFAULT_HOSTS];
  if (names.length === 1 && names[0] === "all") return [...HOST_NAMES];
  const unknown = names.filter((n) => !isHostName(n));
  if (unknown.length > 0) {
    throw new UsageError(
      `Unknown host ${unknown.map((n) => JSON.stringify(n)).join(", ")} in --hosts.`,
      `Choose from ${HOST_NAMES.join(", ")} (comma-separated), default (${DEFAULT_HOSTS.join(",")}) or all.`,
    );
  }
  return HOST_NAMES.filter((n) => names.includes(n));
}

/** A host whose /api.php is the request-time handler: its folder's entry.ts is bundled (lib/edge/bundles/<name>.js). */
export type EdgeHostName = EdgePreset["name"];
/** The hosts whose /api.php is the request-time handler (they read the data files, not the answer files). */
export const EDGE_HOST_NAMES: readonly EdgeHostName[] = PRESETS.filter((p): p is EdgePreset => p.kind === "edge").map(
  (p) => p.name,
);
export const isEdgeHost = (name: string): boolean => (EDGE_HOST_NAMES as readonly string[]).includes(name);
/** Whether a build of these hosts needs the answer files (a static host routes /api.php to them). */
export const needsAnswers = (hosts: readonly string[]): boolean => hosts.some((h) => !isEdgeHost(h));
/** Whether a build of these hosts needs the handler's data files. */
export const needsEdgeData = (hosts: readonly string[]): boolean => hosts.some(isEdgeHost);
