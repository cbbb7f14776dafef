// test/edge/data-reader.ts
// The handler's data files (src/edge/data-files.ts) served from memory, for the in-process tests of the handler
// module (the host harnesses serve them through the host's own path instead: test/hosts/edge-parity.ts). Counts the reads.

import type { DataReader } from "../../src/edge/handler.js";
import { edgeDataFiles, type EdgeDataOptions } from "../../src/edge/data-files.js";
import type { SiteModel } from "../../src/model/types.js";

export function memoryReader(model: SiteModel, options: EdgeDataOptions = {}): DataReader & { reads: string[] } {
  const files = new Map(edgeDataFiles(model, options).map((f) => [`/${f.path}`, f.data]));
  const reads: string[] = [];
  const read = async (path: string): Promise<Response> => {
    reads.push(path);
    const data = files.get(path);
    return data === undefined ? new Response("Not Found", { status: 404 }) : new Response(data);
  };
  return Object.assign(read, { reads });
}
