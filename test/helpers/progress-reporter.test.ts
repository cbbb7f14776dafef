// test/helpers/progress-reporter.test.ts
// The progress reporter counts the files of the run and says after each how many have run and how many remain.

import { describe, expect, test } from "vitest";
import type { TestModule, TestSpecification, Vitest } from "vitest/node";
import ProgressReporter from "./progress-reporter.js";

describe("the progress reporter", () => {
  test("prints one line per finished file, counting down to none left", () => {
    const lines: string[] = [];
    const reporter = new ProgressReporter();
    reporter.onInit({ logger: { log: (line: string) => lines.push(line) } } as unknown as Vitest);
    reporter.onTestRunStart([{}, {}, {}] as unknown as TestSpecification[]);
    for (let i = 0; i < 3; i++) reporter.onTestModuleEnd({} as TestModule);
    expect(lines).toEqual(["[1/3 files, 2 to go]", "[2/3 files, 1 to go]", "[3/3 files, 0 to go]"]);
  });

  test("starts again from zero on the next run (watch mode)", () => {
    const lines: string[] = [];
    const reporter = new ProgressReporter();
    reporter.onInit({ logger: { log: (line: string) => lines.push(line) } } as unknown as Vitest);
    reporter.onTestRunStart([{}, {}] as unknown as TestSpecification[]);
    reporter.onTestModuleEnd({} as TestModule);
    reporter.onTestRunStart([{}] as unknown as TestSpecification[]);
    reporter.onTestModuleEnd({} as TestModule);
    expect(lines).toEqual(["[1/2 files, 1 to go]", "[1/1 files, 0 to go]"]);
  });
});
