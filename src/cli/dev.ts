// src/cli/dev.ts
// `build-index-site dev`: build, serve, watch the content and rebuild on every change (debounced). The preview keeps
// listening on the same port and answers from the newest build after each successful rebuild (it reloads the route
// table, and the request-time handler with its data, itself when a build replaces the records): no restart. It
// answers as one host of the build does (preview's --as, --static and --edge; by default an edge host when one is
// built), and says which. A content error is printed and the loop waits for the next change.

import { realpathSync } from "node:fs";
import path from "node:path";
import { Command } from "commander";
import { ContentError, formatError, InterruptedError, UsageError, type Diagnostic } from "../errors.js";
import type { BuildMemo } from "../pipeline/memo.js";
import { isBuild } from "../layout/read-build.js";
import { runBuild, type BuildOutcome } from "./build.js";
import { EXIT_SIGNAL, flag, type Run } from "./shared.js";
import { optionsReadingContent, type Flags, type Options } from "./options.js";
import { colorErr, colorOut, humanMs, type Io } from "./output.js";
import { printFailure } from "./failure.js";
import { debounced, logRequests, watchTree } from "./watch.js";
import { AS_HELP, asOptions, EDGE_HELP, STATIC_HELP, type AsFlags } from "./preview.js";

/** What the dev loop needs: where to read and write and where to listen; the rest as `build` takes it. */
export type DevOptions = Pick<Options, "content" | "out" | "port" | "host"> &
  Partial<Options> & {
    poll?: boolean;
    /** The host the preview answers as (preview's --as), or the old switches. */
    as?: string;
    semantics?: "edge" | "static";
    quiet?: boolean;
    verbose?: boolean;
  };

export function devCommand(io: Io, run: Run): Command {
  return new Command("dev")
    .description("Build, preview and rebuild on every change in the content folder (Ctrl-C stops).")
    .addOption(flag.config())
    .addOption(flag.content())
    .addOption(flag.out("output folder, rebuilt on every change and served"))
    .addOption(flag.baseUrl())
    .addOption(flag.hosts())
    .addOption(flag.plan())
    .addOption(flag.noCatalogue())
    .addOption(flag.port())
    .addOption(flag.host())
    .option("--poll", "poll the content folder instead of file system events (network drives, containers)")
    .option("--as <host>", AS_HELP)
    .option("--static", STATIC_HELP)
    .option("--edge", EDGE_HELP)
    .option("-q, --quiet", "no line per request (builds and errors are still printed)")
    .option("--verbose", "print every warning")
    .action((flags: Flags & AsFlags & { poll?: boolean; quiet?: boolean; verbose?: boolean }) => {
      const options = optionsReadingContent(flags);
      const as = asOptions(flags);
      const { poll, quiet, verbose } = flags;
      run.wait = dev(io, { ...options, poll, quiet, verbose, ...as }); // resolves when stopped; a usage error of its first build (a bad --out) ends it at once
    });
}

/** The preview's modules, loaded when dev starts (every other command starts without them). */
type PreviewModules = typeof import("../preview/server.js") &
  Pick<typeof import("../preview/problems.js"), "problemsListener">;
type Preview = Awaited<ReturnType<PreviewModules["listen"]>>;
type Control = { stop?: AbortSignal; onReady?: (url: string) => void };

/**
 * The dev loop: build, preview, rebuild on change. Resolves with the exit code when stopped by SIGINT/SIGTERM (or by
 * `stop`, for tests: 0); `onReady` gets the preview's URL once it listens.
 */
export async function dev(io: Io, opts: DevOptions, control: Control = {}): Promise<number> {
  const server = await import("../preview/server.js");
  const { problemsListener } = await import("../preview/problems.js");
  // The facts of the content's files (hash, image type and size) stay in memory between builds (the watcher says
  // which file to read again), and so do the published folders' listings (walked again when the watcher sees a change
  // in them), the JSON files' parses, the hosts' files (made again when the route table changes) and --out's manifest.
  const { BuildMemo } = await import("../pipeline/memo.js");
  const session = new DevSession(io, opts, control, { ...server, problemsListener }, new BuildMemo());

  const loop = debounced(async () => {
    await session.rebuild().catch((error: unknown) => io.err(formatError(error)));
  }, 150);
  // Watching starts before the first build, so that no change is missed once the preview says it is ready; a change
  // during the first build is built after it.
  let built = false;
  let changedMeanwhile = false;
  const watcher = watchContent(io, opts, session.memo, () => {
    if (built) loop.trigger();
    else changedMeanwhile = true;
  });
  await watcher.ready;
  try {
    await firstBuild(io, session);
  } catch (error) {
    watcher.close();
    throw error;
  }
  built = true;
  if (changedMeanwhile) loop.trigger();
  return untilStopped(session, control, watcher, loop);
}

/** What one dev run holds between its builds: the build's memory, the preview, and whether it has stopped. */
class DevSession {
  preview: Preview | null = null;
  /** Whether the preview answers with the site (else with the content errors: no build to show yet). */
  private servingSite = false;
  controller = new AbortController();
  stopped = false;

  constructor(
    private readonly io: Io,
    private readonly opts: DevOptions,
    private readonly control: Control,
    private readonly modules: PreviewModules,
    readonly memo: BuildMemo,
  ) {}

