// bench/options.mjs
// `npm run bench`'s options: its usage text, and the parse of its arguments (util.parseArgs, strict). Unknown flags
// and bad values exit 2 before anything runs; --help prints the usage and exits 0.
// I/O: prints the usage or the reason for a refusal, and exits.

import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { CACHE_DIR } from "./generate-content.mjs";
import { PAGE } from "./paths.mjs";

const USAGE = `Usage: npm run bench -- [options]   (or: node bench/run.mjs [options])

Full builds, no-op and one-icon rebuilds, preview and nginx throughput; writes bench/results/latest.{md,json}
and then docs/benchmark.md from them (bench/benchmark.template.md).
A full run builds synthetic content at x1, x10 and x100 (x100 writes about 0.5 M files, ~2 GB under
${CACHE_DIR}) and takes several minutes.

Options:
  --quick            scales 1 and 10, fewer runs, 3 s load runs (about a minute)
  --scales <list>    synthetic scales, comma-separated positive integers (default 1,10,100; --quick: 1,10)
  --runs <n>         build runs per row (default: 10 at real size, 5 at x10, 3 at x100); pairs per Hugo row
  --duration <s>     seconds per load run (default 5; --quick: 3)
  --no-preview       skip the preview throughput rows
  --no-nginx         skip the nginx rows
  --no-builds        skip the build rows (only the preview and nginx rows, and the edge rows unless --no-edge)
  --no-hugo          skip the rows against Hugo (bench/hugo.mjs: the real fixture with the default hosts and with
                     --hosts nginx, and x10, each in alternating pairs with the Hugo peer on tmpfs)
  --only hugo        run only the rows against Hugo (with x100 among --scales: also the x100 build against cp -a
                     of what it wrote, and its peak RSS), write bench/results/hugo.{md,json} and the page
                     from them (its other rows from the latest earlier run), and nothing else
  --results <name>   write bench/results/<name>.{md,json} (default: latest)
  --no-edge          skip the edge rows (bench/edge.mjs: handler µs per request; bench/edge-workerd.mjs:
                     workerd req/s, handler vs static assets; bench/edge-hosts.mjs: deployed handler sizes;
                     bench/edge-data.mjs: the lean-deploy targets; bench/edge-parity.mjs: the handler against
                     the precomputed answers at the largest scale), verify against nginx (bench/verify-nginx.mjs;
                     with ×100 also its peak RSS with --sample 20000) and the catalogue page in chromium on the real
                     fixture and, with ×100, at ×100 (bench/catalogue.mjs: first paint, first screen, ready and search ms)
  --page <file>      write the page there instead of docs/benchmark.md
  --no-page          do not write the page at the end of the run (a --quick run writes it only with --page)
  --page-from <json> run nothing: write the page (docs/benchmark.md, or --page) from a results file a run wrote,
                     e.g. bench/results/latest.json
  -h, --help         print this help and exit
`;

/** Prints `bench: <message>` and exits 2: nothing has run yet. */
function refuse(message) {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(2);
}

/** A flag's value as a positive number (integer unless `fraction`), or exit 2 naming the flag. */
function positive(name, text, fraction = false) {
  const n = Number(text);
  if (
    text === undefined ||
    text.trim() === "" ||
    !Number.isFinite(n) ||
    n <= 0 ||
    (!fraction && !Number.isInteger(n))
  ) {
    refuse(`--${name} must be a positive ${fraction ? "number" : "whole number"} (got ${JSON.stringify(text)}).`);
  }
  return n;
}

function parseFlags(args) {
  try {
    return parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        quick: { type: "boolean" },
        scales: { type: "string" },
        runs: { type: "string" },
        duration: { type: "string" },
        "no-preview": { type: "boolean" },
        "no-nginx": { type: "boolean" },
        "no-edge": { type: "boolean" },
        "no-builds": { type: "boolean" },
        "no-hugo": { type: "boolean" },
        only: { type: "string" },
        results: { type: "string" },
        page: { type: "string" },
        "no-page": { type: "boolean" },
        "page-from": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (error) {
    return refuse(`${error.message}\nnpm run bench -- --help lists the options.`);
  }
}

/** The run's settings from its arguments (process.argv.slice(2)), or exit: 0 after --help, 2 on a bad argument. */
export function parseOptions(args) {
  const parsed = parseFlags(args);
  if (parsed.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const quick = parsed.quick === true;
  const scales = (parsed.scales ?? (quick ? "1,10" : "1,10,100")).split(",").map((s) => positive("scales", s));
  const runsOverride = parsed.runs === undefined ? undefined : positive("runs", parsed.runs);
  const loadSeconds = positive("duration", parsed.duration ?? (quick ? "3" : "5"), true);
  const resultsName = parsed.results ?? "latest";
  if (!/^[A-Za-z0-9._-]+$/.test(resultsName))
    refuse(`--results must be a plain file name (got ${JSON.stringify(resultsName)}).`);
  const pageFrom = parsed["page-from"] === undefined ? undefined : path.resolve(parsed["page-from"]);
  if (pageFrom !== undefined && !existsSync(pageFrom))
    refuse(`--page-from: no results file ${JSON.stringify(parsed["page-from"])}.`);
  if (pageFrom !== undefined && parsed["no-page"] === true) refuse("--page-from writes the page: not with --no-page.");
  if (parsed.only !== undefined && parsed.only !== "hugo")
    refuse(`--only takes hugo (got ${JSON.stringify(parsed.only)}).`);
  return {
    args,
    quick,
    scales,
    loadSeconds,
    resultsName,
    pageFrom,
    // A --quick run's figures are not the project's standing: it writes the page only when --page names one.
    page:
      parsed["no-page"] === true || (quick && parsed.page === undefined && pageFrom === undefined)
        ? null
        : path.resolve(parsed.page ?? PAGE),
    builds: parsed["no-builds"] !== true,
    preview: parsed["no-preview"] !== true,
    nginx: parsed["no-nginx"] !== true,
    edge: parsed["no-edge"] !== true,
    hugo: parsed["no-hugo"] !== true,
    only: parsed.only,
    /** --runs as given (bench/hugo.mjs takes it as its pairs per row). */
    runs: runsOverride,
    /** Medians of at least 10 runs at real size and 3 at ×100 (honest figures); --quick: 3. */
    runsFor: (files) => Number(runsOverride ?? (quick || files > 200_000 ? 3 : files > 60_000 ? 5 : 10)),
  };
}
