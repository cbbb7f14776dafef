// src/build.ts
// The one orchestrator: read content → model → answers and route table → output plan → atomic write.

import path from "node:path";
import { checkHeaderGroups } from "./api/header-groups.js";
import { readContent } from "./content/read-content.js";
import { BuildError, ContentError, UsageError, type Diagnostic } from "./errors.js";
import { buildModel } from "./model/build-model.js";
import { buildClock } from "./model/time.js";
import type { SiteModel } from "./model/types.js";
import { caseCollisions, planOutput, type OutputFile } from "./output/plan.js";
import { writeOutput } from "./output/write-output.js";
import { buildRoutes, type BuiltRoutes } from "./routes/build-routes.js";

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
  const content = path.resolve(contentDir);
  const out = path.resolve(outDir);
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

/** Reads and checks the content and computes every answer, without writing anything. */
export async function compile(options: Pick<BuildOptions, "content" | "baseUrl" | "sourceDateEpoch" | "nowMs">): Promise<{
  model: SiteModel; routes: BuiltRoutes; files: OutputFile[]; diagnostics: Diagnostic[];
}> {
  const raw = await readContent(options.content);
  const clock = buildClock(options.sourceDateEpoch ?? process.env.SOURCE_DATE_EPOCH, options.nowMs ?? Date.now());
  const { model, diagnostics } = buildModel(raw, { clock, ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}) });
  if (model === null || diagnostics.some((d) => d.severity === "error")) throw new ContentError(diagnostics);
  const routes = buildRoutes(model);
  checkHeaderGroups(routes.files);
  const files = planOutput(routes, raw.published);
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
  const written = await writeOutput(options.out, files);
  return {
    outDir: path.resolve(options.out),
    model,
    routes,
    diagnostics,
    counts: { answers: routes.files.size, rules: routes.table.rules.length, files: written.files, bytes: written.bytes },
  };
}