  /** Builds (`warm`: in place even when --out is up to date, printing nothing but errors); returns how, or null when it failed. */
  async rebuild(warm = false): Promise<BuildOutcome | null> {
    if (this.stopped) return null;
    this.controller = new AbortController();
    let problems: Diagnostic[] | null = null;
    let outcome: BuildOutcome | null = null;
    try {
      const options = { ...this.opts, quiet: warm, memo: this.memo, again: warm };
      outcome = await runBuild(this.io, options, this.controller.signal, false);
    } catch (error) {
      if (this.controller.signal.aborted) return null;
      if (error instanceof UsageError) throw error;
      printFailure(this.io, error, { debug: false, verbose: this.opts.verbose === true });
      problems = error instanceof ContentError ? error.diagnostics.filter((d) => d.severity === "error") : [];
      if (problems.length === 0)
        problems = [
          { severity: "error", code: "BUILD", file: this.opts.out, message: formatError(error).split("\n")[0]! },
        ];
    }
    if (this.stopped) return null;
    await this.show(problems);
    return outcome;
  }

  /**
   * A build in --out (this one, or an earlier one when this one failed) is the site; the preview reloads it itself
   * after each build (route table, handler and its data). Without one, a page lists the content errors until a
   * build succeeds.
   */
  private async show(problems: Diagnostic[] | null): Promise<void> {
    const { io, opts } = this;
    const { listen, previewListener, problemsListener, asLine } = this.modules;
    const site = isBuild(opts.out);
    const asked = {
      ...(opts.as === undefined ? {} : { as: opts.as }),
      ...(opts.semantics === undefined ? {} : { semantics: opts.semantics }),
    };
    const next =
      site && !this.servingSite
        ? await previewListener({ dir: opts.out, ...asked }, () => this.preview?.self ?? "")
        : null;
    const listener = site ? (next?.listener ?? null) : problemsListener(opts.content, problems ?? []);
    const first = this.preview === null;
    const serves = next === null ? "" : `${asLine(next.as, next.hosts)}; `;
    if (this.preview === null) {
      const serving = next === null ? undefined : { as: next.as, semantics: next.semantics };
      const preview = await listen({ port: opts.port, host: opts.host }, listener!, serving);
      this.preview = preview;
      if (!opts.quiet) logRequests(preview.server, (line) => io.out(colorOut(io, "dim", line)));
      io.out(`Preview: ${preview.url} (${serves}watching ${opts.content}/; Ctrl-C stops)`);
      this.control.onReady?.(preview.url);
    } else if (listener !== null) this.preview.use(listener);
    if (problems !== null) {
      const what = site
        ? `the previous build in ${opts.out}/`
        : "a page that lists the content errors (and 503 for /api.php)";
      io.err(colorErr(io, "yellow", `Waiting for a change in ${opts.content}/; the preview serves ${what}.`));
    } else if (!first && !this.servingSite)
      io.out(`The content builds: the preview serves ${opts.out}/ (${serves.replace(/; $/, "")}).`);
    this.servingSite = site;
  }
}

/** Watches the content folder: each change is told to the build's memory, then `onChange` is called. */
function watchContent(io: Io, opts: DevOptions, memo: BuildMemo, onChange: () => void): ReturnType<typeof watchTree> {
  const contentReal = realpathOr(opts.content);
  return watchTree(
    opts.content,
    (file) => {
      memo.changed(contentReal, file);
      onChange();
    },
    {
      poll: opts.poll === true,
      onError: (error) => {
        memo.watchFailed();
        io.err(
          colorErr(
            io,
            "yellow",
            `Watching ${opts.content}/ failed (${error.message}): changes may be missed; --poll watches by polling.`,
          ),
        );
      },
    },
  );
}

/** The first build, then (when it left nothing in memory to update in place) an update in place that writes nothing. */
async function firstBuild(io: Io, session: DevSession): Promise<void> {
  const started = performance.now();
  let outcome = await session.rebuild();
  // The first edit finds the site in memory, as every later one does: a first build that wrote nothing (--out was
  // up to date) or wrote in full (nothing in place) is followed by an update in place that writes nothing (the
  // preview serves meanwhile; a change is built after it).
  if (outcome === "up to date" || outcome === "full") outcome = await session.rebuild(true);
  if (outcome !== null && !session.stopped)
    io.out(
      colorOut(
        io,
        "dim",
        `Ready for edits: the site is held in memory (${humanMs(performance.now() - started)} after start).`,
      ),
    );
}

/** Resolves with the exit code once dev is stopped: by SIGINT, SIGTERM or `control.stop`. */
function untilStopped(
  session: DevSession,
  control: Control,
  watcher: ReturnType<typeof watchTree>,
  loop: ReturnType<typeof debounced>,
): Promise<number> {
  return new Promise<number>((resolve) => {
    // Stops once: a second signal while it stops (a Ctrl-C reaches both bin's process and the child that runs dev,
    // src/cli/startup/dev-child.ts, which passes it on) changes nothing.
    const stop = (code: number, reason: unknown): void => {
      if (session.stopped) return;
      session.stopped = true;
      control.stop?.removeEventListener("abort", onStop);
      session.controller.abort(reason);
      watcher.close();
      const closed = session.preview === null ? Promise.resolve() : session.preview.close();
      void closed
        .then(() => loop.idle())
        .then(() => {
          process.off("SIGINT", onInt);
          process.off("SIGTERM", onTerm);
          resolve(code);
        });
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

/** The real path of a folder (the content's files are keyed by it), or the path as given when it cannot be resolved. */
function realpathOr(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}
