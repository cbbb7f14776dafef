// src/cli.ts
// EDGE: the command line. Maps flags to build() / preview(); one catch turns failures into a message and an exit code.

import { Command, CommanderError, InvalidArgumentError } from "commander";
import { build, buildIfChanged, compile, type BuildOptions } from "./build.js";
import {
  BuildError, ContentError, countNoun, formatDiagnostic, formatError, InterruptedError, UsageError, type Diagnostic,
} from "./errors.js";
import { DEFAULT_HOSTS, HOST_NAMES, parseHosts } from "./hosts/index.js";

const EXIT_CONTENT = 1;
const EXIT_USAGE = 2;
/** 128 + the signal number, as shells report it. */
const EXIT_SIGNAL: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143 };

/** What `--json` prints: one object on stdout, for CI. */
export interface JsonReport {
  ok: boolean;
  errors: Array<Partial<Diagnostic> & { code: string; message: string }>;
  warnings: Diagnostic[];
  counts: { errors: number; warnings: number; answers?: number; rules?: number; files?: number; bytes?: number };
  /** The output was already built from exactly these inputs: nothing was written (warnings are only counted). */
  upToDate?: true;
}

function report(diagnostics: Diagnostic[], counts: Partial<JsonReport["counts"]> = {}): JsonReport {
  const errors = diagnostics.filter((d) => d.severity === "error");
  const warnings = diagnostics.filter((d) => d.severity === "warning");
  return { ok: errors.length === 0, errors, warnings, counts: { errors: errors.length, warnings: warnings.length, ...counts } };
}

/** A failure as a JSON report: content errors with every diagnostic, anything else as one error. */
function failureReport(error: unknown): JsonReport {
  if (error instanceof ContentError) return { ...report(error.diagnostics), ok: false };
  const one = error instanceof BuildError
    ? { severity: "error" as const, code: error.code, ...(error.location ?? {}), message: error.message, ...(error.hint ? { hint: error.hint } : {}) }
    : { severity: "error" as const, code: "INTERNAL", message: error instanceof Error ? error.message : String(error) };
  return { ok: false, errors: [one], warnings: [], counts: { errors: 1, warnings: 0 } };
}

/** Runs `work` with SIGINT/SIGTERM turned into an abort of the signal it gets (instead of killing the process). */
async function interruptible<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const handlers = (["SIGINT", "SIGTERM"] as const).map((sig) => {
    const handler = (): void => controller.abort(new InterruptedError(sig));
    process.on(sig, handler);
    return [sig, handler] as const;
  });
  try {
    const result = await work(controller.signal);
    return result;
  } catch (error) {
    throw controller.signal.aborted ? controller.signal.reason : error;
  } finally {
    for (const [sig, handler] of handlers) process.off(sig, handler);
  }
}

interface CheckFlags {
  content: string;
  baseUrl?: string;
  strict?: boolean;
  json?: boolean;
}

function parsePort(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new InvalidArgumentError("must be a whole number from 0 to 65535.");
  return Number(value);
}

interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
}

const defaultIo: Io = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

