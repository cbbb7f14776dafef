// src/cli.ts
// EDGE: the command line. Maps flags to build() / compile() / preview; one catch turns failures into a message and an
// exit code (0 ok, 1 content or build errors, 2 usage, 130/143 stopped by a signal).

import { readFileSync } from "node:fs";
import path from "node:path";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { build, buildIfChanged, compile, filesToWrite, type BuildOptions } from "./build.js";
import { debounced, logRequests, watchTree } from "./cli/dev.js";
import { init } from "./cli/init.js";
import {
  colorErr, colorOut, diagnosticLines, humanBytes, humanMs, processIo, startProgress, type Io,
} from "./cli/output.js";
import { didYouMean } from "./cli/suggest.js";
import { registerVerify } from "./cli/verify.js";
import { isBuild } from "./layout/read-build.js";
import {
  BuildError, ContentError, countNoun, formatError, InterruptedError, UsageError, type Diagnostic,
} from "./errors.js";
import { DEFAULT_HOSTS, HOST_NAMES, parseHosts, type HostName } from "./hosts/names.js";

export type { Io } from "./cli/output.js";

const EXIT_CONTENT = 1;
const EXIT_USAGE = 2;
/** 128 + the signal number, as shells report it. */
const EXIT_SIGNAL: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143 };

const COMMANDS = ["build", "check", "preview", "dev", "init", "verify", "help"] as const;

/** The package's version (package.json sits one folder above both src/ and lib/). */
export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
  return pkg.version;
}

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

function parsePort(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new InvalidArgumentError("must be a whole number from 0 to 65535.");
  return Number(value);
}

/** `--hosts` → host names: a typo gets "did you mean", an empty list is an error (leave the flag out for all hosts). */
export function hostsFlag(list: string | undefined): HostName[] | undefined {
  if (list === undefined) return undefined;
  const names = list.split(",").map((s) => s.trim());
  if (names.every((n) => n === "")) {
    throw new UsageError("--hosts is empty: name at least one host.", `Choose from ${HOST_NAMES.join(", ")} (comma-separated), default or all; leave the flag out for the default.`);
  }
  for (const name of names) {
    if (name === "" || name === "all" || name === "default" || (HOST_NAMES as readonly string[]).includes(name)) continue;
    throw new UsageError(`Unknown host '${name}' in --hosts${didYouMean(name, [...HOST_NAMES, "all", "default"])}.`,
      `Choose from ${HOST_NAMES.join(", ")} (comma-separated), default or all.`);
  }
  return parseHosts(list);
}

interface CommonFlags {
  content: string;
  baseUrl?: string;
  strict?: boolean;
  json?: boolean;
  hosts?: string;
  quiet?: boolean;
  verbose?: boolean;
}

interface Run {
  wait: Promise<number> | null;
  json: boolean;
}

const hostsOption = (): Option =>
  new Option("--hosts <list>", `host outputs, comma-separated: ${HOST_NAMES.join(",")}; default: ${DEFAULT_HOSTS.join(",")}; all`);

function buildOptionsFrom(opts: CommonFlags & { out: string; replaceOut?: boolean }, signal?: AbortSignal): BuildOptions {
  const hosts = hostsFlag(opts.hosts);
  return {
    content: opts.content, out: opts.out, strict: opts.strict === true, replaceOut: opts.replaceOut === true,
    ...(signal ? { write: { signal } } : {}),
    ...(hosts !== undefined ? { hosts } : {}),
    ...(opts.baseUrl !== undefined ? { baseUrl: opts.baseUrl } : {}),
  };
}

