// test/helpers/progress-reporter.ts
// A vitest reporter beside the default one: after each test file, how many files have run and how many remain,
// e.g. "[37/137 files, 100 to go]".

import type { Reporter, TestModule, TestSpecification, Vitest } from "vitest/node";

export default class ProgressReporter implements Reporter {
  private vitest: Vitest | undefined;
  private total = 0;
  private done = 0;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.total = specifications.length;
    this.done = 0;
  }

  onTestModuleEnd(_module: TestModule): void {
    this.done += 1;
    const line = `[${this.done}/${this.total} files, ${Math.max(this.total - this.done, 0)} to go]`;
    if (this.vitest) this.vitest.logger.log(line);
    else process.stdout.write(`${line}\n`);
  }
}
