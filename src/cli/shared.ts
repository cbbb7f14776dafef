// src/cli/shared.ts
// What the commands share: exit codes, the run state main() reads, the --json report, Ctrl-C handling, and the
// definitions of the flags several commands declare (each command adds only the ones it takes).

import { Option } from "commander";
import { BuildError, ConfigError, ContentError, InterruptedError, type Diagnostic } from "../errors.js";
import { DEFAULT_HOSTS, HOST_NAMES } from "../hosts/names.js";
import { CONFIG_FILE } from "./config.js";
import { parsePort } from "./options.js";
import { PLANS } from "../hosts/limits.js";

export const EXIT_CONTENT = 1;
export const EXIT_USAGE = 2;
/** 128 + the signal number, as shells report it. */
export const EXIT_SIGNAL: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143 };

/** What a command leaves for main(): a server to wait for (preview, dev), and whether failures print as JSON. */
export interface Run {
  wait: Promise<number> | null;
  json: boolean;
  /** The config file the command used (for the --json report of a failure). */
  config?: string | null;
}

/** What `--json` prints: one object on stdout, for CI. */
export interface JsonReport {
  ok: boolean;
  /** The config file used (relative to the current folder), or null when there was none. */
  config?: string | null;
  errors: Array<Partial<Diagnostic> & { code: string; message: string }>;
  warnings: Diagnostic[];
  counts: { errors: number; warnings: number; answers?: number; rules?: number; files?: number; bytes?: number };
  /** The output was already built from exactly these inputs: nothing was written (warnings are only counted). */
  upToDate?: true;
}

export function report(
  diagnostics: Diagnostic[],
  counts: Partial<JsonReport["counts"]> = {},
  config?: string | null,
): JsonReport {
  const errors = diagnostics.filter((d) => d.severity === "error");
  const warnings = diagnostics.filter((d) => d.severity === "warning");
  return {
    ok: errors.length === 0,
    ...(config === undefined ? {} : { config }),
    errors,
    warnings,
    counts: { errors: errors.length, warnings: warnings.length, ...counts },
  };
}

/** A failure as a JSON report: content errors with every diagnostic, anything else as one error. */
export function failureReport(error: unknown, config?: string | null): JsonReport {
  const known = config === undefined ? {} : { config };
  if (error instanceof ContentError || error instanceof ConfigError)
    return { ...report(error.diagnostics, {}, config), ok: false };
  const one =
    error instanceof BuildError
      ? {
          severity: "error" as const,
          code: error.code,
          ...error.location,
          message: error.message,
          ...(error.hint ? { hint: error.hint } : {}),
        }
      : {
          severity: "error" as const,
          code: "INTERNAL",
          message: error instanceof Error ? error.message : String(error),
        };
  return { ok: false, ...known, errors: [one], warnings: [], counts: { errors: 1, warnings: 0 } };
}

/** Runs `work` with SIGINT/SIGTERM turned into an abort of the signal it gets (instead of killing the process). */
export async function interruptible<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const handlers = (["SIGINT", "SIGTERM"] as const).map((sig) => {
    const handler = (): void => controller.abort(new InterruptedError(sig));
    process.on(sig, handler);
    return [sig, handler] as const;
  });
  try {
    return await work(controller.signal);
  } catch (error) {
    throw controller.signal.aborted ? controller.signal.reason : error;
  } finally {
    for (const [sig, handler] of handlers) process.off(sig, handler);
  }
}

/**
 * The flags several commands declare. Every default is shown one way, "(default: x)" at the end of the text, never
 * by commander (which quotes strings): the config file may set them instead.
 */
export const flag = {
  config: () =>
    new Option(
      "--config <file>",
      `config file (default: the nearest ${CONFIG_FILE}, or package.json's "build-index-site" key)`,
    ),
  content: () => new Option("--content <dir>", "content folder (default: content)"),
  out: (what = "output folder: the public site") => new Option("--out <dir>", `${what} (default: dist)`),
  baseUrl: () =>
    new Option(
      "--base-url <url>",
      "public https URL of the site, overrides manifest.json base_url; from-env: the deploy's own URL (Netlify, Vercel, Cloudflare Pages); request: as from-env, and the edge hosts answer with each request's origin",
    ),
  hosts: () =>
    new Option(
      "--hosts <list>",
      `host outputs, comma-separated: ${HOST_NAMES.join(",")}; all, or default (default: ${DEFAULT_HOSTS.join(",")})`,
    ),
  strict: () => new Option("--strict", "treat warnings as errors"),
  plan: () =>
    new Option("--plan <plan>", "the hosts' plan whose limits the build checks (default: free)").choices(PLANS),
  noCatalogue: () =>
    new Option("--no-catalogue", "leave out the icon catalogue (the site's root page, index.html and catalogue/)"),
  json: () => new Option("--json", "print one JSON report {ok, config, errors, warnings, counts} on stdout"),
  verbose: () => new Option("--verbose", "print every warning (by default, more than 10 are summarised by code)"),
  port: () => new Option("--port <n>", "port, 0 = any free port (default: 8080)").argParser(parsePort),
  host: () => new Option("--host <addr>", "address to listen on (default: 127.0.0.1)"),
};
