// src/model/time.ts
// Build time: `timestamp` fields and the clamp that makes builds reproducible under SOURCE_DATE_EPOCH.

import { UsageError } from "../errors.js";

/** `YYYY-MM-DD HH:MM:SS` in UTC. */
export function formatTimestamp(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 19).replace("T", " ");
}

/** The build clock: SOURCE_DATE_EPOCH when set (and then the latest modification time allowed), else now. */
export interface BuildClock {
  now: number;
  /** Applies SOURCE_DATE_EPOCH's clamp to a file modification time in milliseconds; returns whole seconds. */
  mtime(mtimeMs: number): number;
}

/** The latest SOURCE_DATE_EPOCH accepted: the end of year 9999, the last time a `timestamp` field can show. */
const MAX_EPOCH = 253402300799;

export function buildClock(sourceDateEpoch: string | undefined, nowMs: number): BuildClock {
  if (sourceDateEpoch === undefined || sourceDateEpoch === "") {
    return { now: Math.floor(nowMs / 1000), mtime: (ms) => Math.floor(ms / 1000) };
  }
  if (!/^\d+$/.test(sourceDateEpoch)) {
    throw new UsageError(
      `SOURCE_DATE_EPOCH must be a whole number of seconds, got "${sourceDateEpoch}".`,
      "Set it to the time of the last commit (SOURCE_DATE_EPOCH=$(git log -1 --format=%ct)), or unset it.",
    );
  }
  const epoch = Number(sourceDateEpoch);
  if (epoch > MAX_EPOCH) {
    throw new UsageError(
      `SOURCE_DATE_EPOCH=${sourceDateEpoch} is out of range: it must be at most ${MAX_EPOCH} (${formatTimestamp(MAX_EPOCH)} UTC).`,
      "Set it to the time of the last commit (SOURCE_DATE_EPOCH=$(git log -1 --format=%ct)), or unset it.",
    );
  }
  return { now: epoch, mtime: (ms) => Math.min(Math.floor(ms / 1000), epoch) };
}
