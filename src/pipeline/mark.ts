// src/pipeline/mark.ts
// Each phase's time since the last, printed when asked for (src/timings.ts: BUILD_INDEX_SITE_TIMINGS=1).

import { printTiming, TIMINGS } from "../timings.js";

let lastMark = performance.now();

export function mark(phase: string): void {
  if (!TIMINGS) return;
  const now = performance.now();
  printTiming(phase, now - lastMark);
  lastMark = now;
}
