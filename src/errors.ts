// src/errors.ts
// Typed errors for user-facing failures (bad content, bad flags) and the one formatter that prints them.

/** Where in a content file a problem sits. `pointer` is a JSON Pointer (RFC 6901); line and column are 1-based. */
export interface Location {
  file: string;
  pointer?: string;
  line?: number;
  column?: number;
}

/** A problem found in the content: errors stop the build, warnings are reported (and fail it under --strict). */
export interface Diagnostic extends Location {
  severity: "error" | "warning";
  code: string;
  message: string;
  hint?: string;
}

/** Base class of every error that is the user's to fix: the CLI prints it without a stack trace. */
export class BuildError extends Error {
  readonly code: string;
  readonly hint: string | undefined;
  readonly location: Location | undefined;

  constructor(code: string, message: string, options: { hint?: string; location?: Location; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.hint = options.hint;
    this.location = options.location;
  }
}

/** The content has defects; `diagnostics` lists every one (errors and warnings). */
export class ContentError extends BuildError {
  readonly diagnostics: Diagnostic[];
  constructor(diagnostics: Diagnostic[]) {
    const errors = diagnostics.filter((d) => d.severity === "error");
    const shown = errors.length > 0 ? errors : diagnostics;
    super("CONTENT_INVALID", `The content has ${countNoun(shown.length, errors.length > 0 ? "error" : "warning")}.`);
    this.diagnostics = diagnostics;
  }
}

/** The build was stopped by a signal (Ctrl-C): nothing was published and the previous output is untouched. */
export class InterruptedError extends BuildError {
  readonly signal: NodeJS.Signals;
  constructor(signal: NodeJS.Signals) {
    super("INTERRUPTED", `Stopped by ${signal}: nothing was written and the previous output folder is unchanged.`);
    this.signal = signal;
  }
}

/** A flag or argument is wrong (exit code 2). */
export class UsageError extends BuildError {
  constructor(message: string, hint?: string) {
    super("USAGE", message, hint === undefined ? {} : { hint });
  }
}

export function countNoun(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** `content/icons.json:12:5 #/php` */
export function formatLocation(loc: Location): string {
  let out = loc.file;
  if (loc.line !== undefined) out += `:${loc.line}:${loc.column ?? 1}`;
  if (loc.pointer !== undefined) out += ` #${loc.pointer}`;
  return out;
}

export function formatDiagnostic(d: Diagnostic): string {
  const text = `${formatLocation(d)}: ${d.severity}: ${d.message} [${d.code}]`;
  return d.hint === undefined ? text : `${text}\n  ${d.hint}`;
}

/** The text the CLI prints for a failure: one line of reason, then (for content errors) one line per problem. */
export function formatError(error: unknown): string {
  if (error instanceof ContentError) {
    return [error.message, ...error.diagnostics.map(formatDiagnostic)].join("\n");
  }
  if (error instanceof BuildError) {
    const where = error.location === undefined ? "" : `${formatLocation(error.location)}: `;
    return error.hint === undefined ? `${where}${error.message}` : `${where}${error.message}\n  ${error.hint}`;
  }
  if (error instanceof Error) return error.stack ?? error.message;
  return String(error);
}
