// test/edge-hosts/handler.ts
// Whether the request-time handler (src/edge) is in this checkout. Tests that build an edge output need it: outside
// CI they skip with one line while it is missing; in CI they run (and fail).

import { existsSync } from "node:fs";
import path from "node:path";
import { REPO } from "../helpers/fixtures.js";
import { mustRunServers } from "../hosts/servers.js";

export const haveHandler = existsSync(path.join(REPO, "src/edge/index.ts"));
export const runEdgeBuilds = haveHandler || mustRunServers;
if (!runEdgeBuilds) console.warn("Edge output builds skipped: src/edge (the request-time handler) is not in this checkout yet.");
