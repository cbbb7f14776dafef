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

/** What to do about an operating system error, by its code. */
const OS_HINTS: Record<string, string> = {
  EACCES: "Check the permissions of that path (or choose another folder).",
  EPERM: "Check the permissions of that path (or choose another folder).",
  EROFS: "That file system is read-only: choose a writable folder.",
  ENOSPC: "The disk is full: free some space and build again (the previous output is unchanged).",
  EDQUOT: "The disk quota is exhausted: free some space and build again.",
  EEXIST: "Something is already there: move it away or choose another path.",
  ENAMETOOLONG: "A path is too long for this file system: use a shorter --out or shorter names.",
  EMFILE: "Too many open files: raise the limit (ulimit -n) and try again.",
  ENOENT: "That path does not exist.",
  ENOTDIR: "A part of that path is a file, not a folder.",
  EISDIR: "That path is a folder, not a file.",
  EBUSY: "That path is in use (a mount point or an open file): choose another folder.",
  EADDRNOTAVAIL: "That address is not one of this machine's: use 127.0.0.1, 0.0.0.0 or one of its own addresses.",
};

const isOsError = (error: unknown): error is NodeJS.ErrnoException =>
  error instanceof Error && typeof (error as NodeJS.ErrnoException).code === "string" && typeof (error as NodeJS.ErrnoException).syscall === "string";

/**
 * The text the CLI prints for a failure: one line of reason, then (for content errors) one line per problem. A stack
 * trace only with `debug` (--debug): an operating system error is one line with its path and what to do, anything
 * else is an internal error (a bug) with its message.
 */
export function formatError(error: unknown, options: { debug?: boolean } = {}): string {
  if (error instanceof ContentError) {
    return [error.message, ...error.diagnostics.map(formatDiagnostic)].join("\n");
  }
  if (error instanceof BuildError) {
    const where = error.location === undefined ? "" : `${formatLocation(error.location)}: `;
    const text = error.hint === undefined ? `${where}${error.message}` : `${where}${error.message}\n  ${error.hint}`;
    return options.debug && error.cause instanceof Error && error.cause.stack ? `${text}\n${error.cause.stack}` : text;
  }
  if (options.debug) return error instanceof Error ? error.stack ?? error.message : String(error);
  if (isOsError(error)) {
    const hint = OS_HINTS[error.code!];
    return hint === undefined ? error.message : `${error.message}\n  ${hint}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `Internal error: ${message}\n  This is a bug in build-index-site: run again with --debug for the stack trace, and report it.`;
}
