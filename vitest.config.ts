// vitest.config.ts
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The longest suites start first, so that they overlap with the many short ones instead of running alone at the end
 * (without a timing cache, as in CI's fresh clone, vitest runs the largest files first, and these are small files).
 */
const LONGEST_FIRST = ["incremental-property", "host-fuzz", "parity-indexer", "edge-parity", "wrangler"];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification): number => {
      const i = LONGEST_FIRST.findIndex((name) => f.moduleId.includes(name));
      return i === -1 ? LONGEST_FIRST.length : i;
    };
    return [...await super.sort(files)].sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // One plain line per missing Apache, nginx or ../shared (test/helpers/needs.ts).
    globalSetup: ["test/helpers/report-skips.ts"],
    // Most suites wait on a server or a child process (nginx, Apache, php, workerd, Deno, chromium, the CLI): more
    // workers than this 2-core machine's one default keep both cores busy.
    maxWorkers: 3,
    sequence: { sequencer: LongestFirst },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ["default"],
  },
});
