// src/cli/verify.ts
// `build-index-site verify <url> [--dir dist]`: does a deployed site (or the PHP service it replaces) answer like
// the build? The build is --dir, else the config file's out, else dist. Exit 0 pass, 1 a difference, 2 cannot check
// (a bad flag or config file, an unreachable target, no build), 130 Ctrl-C.

import { InvalidArgumentError, type Command } from "commander";
import { baseUrlProblem } from "../content/base-url.js";
import { formatError, UsageError } from "../errors.js";
import { DEFAULT_LIMIT } from "../verify/requests.js";
import type { VerifyReport } from "../verify/run.js";
import { optionsReadingSite } from "./options.js";
import { colorErr, type Io } from "./output.js";
import { flag } from "./shared.js";

interface VerifyFlags {
  config?: string;
  dir?: string;
  concurrency: number;
  timeout: number;
  header?: string[];
  sample?: number;
  seed: number;
  show: number;
  json?: boolean;
  strict?: boolean;
  reference?: boolean;
  baseUrl?: string;
}

const whole =
  (min: number) =>
  (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < min)
      throw new InvalidArgumentError(`must be a whole number of at least ${min}.`);
    return Number(value);
  };
const seconds = (value: string): number => {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || n <= 0) throw new InvalidArgumentError("must be a number of seconds above 0.");
  return n;
};
const header = (value: string, previous: string[] | undefined): string[] => {
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+:/.test(value))
    throw new InvalidArgumentError("must be Name:value (for example Authorization:Bearer x).");
  // What Node's HTTP client refuses in a value (RFC 9110 field-value): CR, LF, other controls, beyond U+00FF.
  if (/[^\t\x20-\x7e\x80-\xff]/.test(value.slice(value.indexOf(":") + 1)))
    throw new UsageError(
      `--header ${JSON.stringify(value)} must have a value without line breaks, control characters or characters beyond U+00FF.`,
    );
  return [...(previous ?? []), value];
};

/**
 * A password in the URL never reaches a report or a CI log: the URL's user and password become the Basic
 * Authorization header that Node would have sent for them (unless --header gives one), and leave the URL.
 */
function credentialsToHeader(url: URL, headers: Record<string, string>): void {
  if (url.username === "" && url.password === "") return;
  const user = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  if (!Object.keys(headers).some((name) => name.toLowerCase() === "authorization"))
    headers.Authorization = `Basic ${Buffer.from(user, "utf8").toString("base64")}`;
  url.username = "";
  url.password = "";
}

/** "https://user:secret@host" → "https://user:***@host", for messages about a URL that did not parse. */
const hidePassword = (raw: string): string => raw.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/@:]*):[^/@]*@/i, "$1:***@");

/** `verify --base-url`: the build's check, http allowed (a local deploy), a trailing slash forgiven. */
function verifyBaseUrl(raw: string): string {
  const url = raw.replace(/\/+$/, "");
  const wrong = baseUrlProblem(url, { http: true });
  if (wrong !== null) throw new UsageError(`--base-url ${JSON.stringify(hidePassword(raw))} cannot be used: ${wrong}.`);
  return url;
}

function targetUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(
      `${hidePassword(raw)} is not a URL.`,
      "Give the site's address, for example https://icons.example.org/.",
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new UsageError(`${hidePassword(raw)} is not an http or https URL.`);
  url.search = "";
  url.hash = "";
  return url;
}

