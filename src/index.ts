// src/index.ts
// Public API: build, check and preview with the CLI's defaults; the route table evaluator and the reference answers.

import { build as buildSite, buildIfChanged } from "./pipeline/pipeline.js";
import { compile } from "./pipeline/compile.js";
import type { BuildOptions as CoreBuildOptions, BuildResult, UpToDateResult } from "./pipeline/options.js";
import { ContentError, type Diagnostic } from "./errors.js";
import type { HostName } from "./hosts/index.js";
import { startPreview, type Preview } from "./preview/server.js";

export interface BuildOptions {
  /** Content folder. Default "content". */
  content?: string;
  /** Output folder: the public site, updated in place by a later build. Default "dist". */
  out?: string;
  /** Public https URL of the site; overrides manifest.json base_url. */
  baseUrl?: string;
  /** Warnings fail the build like errors. Default false. */
  strict?: boolean;
  /** Hosts whose config files are written. Default every host. */
  hosts?: readonly HostName[];
  /** SOURCE_DATE_EPOCH (seconds) for a reproducible build. Default the environment's SOURCE_DATE_EPOCH. */
  sourceDateEpoch?: string;
  /** Write nothing when `out` was built from exactly these inputs (what the CLI does without --force). Default false. */
  ifChanged?: boolean;
  /** Aborts the build; the previous output is kept. */
  signal?: AbortSignal;
  /** Glob patterns of files in the published folders the build skips. Default: .DS_Store, Thumbs.db, *~, *.swp, .#*. */
  exclude?: readonly string[];
}

export type CheckOptions = Pick<
  BuildOptions,
  "content" | "baseUrl" | "strict" | "hosts" | "sourceDateEpoch" | "exclude"
>;

/** `exclude` reaches the content reader through the build's read options (src/pipeline/options.ts). */

export interface CheckResult {
  /** No errors (under `strict`, no warnings either). */
  ok: boolean;
  /** Every problem found, with file, JSON pointer and line:column. */
  diagnostics: Diagnostic[];
  /** Answers, route rules and files of the output folder a build would write, as build counts them (0 when the
   * content has errors). */
  counts: { answers: number; rules: number; files: number };
}

export interface PreviewOptions {
  /** Built site folder. Default "dist". */
  dir?: string;
  /** Port; 0 takes any free port. Default 8080. */
  port?: number;
  /** Address to listen on. Default "127.0.0.1". */
  host?: string;
  /**
   * The host to answer as, its fallbacks included: one the build was written for ("nginx", "netlify", …), or
   * "route-table" (the route table exactly). Default: the build's first edge host, else its first static host.
   */
  as?: string;
  /** Answer as the build's first edge host (the request-time handler). */
  edge?: boolean;
}

function coreOptions(options: BuildOptions): CoreBuildOptions {
  return {
    content: options.content ?? "content",
    out: options.out ?? "dist",
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
    ...(options.strict !== undefined ? { strict: options.strict } : {}),
    ...(options.hosts !== undefined ? { hosts: options.hosts } : {}),
    ...(options.exclude !== undefined ? { exclude: options.exclude } : {}),
    ...(options.sourceDateEpoch !== undefined ? { sourceDateEpoch: options.sourceDateEpoch } : {}),
    ...(options.signal !== undefined ? { write: { signal: options.signal } } : {}),
  };
}

/**
 * Validates the content and writes the site. Rejects with a ContentError (its `diagnostics` list every problem) when
 * the content has errors, a UsageError for impossible options; the previous output is then untouched.
 */
export function build(options?: BuildOptions & { ifChanged?: false }): Promise<BuildResult>;
export function build(options: BuildOptions & { ifChanged: true }): Promise<BuildResult | UpToDateResult>;
export function build(options: BuildOptions = {}): Promise<BuildResult | UpToDateResult> {
  return options.ifChanged ? buildIfChanged(coreOptions(options)) : buildSite(coreOptions(options));
}

/** Validates the content and computes everything a build would write, writing nothing. */
export async function check(options: CheckOptions = {}): Promise<CheckResult> {
  try {
    const result = await compile({ ...coreOptions(options), content: options.content ?? "content" });
    return {
      ok: !result.diagnostics.some((d) => d.severity === "error"),
      diagnostics: result.diagnostics,
      counts: {
        answers: result.routes.files.size,
        rules: result.routes.table.rules.length,
        files: result.site.length,
      },
    };
  } catch (error) {
    if (error instanceof ContentError)
      return { ok: false, diagnostics: error.diagnostics, counts: { answers: 0, rules: 0, files: 0 } };
    throw error;
  }
}

/** Serves a built site as one of its hosts answers it (`as`); `close()` stops it. */
export function preview(options: PreviewOptions = {}): Promise<Preview> {
  return startPreview({
    dir: options.dir ?? "dist",
    port: options.port ?? 8080,
    host: options.host ?? "127.0.0.1",
    ...(options.as === undefined ? {} : { as: options.as }),
    edge: options.edge === true,
  });
}

export type { BuildResult, UpToDateResult } from "./pipeline/options.js";
export { startPreview, createPreviewHandler, type Preview } from "./preview/server.js";
export * from "./routes/route-table.js";
export { answer, answerHeaders, answerText, type Answer, type Query } from "./php/answers.js";
export { versionCompare } from "./model/version-compare.js";
export { BuildError, ContentError, UsageError, formatError, type Diagnostic } from "./errors.js";
export { HOST_NAMES, type HostName } from "./hosts/index.js";
