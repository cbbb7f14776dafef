// src/build.ts
// The one orchestrator: read content → model → answers and route table → output plan → atomic write.

import { realpathSync } from "node:fs";
import path from "node:path";
import { readContent, readIconBytes, type RawContent } from "./content/read-content.js";
import { BuildError, ContentError, HostLimitError, UsageError, type Diagnostic } from "./errors.js";
import type { HostName } from "./hosts/index.js";
import { buildClock } from "./model/time.js";
import type { SiteModel } from "./model/types.js";
import type { OutputFile } from "./output/plan.js";
import { INPUTS_FILE, inputsKey, printStamp, upToDate, type KeySettings } from "./output/up-to-date.js";
import { claimOutput, writeOutput, type OutputClaim, type WriteOptions } from "./output/write-output.js";
import type { BuiltRoutes } from "./routes/build-routes.js";

// The modules that compute the site (ajv, the model, routes, host printers) load only when a build needs them, so
// that a rebuild with nothing to do stays cheap.
const pipeline = () => Promise.all([
  import("./content/load-content.js"), import("./routes/build-routes.js"), import("./api/header-groups.js"),
  import("./output/plan.js"), import("./hosts/index.js"),
]);

export interface BuildOptions {
  /** Content folder (default "content"). */
  content: string;
  /** Output folder (default "dist"). */
  out: string;
  /** Overrides manifest.base_url. */
  baseUrl?: string;
  /** SOURCE_DATE_EPOCH (seconds) for reproducible builds; defaults to the environment's. */
  sourceDateEpoch?: string;
  /** Clock for the build time when SOURCE_DATE_EPOCH is not set (tests). */
  nowMs?: number;
  /** Warnings fail the build like errors (--strict). */
  strict?: boolean;
  /** Hosts whose config files are written (--hosts); default every host. */
  hosts?: readonly HostName[];
  /** Replace an existing --out that this tool did not write (--replace-out); refused otherwise (exit 2). */
  replaceOut?: boolean;
  /** How the output is written: an abort signal (Ctrl-C), injected file-system methods, a per-file hook (tests). */
  write?: WriteOptions;
}

export interface BuildResult {
  outDir: string;
  model: SiteModel;
  routes: BuiltRoutes;
  diagnostics: Diagnostic[];
  /** Answer files (JSON responses), rules in the route table, files and bytes written in all. */
  counts: { answers: number; rules: number; files: number; bytes: number };
}

/** `buildIfChanged` found the output already built from exactly these inputs, and wrote nothing. */
export interface UpToDateResult {
  outDir: string;
  /** Warnings of the build that wrote the output (`check` lists them). */
  warnings: number;
  counts: { answers: number; rules: number };
}

/** Refuses output folders that would overwrite the content or something much larger. */
export function checkFolders(contentDir: string, outDir: string): void {
  const content = realNearest(contentDir);
  const out = realNearest(outDir);
  const inside = (child: string, parent: string): boolean => child === parent || child.startsWith(parent + path.sep);
  if (out === path.parse(out).root) throw new UsageError(`--out ${outDir} is the file system root.`, "Choose a folder of its own, e.g. dist.");
  if (inside(content, out)) {
    throw new UsageError(`--out ${outDir} contains the content folder ${contentDir}: the build replaces the whole output folder.`,
      "Choose a folder of its own, e.g. dist.");
  }
  if (inside(out, content)) {
    throw new UsageError(`--out ${outDir} is inside the content folder ${contentDir}.`, "Choose a folder outside the content, e.g. dist.");
  }
}

/** The real path of a folder, through symlinks, also when only some leading part of it exists yet. */
function realNearest(dir: string): string {
  const abs = path.resolve(dir);
  let head = abs;
  const tail: string[] = [];
  for (;;) {
    try {
      return path.join(realpathSync.native(head), ...tail);
    } catch {
      const parent = path.dirname(head);
      if (parent === head) return abs;
      tail.unshift(path.basename(head));
      head = parent;
    }
  }
}

/** --strict: every warning counts as an error. */
export function applyStrict(diagnostics: Diagnostic[], strict: boolean | undefined): Diagnostic[] {
  return strict ? diagnostics.map((d) => (d.severity === "warning" ? { ...d, severity: "error" as const } : d)) : diagnostics;
}

type CompileOptions = Pick<BuildOptions, "content" | "baseUrl" | "sourceDateEpoch" | "nowMs" | "strict" | "hosts">;

export interface Compiled {
  model: SiteModel;
  routes: BuiltRoutes;
  files: OutputFile[];
  diagnostics: Diagnostic[];
}

/** Reads and checks the content and computes every answer, without writing anything. */
export async function compile(options: CompileOptions): Promise<Compiled> {
  return compileContent(await readContent(options.content), options);
}

