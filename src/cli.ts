// src/cli.ts
// EDGE: the command line. Maps flags to build() / preview(); one catch turns failures into a message and an exit code.

import { Command, CommanderError, InvalidArgumentError } from "commander";
import { build } from "./build.js";
import { BuildError, ContentError, countNoun, formatDiagnostic, formatError, UsageError } from "./errors.js";
import { startPreview } from "./preview/server.js";

const EXIT_CONTENT = 1;
const EXIT_USAGE = 2;

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

function program(io: Io, run: { wait: Promise<void> | null }): Command {
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
    .action(async (opts: { content: string; out: string; baseUrl?: string }) => {
      const started = performance.now();
      const result = await build({ content: opts.content, out: opts.out, ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}) });
      for (const d of result.diagnostics) io.err(formatDiagnostic(d));
      const ms = Math.round(performance.now() - started);
      io.out(`Built ${opts.out}/: ${countNoun(result.counts.answers, "response")}, ${countNoun(result.counts.rules, "route rule")}, `
        + `${countNoun(result.counts.files, "file")} (${result.counts.bytes} bytes) in ${ms} ms.`);
    });

  cmd.command("preview")
    .description("Serve a built site on http://127.0.0.1:8080 the way a static host with the route table would.")
    .option("--dir <dir>", "built site folder", "dist")
    .option("--port <n>", "port (0 = any free port)", parsePort, 8080)
    .option("--host <addr>", "address to listen on", "127.0.0.1")
    .action(async (opts: { dir: string; port: number; host: string }) => {
      const preview = await startPreview(opts);
      io.out(`Preview: ${preview.url}`);
      run.wait = new Promise<void>((resolve) => preview.server.on("close", () => resolve()));
    });
  return cmd;
}

/** Runs the CLI; resolves to the exit code (a preview resolves when its server closes). */
export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  const run: { wait: Promise<void> | null } = { wait: null };
  try {
    await program(io, run).parseAsync(argv);
    if (run.wait) await run.wait;
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.exitCode === 0 ? 0 : EXIT_USAGE;
    }
    io.err(formatError(error));
    if (error instanceof UsageError) return EXIT_USAGE;
    if (error instanceof ContentError || error instanceof BuildError) return EXIT_CONTENT;
    return EXIT_CONTENT;
  }
}