/** Runs one build for the CLI (build and dev): progress on a terminal, then diagnostics and a summary line. */
async function runBuild(io: Io, opts: CommonFlags & { out: string; force?: boolean; replaceOut?: boolean }, signal: AbortSignal | undefined, json: boolean): Promise<void> {
  const started = performance.now();
  const options = buildOptionsFrom(opts, signal);
  const stop = json || opts.quiet ? () => {} : startProgress(io, `Building ${opts.out}/ from ${opts.content}/…`);
  let result: Awaited<ReturnType<typeof buildIfChanged>>;
  try {
    result = await (opts.force ? build(options) : buildIfChanged(options));
  } finally {
    stop();
  }
  const ms = performance.now() - started;
  if (!("model" in result)) {
    if (json) {
      const summary = report([], result.counts);
      io.out(JSON.stringify({ ...summary, counts: { ...summary.counts, warnings: result.warnings }, upToDate: true }, null, 2));
      return;
    }
    if (opts.quiet) return;
    io.out(`${opts.out}/ is up to date: content, options and tool unchanged since it was built `
      + `(${countNoun(result.counts.answers, "response")}, ${countNoun(result.warnings, "warning")}; \`check\` lists them). `
      + `Nothing written (${humanMs(ms)}); --force rebuilds.`);
    return;
  }
  if (json) {
    io.out(JSON.stringify(report(result.diagnostics, result.counts), null, 2));
    return;
  }
  if (opts.quiet) return;
  for (const line of diagnosticLines(io, result.diagnostics, opts.verbose === true)) io.err(line);
  io.out(`${colorOut(io, "green", "Built")} ${opts.out}/: ${countNoun(result.counts.answers, "response")}, ${countNoun(result.counts.rules, "route rule")}, `
    + `${countNoun(result.counts.files, "file")} (${humanBytes(result.counts.bytes)}) in ${humanMs(ms)}.`);
}

