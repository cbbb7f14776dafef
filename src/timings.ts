// src/timings.ts
// BUILD_INDEX_SITE_TIMINGS=1: a line on stderr per phase, `timing <phase> <ms> rss <MiB> heap <MiB>` (the memory at the
// phase's end), for the benchmark's profile (bench/run.mjs reads these lines). Silent otherwise. The build marks its
// phases (mark: each one's time since the last); the command's start (src/cli/startup/code-cache.ts) prints its own.

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

let lastMark = performance.now();

/** Ends a phase of the build: prints its time since the last mark, when asked for. */
export function mark(phase: string): void {
  if (!TIMINGS) return;
  const now = performance.now();
  printTiming(phase, now - lastMark);
  lastMark = now;
}
