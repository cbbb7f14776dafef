// test/cli/run.ts
// Runs the CLI in-process (src/cli.ts main) with captured output: fast enough for the inner loop (npm run test:quick).

import { main, type Io } from "../../src/cli.js";

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

export function captureIo(): Io & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (line) => stdout.push(line), err: (line) => stderr.push(line) };
}

export async function cli(...args: string[]): Promise<Ran> {
  const io = captureIo();
  const code = await main(["node", "build-index-site", ...args], io);
  return { code, stdout: io.stdout.join("\n"), stderr: io.stderr.join("\n") };
}

/** No line of a stack trace ("    at f (file.js:1:2)"). */
export const STACK_LINE = /^\s+at .+:\d+:\d+\)?$/m;
