// src/cli/check.ts
// `build-index-site check`: validate and compute everything a build would write, write nothing. Its counts are the
// build's: responses, route rules and the files of --out (the records and host folders beside it are not counted).

import { Command } from "commander";
import { compile } from "../pipeline/compile.js";
import { countNoun } from "../errors.js";
import { flag, report, type Run } from "./shared.js";
import { optionsReadingContent, type Flags } from "./options.js";
import { colorErr, colorOut, diagnosticLines, humanMs, type Io } from "./output.js";

export function checkCommand(io: Io, run: Run): Command {
  return new Command("check")
    .description(
      "Validate the content and compute every response and host config, but write nothing (exit 1 on errors).",
    )
    .addOption(flag.config())
    .addOption(flag.content())
    .addOption(flag.out("the output folder a build would write, named in the host configs; check writes nothing"))
    .addOption(flag.baseUrl())
    .addOption(flag.strict())
    .addOption(flag.json())
    .addOption(flag.hosts())
    .addOption(flag.plan())
    .option("-q, --quiet", "print nothing but errors")
    .addOption(flag.verbose())
    .action(async (flags: Flags & { json?: boolean; quiet?: boolean; verbose?: boolean }) => {
      run.json = flags.json === true;
      const started = performance.now();
      const options = optionsReadingContent(flags);
      run.config = options.config;
      const result = await compile({
        content: options.content,
        out: options.out,
        strict: options.strict,
        ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
        ...(options.requestOrigin ? { requestOrigin: true } : {}),
        ...(options.catalogue === false ? { catalogue: false } : {}),
        ...(options.hosts !== undefined ? { hosts: options.hosts } : {}),
        ...(options.exclude !== undefined ? { exclude: options.exclude } : {}),
        plan: options.plan,
      });
      const counts = {
        answers: result.answers ? result.routes.files.size : 0,
        rules: result.routes.table.rules.length,
        files: result.site.length,
      };
      const summary = report(result.diagnostics, counts, options.config);
      if (run.json) {
        io.out(JSON.stringify(summary, null, 2));
        return;
      }
      if (flags.quiet) return;
      for (const line of diagnosticLines(io, result.diagnostics, flags.verbose === true)) io.err(line);
      const { isIncomplete, incompleteLine } = await import("../layout/build-status.js");
      if (isIncomplete(options.out)) io.err(colorErr(io, "yellow", `Warning: ${incompleteLine(`${options.out}/`)}`));
      const config = options.config === null ? "no config file" : `config ${options.config}`;
      io.out(
        `${colorOut(io, "green", "Checked")} ${options.content}/ (${config}): no errors, ${countNoun(summary.counts.warnings, "warning")}; ` +
          `${countNoun(counts.answers, "response")}, ${countNoun(counts.rules, "route rule")}, ${countNoun(counts.files, "file")} ` +
          `would be written (${humanMs(performance.now() - started)}).`,
      );
    });
}