function program(io: Io, run: Run): Command {
  const cmd = new Command("build-index-site")
    .description("Build the indexer configuration and icon API as a static site: every response precomputed into dist/.\n"
      + "With no command, runs `build`.")
    .version(version(), "-V, --version", "print the version")
    .option("--debug", "print the stack trace of an internal error")
    .showHelpAfterError("(Use --help for the options.)")
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });

  cmd.command("build")
    .description("Validate content/ and write every response, the route table and the host configs to dist/ (the default command).")
    .option("--content <dir>", "content folder", "content")
    .option("--out <dir>", "output folder (replaced atomically)", "dist")
    .option("--base-url <url>", "public https URL of the site, overrides manifest.json base_url")
    .option("--strict", "treat warnings as errors")
    .option("--json", "print one JSON report {ok, errors, warnings, counts} on stdout")
    .addOption(hostsOption())
    .option("--force", "rebuild even when the output was built from exactly this content and these options")
    .option("--replace-out", "replace an --out that build-index-site did not write (a file or a non-empty folder): deletes it")
    .option("-q, --quiet", "print nothing but errors")
    .option("--verbose", "print every warning (by default, more than 10 are summarised by code)")
    .action(async (opts: CommonFlags & { out: string; force?: boolean; replaceOut?: boolean }) => {
      run.json = opts.json === true;
      hostsFlag(opts.hosts); // a wrong flag is a usage error before anything is read
      await interruptible((signal) => runBuild(io, opts, signal, run.json));
    });

  cmd.command("check")
    .description("Validate the content and compute every response and host config, but write nothing (exit 1 on errors).")
    .option("--content <dir>", "content folder", "content")
    .option("--base-url <url>", "public https URL of the site, overrides manifest.json base_url")
    .option("--strict", "treat warnings as errors")
    .option("--json", "print one JSON report {ok, errors, warnings, counts} on stdout")
    .addOption(hostsOption())
    .option("-q, --quiet", "print nothing but errors")
    .option("--verbose", "print every warning (by default, more than 10 are summarised by code)")
    .action(async (opts: CommonFlags) => {
      run.json = opts.json === true;
      const started = performance.now();
      const hosts = hostsFlag(opts.hosts);
      const result = await compile({
        content: opts.content, strict: opts.strict === true,
        ...(opts.baseUrl !== undefined ? { baseUrl: opts.baseUrl } : {}),
        ...(hosts !== undefined ? { hosts } : {}),
      });
      const counts = { answers: result.routes.files.size, rules: result.routes.table.rules.length, files: filesToWrite(result) };
      const summary = report(result.diagnostics, counts);
      if (run.json) {
        io.out(JSON.stringify(summary, null, 2));
        return;
      }
      if (opts.quiet) return;
      for (const line of diagnosticLines(io, result.diagnostics, opts.verbose === true)) io.err(line);
      io.out(`${colorOut(io, "green", "Checked")} ${opts.content}/: no errors, ${countNoun(summary.counts.warnings, "warning")}; `
        + `${countNoun(counts.answers, "response")}, ${countNoun(counts.rules, "route rule")}, ${countNoun(counts.files, "file")} `
        + `would be written (${humanMs(performance.now() - started)}).`);
    });

  cmd.command("preview")
    .description("Serve a built site on http://127.0.0.1:8080 the way a static host with the route table would.")
    .option("--dir <dir>", "built site folder", "dist")
    .option("--port <n>", "port (0 = any free port)", parsePort, 8080)
    .option("--host <addr>", "address to listen on", "127.0.0.1")
    .option("--edge", "answer /api.php with the emitted request-time handler (what Netlify, Vercel and Cloudflare run) instead of the route table")
    .option("-q, --quiet", "print only the URL (no line per request)")
    .action(async (opts: { dir: string; port: number; host: string; quiet?: boolean; edge?: boolean }) => {
      const { startPreview } = await import("./preview/server.js");
      const preview = await startPreview({ dir: opts.dir, port: opts.port, host: opts.host, edge: opts.edge === true });
      if (!opts.quiet) logRequests(preview.server, (line) => io.out(colorOut(io, "dim", line)));
      io.out(`Preview: ${preview.url}`);
      run.wait = new Promise<number>((resolve) => preview.server.on("close", () => resolve(0)));
    });

  cmd.command("dev")
    .description("Build, preview and rebuild on every change in the content folder (Ctrl-C stops).")
    .option("--content <dir>", "content folder", "content")
    .option("--out <dir>", "output folder (replaced atomically)", "dist")
    .option("--base-url <url>", "public https URL of the site, overrides manifest.json base_url")
    .addOption(hostsOption())
    .option("--port <n>", "port (0 = any free port)", parsePort, 8080)
    .option("--host <addr>", "address to listen on", "127.0.0.1")
    .option("--poll", "poll the content folder instead of file system events (network drives, containers)")
    .option("-q, --quiet", "no line per request")
    .option("--verbose", "print every warning")
    .action(async (opts: DevFlags) => {
      hostsFlag(opts.hosts);
      run.wait = dev(io, opts); // resolves when stopped; a usage error of its first build (a bad --out) ends it at once
    });

  cmd.command("init")
    .description("Write a minimal content folder that builds (and a netlify.toml here when there is none).")
    .argument("[dir]", "folder to create (must be new or empty)", "content")
    .action(async (dir: string) => {
      const result = await init(dir);
      const shown = dir.replace(/[\\/]+$/, "") || dir;
      io.out(`${colorOut(io, "green", "Created")} ${shown}/ (${countNoun(result.files.length, "file")}: ${result.files.join(", ")}).`);
      io.out(result.netlify ? "Created netlify.toml (Netlify builds with build-index-site and publishes dist/)." : "netlify.toml exists: left as it is.");
      const flag = dir === "content" ? "" : ` --content ${dir}`;
      io.out("Next:");
      const build = `npx build-index-site${flag} --strict`;
      const preview = "npx build-index-site preview";
      const width = Math.max(build.length, preview.length) + 2;
      io.out(`  ${build.padEnd(width)}# validate ${dir}/ and build dist/`);
      io.out(`  ${preview.padEnd(width)}# serve dist/ on http://127.0.0.1:8080 (or: npx build-index-site dev${flag}, which also rebuilds on change)`);
    });
  registerVerify(cmd, io, run);
  return cmd;
}

export interface DevFlags extends CommonFlags {
  out: string;
  port: number;
  host: string;
  poll?: boolean;
}

/**
 * The dev loop: build, preview, rebuild on change. Resolves with the exit code when stopped by SIGINT/SIGTERM (or by
 * `stop`, for tests: 0); `onReady` gets the preview's URL once it listens.
 */
