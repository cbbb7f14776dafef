// vitest.config.ts
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // One plain line per missing Apache, nginx or ../shared (test/helpers/needs.ts).
    globalSetup: ["test/helpers/report-skips.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ["default"],
  },
});
