// test/helpers/interrupt/vitest.config.ts
// The suite that test/helpers/run-cleanup.server.test.ts interrupts: the real run's global setup over one file that
// starts servers the way the suites do and then waits.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: path.resolve(here, "../../.."),
  test: {
    include: ["test/helpers/interrupt/servers.fixture.ts"],
    globalSetup: [path.join(here, "../run-cleanup.ts")],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ["default"],
  },
});
