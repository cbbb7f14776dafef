// src/build.ts
// The one orchestrator: read content → model → answers and route table → output plan → atomic write.

import { realpathSync } from "node:fs";
import path from "node:path";
import { checkHeaderGroups } from "./api/header-groups.js";
import { readContent } from "./content/read-content.js";
import { BuildError, ContentError, UsageError, type Diagnostic } from "./errors.js";
import { buildModel } from "./model/build-model.js";
import { buildClock } from "./model/time.js";
import type { SiteModel } from "./model/types.js";
import { caseCollisions, planOutput, type OutputFile } from "./output/plan.js";
import { writeOutput, type WriteOptions } from "./output/write-output.js";
import { buildRoutes, type BuiltRoutes } from "./routes/build-routes.js";
import { renderHosts, type HostName } from "./hosts/index.js";

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

/** Reads and checks the content and computes every answer, without writing anything. */
export async function compile(options: Pick<BuildOptions, "content" | "baseUrl" | "sourceDateEpoch" | "nowMs" | "strict" | "hosts">): Promise<{
  model: SiteModel; routes: BuiltRoutes; files: OutputFile[]; diagnostics: Diagnostic[];
}> {
  const raw = await readContent(options.content);
  const clock = buildClock(options.sourceDateEpoch ?? process.env.SOURCE_DATE_EPOCH, options.nowMs ?? Date.now());
  const result = buildModel(raw, { clock, ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}) });
  const { model } = result;
  const diagnostics = applyStrict(result.diagnostics, options.strict);
  if (model === null || diagnostics.some((d) => d.severity === "error")) throw new ContentError(diagnostics);
  const routes = buildRoutes(model);
  checkHeaderGroups(routes.files);
  const files = planOutput(routes, raw.published, renderHosts(routes.table, options.hosts));
  const collisions = caseCollisions(files);
  if (collisions.length > 0) {
    throw new BuildError("CASE_COLLISION",
      `These output files differ only in case and would overwrite each other on macOS or Windows: ${collisions.map((c) => c.join(" / ")).join("; ")}.`,
      { hint: "Rename the content files or keys so that they differ in more than case." });
  }
  return { model, routes, files, diagnostics };
}

export async function build(options: BuildOptions): Promise<BuildResult> {
  checkFolders(options.content, options.out);
  const { model, routes, files, diagnostics } = await compile(options);
  const written = await writeOutput(options.out, files, options.write);
  return {
    outDir: path.resolve(options.out),
    model,
    routes,
    diagnostics,
    counts: { answers: routes.files.size, rules: routes.table.rules.length, files: written.files, bytes: written.bytes },
  };
}
