// src/edge/cost.ts
// The handler's CPU time for its costliest request, estimated from the data files a build writes (the build cannot
// run the request): what the build holds against the plans' CPU rows (src/hosts/limits.ts). Pure.

import { DATA_FOLDER } from "./data.js";

/**
 * The rates of the estimate, from bench/workerd.mjs (workerd, 2 shared cores, 2026-11-28), rounded to the slow side:
 * a first request's own work beyond the data it parses (code compiled on first use, core.json's answers made), the
 * JSON it parses (core.json, one shard), and a template read, joined and sent in pieces (`--base-url request`: at
 * ×100, icons' 7.5 MB template took 11 to 14 ms of CPU on a fresh isolate, the handler's start included).
 */
export const COST_RATES = { firstRequestMs: 4, parseBytesPerMs: 100_000, rebaseBytesPerMs: 700_000 } as const;

interface DataFile {
  path: string;
  data: string;
}

/**
 * The estimated CPU ms of the costliest request on a fresh isolate: a per-key answer (core.json and the largest
 * shard parsed) or, with `--base-url request`, a whole answer from another origin (core.json parsed, the answer's
 * template read and joined), whichever is more. Undefined when there are no data files (no edge host).
 */
export function estimatedCpuMs(files: readonly DataFile[]): number | undefined {
  const size = new Map(files.map((f) => [f.path, f.data.length]));
  const core = size.get(`${DATA_FOLDER}/core.json`);
  if (core === undefined) return undefined;
  const { firstRequestMs, parseBytesPerMs, rebaseBytesPerMs } = COST_RATES;
  let shard = 0;
  for (const [p, n] of size) if (p.startsWith(`${DATA_FOLDER}/shards/`)) shard = Math.max(shard, n);
  let worst = firstRequestMs + (core + shard) / parseBytesPerMs;
  for (const [p, template] of size) {
    if (!p.endsWith(".template")) continue;
    worst = Math.max(worst, firstRequestMs + core / parseBytesPerMs + template / rebaseBytesPerMs);
  }
  return Math.round(worst * 10) / 10;
}
