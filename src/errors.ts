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

/**
 * A host's static config cannot express what the content needs (too many `_redirects` lines, too many Vercel
 * rewrites). Thrown by a host printer; compile() turns it into a content error (code HOST_LIMIT).
 */
export class HostLimitError extends BuildError {
  readonly host: string;
  constructor(host: string, message: string, hint?: string) {
    super("HOST_LIMIT", message, hint === undefined ? {} : { hint });
    this.host = host;
  }
}

/** A flag or argument is wrong (exit code 2). */
export class UsageError extends BuildError {
  constructor(message: string, hint?: string, location?: Location) {
    super("USAGE", message, {
      ...(hint === undefined ? {} : { hint }),
      ...(location === undefined ? {} : { location }),
    });
  }
}

/**
 * The config file has mistakes: `diagnostics` lists every one, each with its place in the file (exit 2, like a wrong
 * flag: the command did not start).
 */
export class ConfigError extends UsageError {
  readonly diagnostics: Diagnostic[];
  /** The config file, as messages name it. */
  readonly file: string;
  constructor(file: string, diagnostics: Diagnostic[]) {
    super(`The config file ${file} has ${countNoun(diagnostics.length, "error")}.`);
    this.diagnostics = diagnostics;
    this.file = file;
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

const isOsError = (error: unknown): error is NodeJS.ErrnoException =>
  error instanceof Error &&
  typeof (error as NodeJS.ErrnoException).code === "string" &&
  typeof (error as NodeJS.ErrnoException).syscall === "string";

/**
 * The text the CLI prints for a failure: one line of reason, then (for content errors) one line per problem. A stack
 * trace only with `debug` (--debug): an operating system error is one line with its path and what to do, anything
 * else is an internal error (a bug) with its message.
 */
export function formatError(error: unknown, options: { debug?: boolean } = {}): string {
  if (error instanceof ContentError || error instanceof ConfigError) {
    return [error.message, ...error.diagnostics.map(formatDiagnostic)].join("\n");
  }
  if (error instanceof BuildError) {
    const where = error.location === undefined ? "" : `${formatLocation(error.location)}: `;
    const text = error.hint === undefined ? `${where}${error.message}` : `${where}${error.message}\n  ${error.hint}`;
    return options.debug && error.cause instanceof Error && error.cause.stack ? `${text}\n${error.cause.stack}` : text;
  }
  if (options.debug) return error instanceof Error ? (error.stack ?? error.message) : String(error);
  if (isOsError(error)) {
    const hint = OS_HINTS[error.code!]?.hint;
    return hint === undefined ? error.message : `${error.message}\n  ${hint}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `Internal error: ${message}\n  This is a bug in build-index-site: run again with --debug for the stack trace, and report it.`;
}

/** What to do about an operating-system error while writing the output, by its code. */
const OS_HINTS: Record<string, { reason: string; hint: string }> = {
  EACCES: {
    reason: "permission denied",
    hint: "Make that folder writable for this user (owner and permissions), or choose another --out.",
  },
  EPERM: {
    reason: "operation not permitted",
    hint: "Make that folder writable for this user (owner, permissions, immutable flags), or choose another --out.",
  },
  EROFS: {
    reason: "the file system is read-only",
    hint: "Choose an --out on a writable disk (e.g. under /tmp), or remount it read-write.",
  },
  ENOSPC: {
    reason: "no space left on the device",
    hint: "Free space on that disk (the build writes a full new copy beside the old one before it swaps them) or choose an --out on another disk.",
  },
  EDQUOT: {
    reason: "disk quota exceeded",
    hint: "Free space within your quota (the build writes a full new copy beside the old one) or choose an --out on another disk.",
  },
  EEXIST: {
    reason: "it already exists",
    hint: "Another program wrote there while the build ran: make sure nothing else writes beside --out, then run the build again.",
  },
  ENAMETOOLONG: {
    reason: "the name or path is too long for the file system",
    hint: "Choose a shorter --out path, or shorten the content's longest file names and keys.",
  },
  ENOTDIR: {
    reason: "a part of the path is a file, not a folder",
    hint: "Check the --out path: one of its parents is a file.",
  },
  EISDIR: { reason: "it is a folder", hint: "Check the --out path and the content's file names." },
  EMFILE: {
    reason: "too many open files",
    hint: "Raise the limit (ulimit -n) or close other programs, then run the build again.",
  },
  ENFILE: { reason: "too many open files in the system", hint: "Close other programs, then run the build again." },
  EIO: {
    reason: "an input/output error",
    hint: "The disk reported an error: check it (dmesg) or choose an --out on another disk.",
  },
  EBUSY: {
    reason: "the resource is busy (a mount point?)",
    hint: "Point --out at a folder that is not a mount point, e.g. a folder inside it.",
  },
  EXDEV: {
    reason: "it is on another file system (a mount point?)",
    hint: "Point --out at a folder that is not a mount point, e.g. a folder inside it.",
  },
  ENOENT: {
    reason: "it disappeared while the build ran",
    hint: "Something else deleted files beside --out during the build: run it again.",
  },
  EADDRNOTAVAIL: {
    reason: "the address is not this machine's",
    hint: "Use 127.0.0.1, 0.0.0.0 or one of this machine's own addresses.",
  },
};

/**
 * An operating-system error (a Node `ErrnoException`, or any error with an `E…` code) as a BuildError that names the
 * path as the user knows it and what to do; its code is the OS code (ENOSPC, …). `shown` maps the error's path
 * (e.g. inside the build's temporary folder) to that name. Other errors are returned as they are.
 */
export function fromOsError(error: unknown, shown: (p: string) => string = (p) => p, verb = "write"): unknown {
  if (error instanceof BuildError || !(error instanceof Error)) return error;
  const e = error as NodeJS.ErrnoException & { dest?: unknown };
  if (typeof e.code !== "string" || !/^E[A-Z0-9]+$/.test(e.code)) return error;
  const known = OS_HINTS[e.code];
  const reason = known?.reason ?? e.message.replace(/^[A-Z0-9]+: /, "").replace(/,.*$/, "");
  const action = e.syscall === undefined ? "" : ` (${e.syscall})`;
  const where =
    typeof e.path === "string"
      ? `${shown(e.path)}${typeof e.dest === "string" ? ` → ${shown(e.dest)}` : ""}`
      : "the output";
  return new BuildError(e.code, `Could not ${verb} ${where}${action}: ${reason} [${e.code}].`, {
    hint: known?.hint ?? "Fix the cause above and run the build again; the previous output is unchanged.",
    cause: error,
  });
}
