// src/cli/dev.ts
// `build-index-site dev`: build, serve, watch the content and rebuild on every change (debounced). The preview keeps
// listening on the same port and answers from the newest table after each successful rebuild (it reloads the route
// table itself when a build replaces the records); a content error is printed and the loop waits for the next change.

import { Command } from "commander";
import { formatError, InterruptedError, UsageError } from "../errors.js";
import { isBuild } from "../layout/read-build.js";
import { runBuild } from "./build.js";
import { EXIT_SIGNAL, flag, type Run } from "./common.js";
import { resolveOptions, type Flags, type Options } from "./options.js";
import { colorErr, colorOut, type Io } from "./output.js";
import { printFailure } from "./failure.js";
import { debounced, logRequests, watchTree } from "./watch.js";

/** What the dev loop needs: where to read and write and where to listen; the rest as `build` takes it. */
export type DevOptions = Pick<Options, "content" | "out" | "port" | "host"> & Partial<Options> & {
  poll?: boolean;
  quiet?: boolean;
  verbose?: boolean;
};

export function devCommand(io: Io, run: Run): Command {
  return new Command("dev")
    .description("Build, preview and rebuild on every change in the content folder (Ctrl-C stops).")
    .addOption(flag.config())
    .addOption(flag.content())
    .addOption(flag.out())
    .addOption(flag.baseUrl())
    .addOption(flag.hosts())
    .addOption(flag.noCatalogue())
    .addOption(flag.port())
    .addOption(flag.host())
    .option("--poll", "poll the content folder instead of file system events (network drives, containers)")
    .option("-q, --quiet", "no line per request")
    .option("--verbose", "print every warning")
    .action((flags: Flags & { poll?: boolean; quiet?: boolean; verbose?: boolean }) => {
      const options = resolveOptions(flags);
      const { poll, quiet, verbose } = flags;
      run.wait = dev(io, { ...options, poll, quiet, verbose }); // resolves when stopped; a usage error of its first build (a bad --out) ends it at once
    });
}

/**
 * The dev loop: build, preview, rebuild on change. Resolves with the exit code when stopped by SIGINT/SIGTERM (or by
 * `stop`, for tests: 0); `onReady` gets the preview's URL once it listens.
 */
export async function dev(io: Io, opts: DevOptions, control: { stop?: AbortSignal; onReady?: (url: string) => void } = {}): Promise<number> {
  const { startPreview } = await import("../preview/server.js");
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
      io.out(`Preview: ${preview.url} (static semantics: /api.php answered from the route table; watching ${opts.content}/; Ctrl-C stops)`);
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
