// src/cli/failure.ts
// How a failure is printed on stderr: content errors with every problem (warnings summarised by code unless
// verbose), anything else as one reason and a hint (a stack trace only with --debug).

import { ConfigError, ContentError, formatError } from "../errors.js";
import { diagnosticLines, type Io } from "./output.js";

export function printFailure(io: Io, error: unknown, options: { debug: boolean; verbose: boolean }): void {
  if (error instanceof ContentError || error instanceof ConfigError) {
    io.err(error.message);
    for (const line of diagnosticLines(io, error.diagnostics, options.verbose)) io.err(line);
    return;
  }
  io.err(formatError(error, { debug: options.debug }));
}
