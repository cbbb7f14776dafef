// src/cli/program.ts
// The command line: the program with its commands (each in its own file, declaring its own flags), the default
// command, and the one catch that turns failures into a message and an exit code (0 ok, 1 content or build errors,
// 2 usage, 130/143 stopped by a signal).

import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { ConfigError, InterruptedError, UsageError } from "../errors.js";
import { buildCommand } from "./build.js";
import { checkCommand } from "./check.js";
import { EXIT_CONTENT, EXIT_SIGNAL, EXIT_USAGE, failureReport, type Run } from "./shared.js";
import { devCommand } from "./dev.js";
import { registerDiff } from "./diff.js";
import { printFailure } from "./failure.js";
import { initCommand } from "./init.js";
import { relabel, withOrigins, type Origins } from "./origins.js";
import { processIo, type Io } from "./output.js";
import { previewCommand } from "./preview.js";
import { didYouMean } from "./suggest.js";
import { registerVerify } from "./verify.js";

const COMMANDS = ["build", "check", "preview", "dev", "init", "verify", "diff", "help"] as const;

/** The package's version (package.json sits two folders above both src/cli/ and lib/cli/). */
export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  return pkg.version;
}

function program(io: Io, run: Run): Command {
  const cmd = new Command("build-index-site")
    .description(
      "Build the indexer configuration and icon API as a static site: every response precomputed into dist/.\n" +
        "With no command, runs `build`.",
    )
    .version(version(), "-V, --version", "print the version")
    .option("--debug", "print the stack trace of an internal error")
    .showHelpAfterError("(Use --help for the options.)")
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });
  for (const sub of [
    buildCommand(io, run),
    checkCommand(io, run),
    previewCommand(io, run),
    devCommand(io, run),
    initCommand(io),
  ]) {
    cmd.addCommand(sub.copyInheritedSettings(cmd));
  }
  registerVerify(cmd, io, run);
  registerDiff(cmd, io, run);
  return cmd;
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

/** The exit code of a failure: 2 for what the user passed (flags, arguments, config file), 1 for the rest. */
function exitCode(error: unknown): number {
  if (error instanceof UsageError) return EXIT_USAGE;
  // --host names an address this machine does not have: a wrong flag.
  if ((error as NodeJS.ErrnoException | null)?.code === "EADDRNOTAVAIL") return EXIT_USAGE;
  if (error instanceof InterruptedError) return EXIT_SIGNAL[error.signal] ?? EXIT_CONTENT;
  return EXIT_CONTENT;
}

const PARSED = new Error("parsed");

/**
 * What the command line says of argv without running any command: null when it parses (flags, arguments, command),
 * else the mistake it reports. The docs test checks every documented command with it.
 */
export async function parseOnly(args: string[]): Promise<string | null> {
  const routed = withDefaultCommand(args);
  if (!Array.isArray(routed)) return `unknown command '${routed.unknown}'`;
  const errors: string[] = [];
  const io: Io = { out: () => undefined, err: (line) => errors.push(line) };
  const cmd = program(io, { wait: null, json: false }).hook("preAction", () => {
    throw PARSED;
  });
  try {
    await cmd.parseAsync(routed, { from: "user" });
  } catch (error) {
    if (error === PARSED) return null;
    if (error instanceof CommanderError && (error.exitCode === 0 || error.code === "commander.helpDisplayed"))
      return null;
    return error instanceof Error ? error.message : String(error);
  }
  return null;
}

/** Runs the CLI; resolves to the exit code (a preview resolves when its server closes). */
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  const run: Run = { wait: null, json: false };
  const args = argv.slice(2);
  const debug = args.includes("--debug");
  const rest = args.filter((a) => a !== "--debug");
  const origins: Origins = new Map();
  try {
    const routed = withDefaultCommand(rest);
    if (!Array.isArray(routed)) {
      io.err(
        `error: unknown command '${routed.unknown}'${didYouMean(
          routed.unknown,
          COMMANDS.filter((c) => c !== "help"),
        )}`,
      );
      io.err(`Commands: ${COMMANDS.join(", ")} (with none, build runs). Use --help for more.`);
      return EXIT_USAGE;
    }
    await withOrigins(origins, () => program(io, run).parseAsync(routed, { from: "user" }));
    if (run.wait) return await run.wait;
    return 0;
  } catch (thrown) {
    const error = relabel(thrown, origins);
    if (error instanceof CommanderError) {
      return error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.exitCode === 0
        ? 0
        : EXIT_USAGE;
    }
    const config = error instanceof ConfigError ? error.file : run.config;
    if (run.json) io.out(JSON.stringify(failureReport(error, config), null, 2));
    else printFailure(io, error, { debug, verbose: rest.includes("--verbose") });
    return exitCode(error);
  }
}
