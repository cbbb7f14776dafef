// src/cli/build.ts
// `build-index-site [build]`: validate the content and write the site (skipped when nothing changed).

import { Command } from "commander";
import { buildOrSkip } from "../pipeline/pipeline.js";
import type { BuildMemo } from "../pipeline/memo.js";
import type { BuildOptions, BuildResult, UpToDateResult } from "../pipeline/options.js";
import { countNoun } from "../errors.js";
import { interruptible, flag, report, type Run } from "./shared.js";
import { optionsReadingContent, staticHostsWithRequestOrigin, type Flags, type Options } from "./options.js";
import { freeHeap, holdHeap } from "./startup/heap-growth.js";
import { colorErr, colorOut, diagnosticLines, humanBytes, humanMs, startProgress, type Io } from "./output.js";

export interface BuildRun {
  force?: boolean;
  /** No later build reads this --out (src/pipeline/options.ts: `once`). */
  once?: boolean;
  /** Build even when --out is up to date, at its build's time (src/pipeline/options.ts: `again`): `dev` fills its memory
   * so. */
  again?: boolean;
  /** What dev keeps in memory between builds (src/pipeline/memo.ts: BuildMemo). */
  memo?: BuildMemo;
  replaceOut?: boolean;
  quiet?: boolean;
  verbose?: boolean;
}

type BuildCli = Pick<Options, "content" | "out"> & Partial<Options> & BuildRun;

function buildOptions(options: BuildCli, signal?: AbortSignal): BuildOptions {
  return {
    content: options.content,
    out: options.out,
    strict: options.strict === true,
    replaceOut: options.replaceOut === true,
    ...(signal ? { write: { signal } } : {}),
    ...(options.hosts !== undefined ? { hosts: options.hosts } : {}),
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
    ...(options.requestOrigin === true ? { requestOrigin: true } : {}),
    ...(options.exclude !== undefined ? { exclude: options.exclude } : {}),
    plan: options.plan,
    ...(options.force === true ? { force: true } : {}),
    ...(options.once === true ? { once: true } : {}),
    ...(options.again === true ? { again: true } : {}),
    ...(options.memo === undefined ? {} : { memo: options.memo }),
    ...(options.catalogue === false ? { catalogue: false } : {}),
  };
}

/** How a build ended: nothing to do, written in place, or written whole. */
export type BuildOutcome = "up to date" | "in place" | "full";

/** Runs one build for the CLI (build and dev): progress on a terminal, then diagnostics and a summary line. */
export async function runBuild(
  io: Io,
  options: BuildCli,
  signal: AbortSignal | undefined,
  json: boolean,
): Promise<BuildOutcome> {
  const started = performance.now();
  // The command starts with V8's heap held near what is live, for a build that writes every file
  // (src/cli/startup/heap-growth.ts). An update in place, which the build says is likely once --out is claimed, is
  // faster with V8's own growth; held again if it turns out to write in full (a heap grown freely stays grown).
  const core: BuildOptions = {
    ...buildOptions(options, signal),
    onMode: (mode) => (mode === "full" ? holdHeap() : freeHeap()),
  };
  const stop =
    json || options.quiet ? () => {} : startProgress(io, `Building ${options.out}/ from ${options.content}/…`);
  let result: Awaited<ReturnType<typeof buildOrSkip>>;
  try {
    result = await buildOrSkip(core, options.force !== true); // --force: written even when up to date
  } finally {
    stop();
  }
  const ms = performance.now() - started;
  if (!("model" in result)) {
    reportUpToDate(io, options, result, ms, json);
    return "up to date";
  }
  reportBuilt(io, options, result, ms, json);
  return result.changes.mode;
}

/** What the CLI says of an --out found up to date: nothing written. */
function reportUpToDate(io: Io, options: BuildCli, result: UpToDateResult, ms: number, json: boolean): void {
  if (json) {
    const summary = report([], result.counts, options.config ?? null);
    io.out(
      JSON.stringify({ ...summary, counts: { ...summary.counts, warnings: result.warnings }, upToDate: true }, null, 2),
    );
    return;
  }
  if (options.quiet) return;
  io.out(
    `${options.out}/ is up to date: content, options and tool unchanged since it was built ` +
      `(${countNoun(result.counts.answers, "response")}, ${countNoun(result.warnings, "warning")}; \`check\` lists them). ` +
      `Nothing written (${humanMs(ms)}); --force rebuilds.`,
  );
}