function program(io: Io, run: { wait: Promise<void> | null; json: boolean }): Command {
  const cmd = new Command("build-index-site")
    .description("Build the indexer configuration and icon API as a static site: every response precomputed into dist/.")
    .showHelpAfterError("(Use --help for the options.)")
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });

  cmd.command("build", { isDefault: true })
    .description("Validate content/ and write every response, the route table and the host configs to dist/ (the default command).")
    .option("--content <dir>", "content folder", "content")
    .option("--out <dir>", "output folder (replaced atomically)", "dist")
    .option("--base-url <url>", "public https URL of the site, overrides manifest.json base_url")
    .option("--strict", "treat warnings as errors")
    .option("--json", "print one JSON report {ok, errors, warnings, counts} on stdout")
    .option("--hosts <list>", `hosts to write files for, comma-separated: ${HOST_NAMES.join(",")}; default: ${DEFAULT_HOSTS.join(",")}; all`, "default")
    .option("--force", "rebuild even when the output was built from exactly this content and these options")
    .action(async (opts: CheckFlags & { out: string; hosts: string; force?: boolean }) => {
      run.json = opts.json === true;
      const started = performance.now();
      const hosts = parseHosts(opts.hosts);
      const result = await interruptible((signal) => {
        const options: BuildOptions = {
          content: opts.content, out: opts.out, strict: opts.strict === true, write: { signal }, hosts,
          ...(opts.baseUrl !== undefined ? { baseUrl: opts.baseUrl } : {}),
        };
        return opts.force ? build(options) : buildIfChanged(options);
      });
      if (!("model" in result)) {
        const ms = Math.round(performance.now() - started);
        if (run.json) {
          const summary = report([], result.counts);
          io.out(JSON.stringify({ ...summary, counts: { ...summary.counts, warnings: result.warnings }, upToDate: true }, null, 2));
          return;
        }
        io.out(`${opts.out}/ is up to date: content, options and tool unchanged since it was built `
          + `(${countNoun(result.counts.answers, "response")}, ${countNoun(result.warnings, "warning")}; \`check\` lists them). `
          + `Nothing written (${ms} ms); --force rebuilds.`);
        return;
      }
      if (run.json) {
        io.out(JSON.stringify(report(result.diagnostics, result.counts), null, 2));
        return;
      }
      for (const d of result.diagnostics) io.err(formatDiagnostic(d));
      const ms = Math.round(performance.now() - started);
      io.out(`Built ${opts.out}/: ${countNoun(result.counts.answers, "response")}, ${countNoun(result.counts.rules, "route rule")}, `
        + `${countNoun(result.counts.files, "file")} (${result.counts.bytes} bytes) in ${ms} ms.`);
    });

  cmd.command("check")
    .description("Validate the content and compute every response, but write nothing (exit 1 on errors).")
    .option("--content <dir>", "content folder", "content")
    .option("--base-url <url>", "public https URL of the site, overrides manifest.json base_url")
    .option("--strict", "treat warnings as errors")
    .option("--json", "print one JSON report {ok, errors, warnings, counts} on stdout")
    .action(async (opts: CheckFlags) => {
      run.json = opts.json === true;
      const started = performance.now();
      const result = await compile({
        content: opts.content, strict: opts.strict === true, ...(opts.baseUrl !== undefined ? { baseUrl: opts.baseUrl } : {}),
      });
      const counts = { answers: result.routes.files.size, rules: result.routes.table.rules.length, files: result.files.length };
      const summary = report(result.diagnostics, counts);
      if (run.json) {
        io.out(JSON.stringify(summary, null, 2));
        return;
      }
      for (const d of result.diagnostics) io.err(formatDiagnostic(d));
      const ms = Math.round(performance.now() - started);
      io.out(`Checked ${opts.content}/: no errors, ${countNoun(summary.counts.warnings, "warning")}; `
        + `${countNoun(counts.answers, "response")}, ${countNoun(counts.rules, "route rule")}, ${countNoun(counts.files, "file")} would be written (${ms} ms).`);
    });

  cmd.command("preview")
    .description("Serve a built site on http://127.0.0.1:8080 the way a static host with the route table would.")
    .option("--dir <dir>", "built site folder", "dist")
    .option("--port <n>", "port (0 = any free port)", parsePort, 8080)
    .option("--host <addr>", "address to listen on", "127.0.0.1")
    .action(async (opts: { dir: string; port: number; host: string }) => {
      const { startPreview } = await import("./preview/server.js");
      const preview = await startPreview(opts);
      io.out(`Preview: ${preview.url}`);
      run.wait = new Promise<void>((resolve) => preview.server.on("close", () => resolve()));
    });
  return cmd;
}

/** Runs the CLI; resolves to the exit code (a preview resolves when its server closes). */
export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  const run: { wait: Promise<void> | null; json: boolean } = { wait: null, json: false };
  try {
    await program(io, run).parseAsync(argv);
    if (run.wait) await run.wait;
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.exitCode === 0 ? 0 : EXIT_USAGE;
    }
    if (run.json) io.out(JSON.stringify(failureReport(error), null, 2));
    else io.err(formatError(error));
    if (error instanceof UsageError) return EXIT_USAGE;
    if (error instanceof InterruptedError) return EXIT_SIGNAL[error.signal] ?? EXIT_CONTENT;
    if (error instanceof ContentError || error instanceof BuildError) return EXIT_CONTENT;
    return EXIT_CONTENT;
  }
}
