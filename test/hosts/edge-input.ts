// test/hosts/edge-input.ts
// Host adapter inputs for tests that render host files without a build.

import type { HostInput } from "../../src/hosts/index.js";
import type { RouteTable } from "../../src/routes/route-table.js";

/**
 * A stand-in entry in the shape of a host's bundled entry (one module, one default export): enough to check how an
 * edge adapter places its files, and runnable (it answers every request with its URL).
 */
export const STAND_IN_ENTRY = [
  'export default (request) => new Response(JSON.stringify({ standIn: true, url: request.url }), { headers: { "Content-Type": "application/json" } });',
  "",
].join("\n");

/** Input for rendering hosts from a table alone: the edge hosts get the stand-in entry. */
export function tableInput(table: RouteTable): HostInput {
  return { table, service: "Stand-in API", out: "dist", entry: () => STAND_IN_ENTRY };
}
