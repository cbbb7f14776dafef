// src/pipeline/options.ts
// What a build is asked to do (BuildOptions) and what it answers, and the options narrowed to what each stage needs.

import type { ContentCache } from "../content/content-cache.js";
import type { KeySettings } from "../content/inputs-key.js";
import type { ParsedFiles } from "../content/load-content.js";
import type { ReadOptions } from "../content/read-content.js";
import type { Diagnostic } from "../errors.js";
import type { HostName } from "../hosts/index.js";
import type { Plan } from "../hosts/limits.js";
import type { KeptHost } from "../layout/last-build.js";
import { buildClock } from "../model/time.js";
import type { SiteModel } from "../model/types.js";
import type { ClaimOptions } from "../output/claim/claim.js";
import type { PublishOptions } from "../output/publish.js";
import type { WriteOptions } from "../output/write/options.js";
import type { BuiltRoutes } from "../routes/build-routes.js";
import type { BuildMemo } from "./memo.js";

export interface BuildOptions {
  /** Content folder (default "content"). */
  content: string;
  /** Output folder (default "dist"). */
  out: string;
  /** Overrides manifest.base_url. */
  baseUrl?: string;
  /** `--base-url request`: the edge hosts' handler answers with each request's origin (src/edge/data-files.ts). */
  requestOrigin?: boolean;
  /** SOURCE_DATE_EPOCH (seconds) for reproducible builds; defaults to the environment's. */
  sourceDateEpoch?: string;
  /** Clock for the build time when SOURCE_DATE_EPOCH is not set (tests). */
  nowMs?: number;
  /** Warnings fail the build like errors (--strict). */
  strict?: boolean;
  /** Hosts whose files are written (--hosts); default DEFAULT_HOSTS (every host but the fallbacks). */
  hosts?: readonly HostName[];
  /** Glob patterns of content files the build skips (the config file's `exclude`); default editor and OS files. */
  exclude?: readonly string[];
  /** The row of host limits to check against (--plan): "free" (default) or "paid". */
  plan?: Plan;
  /** Write the icon catalogue (dist/index.html and dist/catalogue/, src/catalogue); default true (--no-catalogue). */
  catalogue?: boolean;
  /** Write every folder whole (--force), never in place. */
  force?: boolean;
  /** No later build reads this --out (--once: a CI build from a fresh clone): the records that serve only the next
   * build's incremental work (the content cache, the parses' record, the folders' record, answer-inputs.json) are
   * not written. */
  once?: boolean;
  /** Build in place at the time of the build in --out (its stamp's): an --out up to date is built again byte for byte,
   * and nothing is written (`dev` fills its memory so). */
  again?: boolean;
  /** The facts of the content's files (src/content/content-cache.ts) to start from; by default the memo's, else those
   * the records keep. */
  cache?: ContentCache;
  /** What `dev` keeps in memory between builds (BuildMemo). */
  memo?: BuildMemo;
  /** Replace an existing --out that this tool did not write (--replace-out); refused otherwise (exit 2). */
  replaceOut?: boolean;
  /** How the output is written: an abort signal (Ctrl-C), injected file-system methods, a per-file hook (tests). */
  write?: WriteOptions;
  /** Told how the build is written (in place or in full), before it writes; told "in place" already once --out is
   * claimed when it holds this tool's build of the same hosts (an update in place is then likely). */
  onMode?: PublishOptions["onMode"];
}

export interface BuildResult {
  outDir: string;
  model: SiteModel;
  routes: BuiltRoutes;
  diagnostics: Diagnostic[];
  /** Answer files (JSON responses), rules in the route table, files and bytes written in all. */
  counts: { answers: number; rules: number; files: number; bytes: number };
  /** How the build was written: in place (files written or removed across every folder, and --out's paths among
   * them), or in full (every file written; no paths listed). */
  changes: { mode: "full" | "in place"; written: number; removed: number; sitePaths: string[] };
}

/** `buildIfChanged` found the output already built from exactly these inputs, and wrote nothing. */
export interface UpToDateResult {
  outDir: string;
  /** Warnings of the build that wrote the output (`check` lists them). */
  warnings: number;
  counts: { answers: number; rules: number };
}