async function compileContent(raw: RawContent, options: CompileOptions): Promise<Compiled> {
  const [{ buildModel }, { buildRoutes }, { checkHeaderGroups }, { caseCollisions, planOutput }, { renderHosts }] = await pipeline();
  const clock = buildClock(sourceDateEpoch(options), options.nowMs ?? Date.now());
  const result = buildModel(raw, { clock, ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}) });
  const { model } = result;
  const diagnostics = applyStrict(result.diagnostics, options.strict);
  if (model === null || diagnostics.some((d) => d.severity === "error")) throw new ContentError(diagnostics);
  const routes = buildRoutes(model);
  checkHeaderGroups(routes.files);
  let hostFiles: ReturnType<typeof renderHosts>;
  try {
    hostFiles = renderHosts(routes.table, options.hosts);
  } catch (error) {
    if (!(error instanceof HostLimitError)) throw error;
    throw new ContentError([...diagnostics, { severity: "error", code: "HOST_LIMIT", file: `--hosts ${error.host}`, message: error.message,
      hint: error.hint ?? `Build without ${error.host} (--hosts), or use fewer icons, extensions or versions.` }]);
  }
  const files = planOutput(routes, raw.published, hostFiles);
  const collisions = caseCollisions(files);
  if (collisions.length > 0) {
    throw new BuildError("CASE_COLLISION",
      `These output files differ only in case and would overwrite each other on macOS or Windows: ${collisions.map((c) => c.join(" / ")).join("; ")}.`,
      { hint: "Rename the content files or keys so that they differ in more than case." });
  }
  return { model, routes, files, diagnostics };
}

const sourceDateEpoch = (options: Pick<BuildOptions, "sourceDateEpoch">): string | undefined =>
  options.sourceDateEpoch ?? process.env.SOURCE_DATE_EPOCH;

/** SOURCE_DATE_EPOCH as seconds (checked: a UsageError when it is not a time), or undefined when it is not set. */
function epochSeconds(options: Pick<BuildOptions, "sourceDateEpoch">): number | undefined {
  const epoch = sourceDateEpoch(options);
  return epoch === undefined || epoch === "" ? undefined : buildClock(epoch, 0).now;
}

/** Checks, locks and recovers --out before any work (a refused or busy --out exits 2 at once), then runs `work`. */
async function withOutput<T>(options: BuildOptions, work: (claim: OutputClaim) => Promise<T>): Promise<T> {
  checkFolders(options.content, options.out);
  epochSeconds(options);
  const claim = await claimOutput(options.out, {
    ...options.write, label: options.write?.label ?? options.out, replaceOut: options.replaceOut === true || options.write?.replaceOut === true,
  });
  try {
    return await work(claim);
  } finally {
    await claim.release();
  }
}

function keySettings(options: BuildOptions): KeySettings {
  return {
    baseUrl: options.baseUrl,
    sourceDateEpoch: sourceDateEpoch(options),
    strict: options.strict === true,
    hosts: options.hosts === undefined ? ["*"] : [...new Set(options.hosts)].sort(),
  };
}

/** Builds the site into --out (atomically; unchanged files are hard-linked from the previous output). */
export async function build(options: BuildOptions): Promise<BuildResult> {
  return withOutput(options, async (claim) => {
    const raw = await readContent(options.content);
    return buildFrom(raw, options, await inputsKey(raw, keySettings(options)), claim);
  });
}

/**
 * Like build, but does nothing when --out already holds the build of exactly these inputs (content, options and
 * tool unchanged, output intact): what the CLI runs.
 */
export async function buildIfChanged(options: BuildOptions): Promise<BuildResult | UpToDateResult> {
  return withOutput(options, async (claim) => {
    const raw = await readContent(options.content, { iconBytes: false });
    const key = await inputsKey(raw, keySettings(options));
    if (raw.diagnostics.length === 0 && options.write?.reuse !== false) {
      const stamp = await upToDate(claim.target, key, raw, epochSeconds(options));
      if (stamp !== null) {
        return { outDir: path.resolve(options.out), warnings: stamp.warnings, counts: { answers: stamp.answers, rules: stamp.rules } };
      }
    }
    await readIconBytes(raw);
    return buildFrom(raw, options, key, claim);
  });
}

async function buildFrom(raw: RawContent, options: BuildOptions, key: string, claim: OutputClaim): Promise<BuildResult> {
  const { model, routes, files, diagnostics } = await compileContent(raw, options);
  const stamp = printStamp({
    key, warnings: diagnostics.filter((d) => d.severity === "warning").length,
    answers: routes.files.size, rules: routes.table.rules.length,
  });
  const at = files.findIndex((f) => f.path > INPUTS_FILE);
  files.splice(at === -1 ? files.length : at, 0, { path: INPUTS_FILE, data: stamp });
  const epoch = epochSeconds(options);
  const written = await writeOutput(options.out, files, { ...options.write, claim, ...(epoch === undefined ? {} : { sourceDateEpoch: epoch }) });
  return {
    outDir: path.resolve(options.out),
    model,
    routes,
    diagnostics,
    counts: { answers: routes.files.size, rules: routes.table.rules.length, files: written.files, bytes: written.bytes },
  };
}
