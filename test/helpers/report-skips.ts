// test/helpers/report-skips.ts
// vitest globalSetup: before the tests, one plain line per missing need (Apache, nginx, ../shared) saying what the
// skipped suites need; in CI, one line saying that those suites will fail instead.

import { inCI, installed, MISSING_LINE, NEEDS, quick } from "./needs.js";

/** vitest runs a globalSetup once per project: the lines are printed once per run. */
const REPORTED = Symbol.for("build-index-site.skips-reported");

export default function reportSkips(): void {
  const state = globalThis as { [REPORTED]?: boolean };
  if (state[REPORTED]) return;
  state[REPORTED] = true;
  if (quick) {
    process.stdout.write(
      "Quick run: the suites that need Apache, nginx or ../shared are left out (npm test runs them).\n",
    );
    return;
  }
  for (const need of NEEDS) {
    if (installed(need)) continue;
    const line = inCI
      ? `CI is set, so the suites that need ${need} will fail: ${MISSING_LINE[need].replace(/^Skipping [^:]*: /, "")}`
      : MISSING_LINE[need];
    process.stdout.write(`${line}\n`);
  }
}