/** What the compile stage takes (src/pipeline/compile-site.ts): the options it reads, and what the last build kept. */
export type CompileOptions = Pick<
  BuildOptions,
  | "content"
  | "baseUrl"
  | "requestOrigin"
  | "sourceDateEpoch"
  | "nowMs"
  | "strict"
  | "hosts"
  | "exclude"
  | "plan"
  | "catalogue"
  | "memo"
> & {
  /** The hosts' files as the last build in the same place wrote them, when made from `key` (src/hosts/record.ts). */
  keptHosts?: (key: string) => KeptHost[] | null;
  /** The prints of the last build's catalogue pages, as its records hold them (src/catalogue/index.ts). */
  lastCataloguePrints?: () => string | null;
  /** The JSON files' parses kept from earlier builds (src/content/load-content.ts), and what to do with them once the
   * model is built, when they changed (make their record): they are then let go, not held while the build is
   * written. */
  parsed?: ParsedFiles;
  saveParsed?: (parsed: ParsedFiles) => void;
  /** The name of --out (configs beside it name the records' folder); "dist" when not given. */
  out?: string;
};

/** The options each stage of the build takes, read from BuildOptions once, before any stage runs. */
export interface StageOptions {
  claim: ClaimOptions;
  read: ReadOptions;
  /** Where the content's facts start from (src/content/content-cache.ts: ContentCache.open): none with --force (every
   * file is read), else the one given, dev's, or the one the records keep. */
  cache: { fresh: boolean; start?: ContentCache };
  key: KeySettings;
  /** SOURCE_DATE_EPOCH in seconds (checked: a UsageError when it is not a time), when it is set. */
  epoch: number | undefined;
  /** Whether the records and --out may replace what this tool did not write (--replace-out). */
  replaceOut: boolean;
}

/**
 * Narrows the options for each stage, refusing (exit 2, before anything is touched) a SOURCE_DATE_EPOCH that is no
 * time. The claim (src/output/claim/claim.ts) then refuses an output folder that would overwrite the content or more.
 */
export function stageOptions(options: BuildOptions): StageOptions {
  const epoch = epochSeconds(options);
  const replaceOut = options.replaceOut === true || options.write?.replaceOut === true;
  return {
    claim: {
      out: options.out,
      content: options.content,
      replaceOut,
      label: options.write?.label ?? options.out,
      ...(options.write?.methods === undefined ? {} : { methods: options.write.methods }),
    },
    read: readOptions({ exclude: options.exclude, memo: options.memo }),
    cache: cacheStart(options),
    key: keySettings(options),
    epoch,
    replaceOut,
  };
}

export const readOptions = (options: Pick<BuildOptions, "exclude" | "cache" | "memo">): ReadOptions => ({
  ...(options.exclude === undefined ? {} : { exclude: options.exclude }),
  ...(options.cache === undefined ? {} : { cache: options.cache }),
  ...(options.memo === undefined ? {} : { listings: options.memo.listings }),
});

function cacheStart(options: BuildOptions): StageOptions["cache"] {
  const start = options.cache ?? options.memo?.contentCache ?? undefined;
  return { fresh: options.force === true, ...(start === undefined ? {} : { start }) };
}

function keySettings(options: BuildOptions): KeySettings {
  return {
    baseUrl: options.baseUrl,
    ...(options.requestOrigin === true ? { requestOrigin: true as const } : {}),
    sourceDateEpoch: sourceDateEpoch(options),
    hosts: options.hosts === undefined ? ["*"] : [...new Set(options.hosts)].sort(),
    plan: options.plan ?? "free",
    ...(options.catalogue === false ? { catalogue: false } : {}),
  };
}

export const sourceDateEpoch = (options: Pick<BuildOptions, "sourceDateEpoch">): string | undefined =>
  options.sourceDateEpoch ?? process.env.SOURCE_DATE_EPOCH;

/** SOURCE_DATE_EPOCH as seconds (checked: a UsageError when it is not a time), or undefined when it is not set. */
function epochSeconds(options: Pick<BuildOptions, "sourceDateEpoch">): number | undefined {
  const epoch = sourceDateEpoch(options);
  return epoch === undefined || epoch === "" ? undefined : buildClock(epoch, 0).now;
}

/** --strict: every warning counts as an error. */
export function applyStrict(diagnostics: Diagnostic[], strict: boolean | undefined): Diagnostic[] {
  return strict
    ? diagnostics.map((d) => (d.severity === "warning" ? { ...d, severity: "error" as const } : d))
    : diagnostics;
}
