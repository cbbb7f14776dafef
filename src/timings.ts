// src/timings.ts
// BUILD_INDEX_SITE_TIMINGS=1: a line on stderr per phase, `timing <phase> <ms> rss <MiB> heap <MiB>` (the memory at the
// phase's end), for the benchmark's profile (bench/run.mjs reads these lines). Silent otherwise. The build's phases
// (src/pipeline/mark.ts) and the command's start (src/cli/startup/code-cache.ts) print them.

/** Whether the timing lines are asked for. */
export const TIMINGS = process.env.BUILD_INDEX_SITE_TIMINGS === "1";

/** Prints one phase's line, when asked for. */
export function printTiming(phase: string, ms: number): void {
  if (!TIMINGS) return;
  const { rss, heapUsed } = process.memoryUsage();
  process.stderr.write(
    `timing ${phase} ${ms.toFixed(1)} rss ${Math.round(rss / 2 ** 20)} heap ${Math.round(heapUsed / 2 ** 20)}\n`,
  );
}
