// src/hosts/types.ts
// The contract every host adapter keeps: a pure function from the route table to the text of that host's files.

import type { RouteTable } from "../routes/route-table.js";

export const HOST_NAMES = ["netlify", "apache", "nginx", "vercel", "cloudflare"] as const;
export type HostName = (typeof HOST_NAMES)[number];

/** One file of a host's configuration, relative to the output folder (no leading "/"). */
export interface HostFile {
  path: string;
  data: string;
}

export interface HostAdapter {
  name: HostName;
  /** The files that make this host answer `/api.php?…` as the table says. Never touches the disk. */
  render(table: RouteTable): HostFile[];
}
