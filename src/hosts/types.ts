// src/hosts/types.ts
// The contract every host adapter keeps: a pure function from the route table (static hosts) or the request-time
// handler and its data (edge hosts) to the text of that host's files.

import type { SiteData } from "../edge/index.js";
import type { RouteTable } from "../routes/route-table.js";

/**
 * Every host, in registry order. `netlify` and `vercel` are the edge outputs (the request-time handler as an edge
 * function); `netlify-static` and `vercel-static` are their fallbacks for sites without functions (rewrite configs).
 */
export const HOST_NAMES = ["netlify", "netlify-static", "apache", "nginx", "vercel", "vercel-static", "cloudflare"] as const;
export type HostName = (typeof HOST_NAMES)[number];

/** What `--hosts` writes when it is not given: every host except the fallbacks (they are redundant beside their edge
 * output, and refuse large sites). */
export const DEFAULT_HOSTS: readonly HostName[] = ["netlify", "apache", "nginx", "vercel", "cloudflare"];

/** One file of a host's configuration, relative to its folder (no leading "/"). */
export interface HostFile {
  path: string;
  data: string;
}

/**
 * A folder the build writes BESIDE the output folder (in the folder that holds --out: Netlify's base directory when
 * --out is dist), replaced atomically as the output folder is, with a `.build-manifest` of its own.
 */
export interface BesideFolder {
  /** "/"-separated, relative to the folder that holds --out: ".netlify/v1". */
  dir: string;
  files: HostFile[];
  /** Also link the output folder's public files into this sub-folder ("static"): the plain files, never the answer
   * files (the host's function answers /api.php) nor the internal files. */
  siteCopy?: string;
}

/** What an adapter renders from. Each field is computed only when an adapter asks for it. */
export interface HostInput {
  table: RouteTable;
  /**
   * The data the request-time handler answers from (src/edge `toSiteData(model)`: JSON-able, deterministic, nothing
   * the site does not already publish).
   */
  site: () => SiteData;
  /** The handler: one self-contained ES module (no imports) exporting `createApiHandler(site)`. */
  handlerBundle: () => string;
}

export interface HostOutput {
  /** Files inside the output folder. */
  files: HostFile[];
  /** Folders beside the output folder. */
  beside?: BesideFolder[];
}

export interface HostAdapter {
  name: HostName;
  /** The folders beside --out this host writes (known without rendering: the up-to-date check looks at them). */
  besideDirs?: readonly string[];
  /** The files that make this host answer `/api.php?…` as the reference does. Never touches the disk. */
  render(input: HostInput): HostOutput;
}