/** What the CLI says of a build written: its diagnostics, where its base URL came from, and a summary line. */
function reportBuilt(io: Io, options: BuildCli, result: BuildResult, ms: number, json: boolean): void {
  if (json) {
    io.out(JSON.stringify(report(result.diagnostics, result.counts, options.config ?? null), null, 2));
    return;
  }
  if (options.quiet) return;
  for (const line of diagnosticLines(io, result.diagnostics, options.verbose === true)) io.err(line);
  if (options.baseUrlSource) io.out(`Base URL ${result.model.baseUrl} from ${options.baseUrlSource}.`);
  if (options.requestOrigin === true) {
    io.out("The edge hosts' handler answers with each request's origin (--base-url request).");
    const fixed = staticHostsWithRequestOrigin(options.hosts);
    if (fixed.length > 0) {
      io.err(
        `--base-url request: ${colorErr(io, "yellow", "warning")}: the static hosts (${fixed.join(", ")}) cannot answer with the ` +
          `request's origin: their answer files say ${result.model.baseUrl}. Leave them out of --hosts to deploy only what follows the request.`,
      );
    }
  }
  const { changes } = result;
  if (changes.mode === "in place") {
    // What a client sees change: the answer files (or the handler's data files) among the site's files written.
    const answers = changes.sitePaths.filter((p) => p.startsWith("api/")).length;
    const data = changes.sitePaths.filter((p) => p.startsWith("_edge-data/")).length;
    const what = [
      ...(result.counts.answers > 0 ? [countNoun(answers, "answer")] : []),
      ...(data > 0 ? [countNoun(data, "data file")] : []),
      `${countNoun(changes.written, "file")} written`,
      `${changes.removed} removed`,
    ];
    io.out(
      `${colorOut(io, "green", "Updated")} ${options.out}/ in place: ${what.join(", ")} in ${humanMs(ms)} ` +
        `(${countNoun(result.counts.answers, "response")}, ${countNoun(result.counts.files, "file")}).`,
    );
    return;
  }
  io.out(
    `${colorOut(io, "green", "Built")} ${options.out}/: ${countNoun(result.counts.answers, "response")}, ${countNoun(result.counts.rules, "route rule")}, ` +
      `${countNoun(result.counts.files, "file")} (${humanBytes(result.counts.bytes)}) in ${humanMs(ms)}.`,
  );
}

export function buildCommand(io: Io, run: Run): Command {
  return new Command("build")
    .description(
      "Validate content/ and write every response, the route table and the host configs to dist/ (the default command).",
    )
    .addOption(flag.config())
    .addOption(flag.content())
    .addOption(flag.out())
    .addOption(flag.baseUrl())
    .addOption(flag.strict())
    .addOption(flag.json())
    .addOption(flag.hosts())
    .addOption(flag.plan())
    .addOption(flag.noCatalogue())
    .option("--force", "write every file again, in full: no in-place update, even when nothing changed")
    .option(
      "--once",
      "no later build reads this output (CI from a fresh clone): skip the caches and records that only speed up the next build",
    )
    .option(
      "--replace-out",
      "replace an --out that build-index-site did not write (a file or a non-empty folder): deletes it",
    )
    .option("-q, --quiet", "print nothing but errors")
    .addOption(flag.verbose())
    .action(async (flags: Flags & BuildRun & { json?: boolean }) => {
      run.json = flags.json === true;
      const options = optionsReadingContent(flags); // a wrong flag or config file is a usage error before anything is read
      run.config = options.config;
      const { force, once, replaceOut, quiet, verbose } = flags;
      await interruptible((signal) =>
        runBuild(io, { ...options, force, once, replaceOut, quiet, verbose }, signal, run.json),
      );
    });
}
