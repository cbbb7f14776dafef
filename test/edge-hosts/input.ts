// test/edge-hosts/input.ts
// Host adapter inputs for tests that render host files without a build.

import type { SiteData } from "../../src/edge/index.js";
import type { HostInput } from "../../src/hosts/index.js";
import type { RouteTable } from "../../src/routes/route-table.js";

/**
 * A stand-in handler bundle in the shape esbuild prints (statements, then the one export): enough to check how an
 * edge adapter composes its files, and runnable (it answers every request with its own data).
 */
export const STAND_IN_BUNDLE = [
  "function createApiHandler(site) {",
  "  return (request) => new Response(JSON.stringify({ site, url: request.url }), { headers: { \"Content-Type\": \"application/json\" } });",
  "}",
  "export {",
  "  createApiHandler",
  "};",
  "",
].join("\n");

/** Input for rendering hosts from a table alone: the edge hosts get the stand-in bundle and a small data object. */
export function tableInput(table: RouteTable): HostInput {
  // The stand-in bundle echoes whatever data it is given: a small object stands for the site's.
  return { table, site: () => ({ standIn: true, entry: table.entry }) as unknown as SiteData, handlerBundle: () => STAND_IN_BUNDLE };
}
