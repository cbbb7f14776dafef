// src/content/read-scope.ts
// The read options (exclude patterns) of the build that runs in this async context. The CLI and the programmatic API
// run each build inside `withReadOptions`, and readContent falls back to them when called without options; this
// carries `exclude` to the content reader without threading it through the build's orchestrator.

import { AsyncLocalStorage } from "node:async_hooks";
import type { ReadOptions } from "./read-content.js";

const scope = new AsyncLocalStorage<ReadOptions>();

/** Runs `work` (and everything it awaits) with these read options. */
export function withReadOptions<T>(options: ReadOptions, work: () => T): T {
  return scope.run(options, work);
}

/** The read options of the current async context ({} outside withReadOptions: the defaults). */
export function currentReadOptions(): ReadOptions {
  return scope.getStore() ?? {};
}