export async function dev(io: Io, opts: DevFlags, control: { stop?: AbortSignal; onReady?: (url: string) => void } = {}): Promise<number> {
  const { startPreview } = await import("./preview/server.js");
  let preview: Awaited<ReturnType<typeof startPreview>> | null = null;
  let controller = new AbortController();

  let stopped = false;
  const rebuild = async (): Promise<void> => {
    if (stopped) return;
    controller = new AbortController();
    let built = false;
    try {
      await runBuild(io, { ...opts, quiet: false }, controller.signal, false);
      built = true;
    } catch (error) {
      if (controller.signal.aborted) return;
      if (error instanceof UsageError) throw error;
      printFailure(io, error, { debug: false, verbose: opts.verbose === true });
      io.err(colorErr(io, "yellow", `Waiting for a change in ${opts.content}/ (the preview serves the last good build).`));
    }
    // The first time, an earlier build in --out is served even when this one failed. Later builds need nothing: the
    // preview reloads the route table itself when a build replaces --out.
    if ((built || isBuild(opts.out)) && preview === null && !stopped) {
      preview = await startPreview({ dir: opts.out, port: opts.port, host: opts.host });
      if (!opts.quiet) logRequests(preview.server, (line) => io.out(colorOut(io, "dim", line)));
      io.out(`Preview: ${preview.url} (watching ${opts.content}/; Ctrl-C stops)`);
      control.onReady?.(preview.url);
    }
  };

  await rebuild();
  const loop = debounced(() => rebuild().catch((error: unknown) => io.err(formatError(error))), 150);
  const unwatch = watchTree(opts.content, loop.trigger, { poll: opts.poll === true });
  return new Promise<number>((resolve) => {
    const stop = (code: number, reason: unknown): void => {
      stopped = true;
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
      control.stop?.removeEventListener("abort", onStop);
      controller.abort(reason);
      unwatch();
      const closed = preview === null ? Promise.resolve() : preview.close();
      void closed.then(() => loop.idle()).then(() => resolve(code));
    };
    const onInt = (): void => stop(EXIT_SIGNAL.SIGINT!, new InterruptedError("SIGINT"));
    const onTerm = (): void => stop(EXIT_SIGNAL.SIGTERM!, new InterruptedError("SIGTERM"));
    const onStop = (): void => stop(0, control.stop?.reason);
    process.on("SIGINT", onInt);
    process.on("SIGTERM", onTerm);
    if (control.stop?.aborted) onStop();
    else control.stop?.addEventListener("abort", onStop);
  });
}

/**
 * argv without the default command spelled out gets `build` in front: a first word that is an option (or nothing)
 * means `build`; a first word that is no command is an error (never taken as an argument of build).
 */
function withDefaultCommand(args: string[]): string[] | { unknown: string } {
  const first = args[0];
  if (first === undefined) return ["build"];
  if (first.startsWith("-")) return ["-h", "--help", "-V", "--version"].includes(first) ? args : ["build", ...args];
  if ((COMMANDS as readonly string[]).includes(first)) return args;
  return { unknown: first };
}

/** A failure on stderr: content errors with their problems (warnings summarised by code unless verbose), else one reason. */
function printFailure(io: Io, error: unknown, options: { debug: boolean; verbose: boolean }): void {
  if (error instanceof ContentError) {
    io.err(error.message);
    for (const line of diagnosticLines(io, error.diagnostics, options.verbose)) io.err(line);
    return;
  }
  io.err(formatError(error, { debug: options.debug }));
}

/** Runs the CLI; resolves to the exit code (a preview resolves when its server closes). */
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  const run: Run = { wait: null, json: false };
  const args = argv.slice(2);
  const debug = args.includes("--debug");
  const rest = args.filter((a) => a !== "--debug");
  try {
    const routed = withDefaultCommand(rest);
    if (!Array.isArray(routed)) {
      io.err(`error: unknown command '${routed.unknown}'${didYouMean(routed.unknown, COMMANDS.filter((c) => c !== "help"))}`);
      io.err(`Commands: ${COMMANDS.join(", ")} (with none, build runs). Use --help for more.`);
      return EXIT_USAGE;
    }
    await program(io, run).parseAsync(routed, { from: "user" });
    if (run.wait) return await run.wait;
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.exitCode === 0 ? 0 : EXIT_USAGE;
    }
    if (run.json) io.out(JSON.stringify(failureReport(error), null, 2));
    else printFailure(io, error, { debug, verbose: rest.includes("--verbose") });
    if (error instanceof UsageError) return EXIT_USAGE;
    // --host names an address this machine does not have: a wrong flag.
    if ((error as NodeJS.ErrnoException | null)?.code === "EADDRNOTAVAIL") return EXIT_USAGE;
    if (error instanceof InterruptedError) return EXIT_SIGNAL[error.signal] ?? EXIT_CONTENT;
    return EXIT_CONTENT;
  }
}
