// test/vitest.config.ts
// The suite mirrors src/ (test/<folder> holds the tests of src/<folder>); a file's suffix says what kind of test it
// is, and each kind is a project: `vitest run --project quick` is the inner loop (npm run test:quick). vitest comes
// from the test install (test/node_modules); scripts/run-tool.mjs passes this file as --config; the root is the
// repository's.
//   *.test.ts          quick: in-process, no server, seconds
//   *.slow.test.ts     in-process but long: property tests, whole builds of the real fixtures, many CLI runs
//   *.server.test.ts   starts a real server or runtime (nginx, Apache, php, workerd, Deno, edge-runtime)
//   *.browser.test.ts  drives Chromium
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const KINDS = ["slow", "server", "browser"] as const;
// test/runtimes holds the installed tools' and runtimes' own files (scripts/test-runtimes.mjs), never a test of ours.
const NOT_TESTS = ["**/node_modules/**", "test/runtimes/**"];
const project = (name: string, include: string[], exclude: string[] = []) => ({
  extends: true as const,
  test: { name, include, exclude: [...NOT_TESTS, ...exclude] },
});

export default defineConfig({
  root: fileURLToPath(new URL("..", import.meta.url)),
  test: {
    // One temporary folder for the run, and every server stopped at its end or on Ctrl-C (test/helpers/run-cleanup.ts);
    // one plain line per missing Apache, nginx, runtime or ../shared (test/helpers/needs.ts).
    globalSetup: ["test/helpers/run-cleanup.ts", "test/helpers/report-skips.ts"],
    // Most suites wait on a server or a child process: more workers than this 2-core machine's one default keep both
    // cores busy.
    maxWorkers: 3,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The default output, and after each file how many have run and how many remain.
    reporters: ["default", "./test/helpers/progress-reporter.ts"],
    projects: [
      project(
        "quick",
        ["test/**/*.test.ts"],
        KINDS.map((kind) => `test/**/*.${kind}.test.ts`),
      ),
      ...KINDS.map((kind) => project(kind, [`test/**/*.${kind}.test.ts`])),
    ],
  },
});