/** Registers `verify` on the program; the exit code goes to `run.wait`. */
export function registerVerify(program: Command, io: Io, run: { wait: Promise<number> | null; json: boolean }): void {
  program
    .command("verify")
    .description(
      "Ask a deployed site, or the PHP service it replaces, every request the build knows and report each difference " +
        "(exit 0 all match, 1 a difference, 2 cannot check).",
    )
    .argument("<url>", "the site (or PHP service) to check, e.g. https://icons.example.org/")
    .addOption(flag.config())
    .option("--dir <dir>", "the build to compare with, as the config file's out names it (default: dist)")
    .option("--concurrency <n>", "requests at once", whole(1), 8)
    .option("--timeout <seconds>", "time-out per request", seconds, 10)
    .option("--header <name:value>", "send this header with every request (repeatable)", header)
    .option(
      "--sample <n>",
      `check a deterministic sample of n requests (default: all, up to ${DEFAULT_LIMIT})`,
      whole(1),
    )
    .option("--seed <s>", "the sample's seed", whole(0), 1)
    .option("--show <n>", "differences to print", whole(0), 10)
    .option("--strict", "also fail on beyond-domain differences that no documented static fallback explains")
    .option(
      "--reference",
      "the target is the PHP service (detected from X-Powered-By otherwise): plain files by bytes and status only",
    )
    .option("--base-url <url>", "the base URL absolute URLs are compared against (default: the build's)")
    .option("--json", "print the full report as JSON on stdout")
    .action((raw: string, opts: VerifyFlags) => runVerify(raw, opts, io, run));
}

/** The action: checks the target against the build and prints the report; the exit code goes to `run.wait`. */
async function runVerify(
  raw: string,
  opts: VerifyFlags,
  io: Io,
  run: { wait: Promise<number> | null; json: boolean },
): Promise<void> {
  run.json = opts.json === true;
  const target = targetUrl(raw);
  const { out: dir } = optionsReadingSite({
    ...(opts.config === undefined ? {} : { config: opts.config }),
    ...(opts.dir === undefined ? {} : { dir: opts.dir }),
  });
  const headers: Record<string, string> = Object.fromEntries(
    (opts.header ?? []).map((h) => [h.slice(0, h.indexOf(":")).trim(), h.slice(h.indexOf(":") + 1).trim()]),
  );
  credentialsToHeader(target, headers);
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  process.once("SIGINT", onSignal);
  let last = 0;
  const progress = io.progress;
  let report: VerifyReport;
  // The checker (HTTP clients, the build's reader) loads only when verify runs.
  const [{ verify }, { TargetError }, { NotABuildError }, { reportLines }] = await Promise.all([
    import("../verify/run.js"),
    import("../verify/http.js"),
    import("../layout/read-build.js"),
    import("../verify/report.js"),
  ]);
  try {
    report = await verify({
      dir,
      target,
      concurrency: opts.concurrency,
      timeoutMs: opts.timeout * 1000,
      headers,
      seed: opts.seed,
      strict: opts.strict === true,
      signal: controller.signal,
      ...(opts.sample !== undefined ? { sample: opts.sample } : {}),
      ...(opts.reference === true ? { reference: true } : {}),
      ...(opts.baseUrl !== undefined ? { baseUrl: verifyBaseUrl(opts.baseUrl) } : {}),
      ...(progress !== undefined && !run.json
        ? {
            onProgress: (done: number, total: number) => {
              const now = performance.now();
              if (now - last < 100 && done < total) return;
              last = now;
              progress.draw(`Verifying ${target.host}: ${done}/${total}`);
            },
          }
        : {}),
    });
  } catch (error) {
    if (controller.signal.aborted) {
      io.err("Stopped before the first answer: nothing was checked.");
      run.wait = Promise.resolve(130);
      return;
    }
    if (!(error instanceof TargetError) && !(error instanceof NotABuildError)) throw error;
    const line = error instanceof TargetError ? `Cannot check ${target.href}: ${error.message}` : formatError(error);
    if (run.json) io.out(JSON.stringify({ ok: false, exitCode: 2, error: error.message }, null, 2));
    else io.err(colorErr(io, "red", line));
    run.wait = Promise.resolve(2);
    return;
  } finally {
    process.off("SIGINT", onSignal);
    progress?.clear();
  }
  if (run.json) io.out(JSON.stringify(report, null, 2));
  else for (const line of reportLines(report, opts.show)) io.out(line);
  run.wait = Promise.resolve(report.stopped ? 130 : report.exitCode);
}
