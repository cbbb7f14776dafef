// vitest.config.ts
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // One plain line per missing Apache, nginx or ../shared (test/helpers/needs.ts).
    globalSetup: ["test/helpers/report-skips.ts"],
    // Most suites wait on a server or a child process (nginx, Apache, php, workerd, Deno, chromium, the CLI): more
    // workers than this 2-core machine's one default keep both cores busy.
    maxWorkers: 3,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ["default"],
  },
});
