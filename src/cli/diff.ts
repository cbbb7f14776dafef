// src/cli/diff.ts
// `build-index-site diff <old> <new>`: what a client will see change between two sites, each a built site's folder,
// a content folder or an http(s):// URL. Exit 0; 1 with --fail-on when such a change is present; 2 bad input, or a
// --fail-on kind that could not be compared (versions, against a URL that does not list them) and no other matched.

import { InvalidArgumentError, Option, type Command } from "commander";
import { CHANGE_KINDS, diffSites, hasAny, type ChangeKind } from "../diff/compare-sites.js";
import { FORMATS, notCompared, renderJson, renderMarkdown, renderText, type Format } from "../diff/render.js";
import type { SiteDescription } from "../diff/index.js";
import { UsageError } from "../errors.js";
import { colorErr, colorOut, type Io } from "./output.js";
import { didYouMean } from "./suggest.js";

interface DiffFlags {
  format?: Format;
  json?: boolean;
  failOn?: ChangeKind[];
  timeout: number;
}

function kinds(value: string): ChangeKind[] {
  const list = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (list.includes("any")) return [...CHANGE_KINDS];
  for (const k of list) {
    if (!(CHANGE_KINDS as readonly string[]).includes(k)) {
      throw new InvalidArgumentError(
        `'${k}' is no kind of change${didYouMean(k, CHANGE_KINDS)}. Kinds: ${CHANGE_KINDS.join(", ")}, any.`,
      );
    }
  }
  if (list.length === 0) throw new InvalidArgumentError(`name at least one kind: ${CHANGE_KINDS.join(", ")}, any.`);
  return list as ChangeKind[];
}

const seconds = (value: string): number => {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || n <= 0) throw new InvalidArgumentError("must be a number of seconds above 0.");
  return n;
};

/** Registers `diff`; the exit code goes to `run.wait`. `stdoutIsTty` decides the default format (text, else md). */
export function registerDiff(
  program: Command,
  io: Io,
  run: { wait: Promise<number> | null; json: boolean },
  stdoutIsTty: () => boolean = () => process.stdout.isTTY === true,
): void {
  program
    .command("diff")
    .description(
      "Report what a client will see change between two sites: icons, the icon each extension gets, extension " +
        "settings, versions and versionCheck answers, config.json (exit 0; 1 with --fail-on; 2 bad input).",
    )
    .argument("<old>", "the site before: a built site's folder (e.g. dist), a content folder, or an http(s):// URL")
    .argument("<new>", "the site after, of any of the same kinds")
    .addOption(
      new Option(
        "--format <format>",
        "text, md (Markdown, for a pull request or $GITHUB_STEP_SUMMARY) or json (default: text on a terminal, else md)",
      ).choices(FORMATS),
    )
    .option("--json", "the same as --format json")
    .option(
      "--fail-on <kinds>",
      `exit 1 when a change of these kinds is present (comma-separated: ${CHANGE_KINDS.join(", ")}, or any)`,
      kinds,
    )
    .option("--timeout <seconds>", "time-out per request, for a URL", seconds, 10)
    .action(async (oldArg: string, newArg: string, opts: DiffFlags) => {
      const format: Format = opts.json === true ? "json" : (opts.format ?? (stdoutIsTty() ? "text" : "md"));
      run.json = format === "json";
      let a: SiteDescription;
      let b: SiteDescription;
      try {
        // The readers (content, builds, URLs) load only when a diff runs.
        const { readBoth } = await import("../diff/from-argument.js");
        [a, b] = await readBoth(oldArg, newArg, { timeoutMs: opts.timeout * 1000 });
      } catch (error) {
        if (!(error instanceof UsageError)) throw error;
        // Bad input is one line (no hint, no stack trace): the reason names the argument.
        if (run.json) io.out(JSON.stringify({ ok: false, exitCode: 2, error: error.message }, null, 2));
        else io.err(colorErr(io, "red", error.message));
        run.wait = Promise.resolve(2);
        return;
      }
      const diff = diffSites(a, b);
      const text =
        format === "json"
          ? renderJson(diff)
          : format === "md"
            ? renderMarkdown(diff)
            : renderText(diff, (style, t) => colorOut(io, style, t));
      for (const line of text.replace(/\n$/, "").split("\n")) io.out(line);
      if (opts.failOn !== undefined && hasAny(diff, opts.failOn)) {
        run.wait = Promise.resolve(1);
        return;
      }
      // A kind --fail-on names but the diff could not compare: it cannot say that the change is absent.
      const unchecked = (opts.failOn ?? []).filter((k) => notCompared(diff).includes(k));
      if (unchecked.length > 0) {
        io.err(
          colorErr(
            io,
            "red",
            `--fail-on ${unchecked.join(",")}: ${diff.versions.unknown.map((u) => u.source).join(" and ")} does not list its client versions, so versions added and removed cannot be checked.`,
          ),
        );
        run.wait = Promise.resolve(2);
        return;
      }
      run.wait = Promise.resolve(0);
    });
}
