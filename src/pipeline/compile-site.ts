// src/pipeline/compile-site.ts
// The compile stage, loaded when a build needs it (compile.ts, publish-build.ts): the content's model, the route
// table, the hosts' files and measures, the catalogue, and the plan of --out's files. Nothing is written here.

import path from "node:path";
import type { RawContent } from "../content/read-content.js";
import { buildModel, ModelParts } from "../content/load-content.js";
import { estimatedCpuMs } from "../edge/cost.js";
import { edgeDataFiles, EdgeDataMemo, entryBundle } from "../edge/index.js";
import { BuildError, ContentError, type Diagnostic } from "../errors.js";
import type { BesideFolder, HostFolder } from "../hosts/index.js";
import { DEFAULT_HOSTS, needsAnswers, needsEdgeData } from "../hosts/names.js";
import { buildClock, type BuildClock } from "../model/time.js";
import type { SiteModel } from "../model/types.js";
import { caseCollisions } from "../output/plan/case-collisions.js";
import type { OutputFile } from "../output/plan/files.js";
import { planSite } from "../output/plan/site.js";
import { checkHeaderGroups } from "../php/header-groups.js";
import { buildRoutes, RoutesMemo, type BuiltRoutes } from "../routes/build-routes.js";
import { mark } from "../timings.js";
import { checkedHosts, hostsOf } from "./hosts.js";
import { applyStrict, sourceDateEpoch, type CompileOptions } from "./options.js";
import { toolFingerprint } from "./up-to-date.js";

export interface Compiled {
  model: SiteModel;
  routes: BuiltRoutes;
  /** The files of --out: the public site. */
  site: OutputFile[];
  /** The content files copied into the site (the preview's static rules list them). */
  published: RawContent["published"];
  /** Each host's own folder in the build's records. */
  hosts: HostFolder[];
  /** Folders the hosts write beside the output folder (`.netlify/v1`, `.vercel/output`, `.wrangler/deploy`). */
  beside: BesideFolder[];
  /** Whether --out holds the answer files (a static host is built). */
  answers: boolean;
  /** The request-time handler the records keep (Cloudflare-shaped), when an edge host is built. */
  handler?: string;
  /** The records' hosts.json: which host wrote which file, and what they were made from (src/hosts/record.ts);
   * printed when asked for (its key hashes the route table: `check` never asks). */
  hostsRecord(): string;
  /** The key in it: of what the hosts' files and the route table are made from (src/hosts/record.ts). */
  hostsKey(): string;
  /** The records' prints of the catalogue's pages, when it is built (src/catalogue/index.ts). */
  cataloguePrints?: string;
  diagnostics: Diagnostic[];
}

/** Computes every file of the build from the content read, writing nothing. */
export async function compileSite(raw: RawContent, options: CompileOptions): Promise<Compiled> {
  const clock = buildClock(sourceDateEpoch(options), options.nowMs ?? Date.now());
  mark("load modules");
  const { model, diagnostics } = modelOf(raw, options, clock);
  mark("model");
  const routes = buildRoutes(
    model,
    options.memo === undefined ? undefined : (options.memo.routes ??= new RoutesMemo()),
  );
  checkHeaderGroups(routes.files.shapes());
  mark("routes");
  const selected = options.hosts ?? DEFAULT_HOSTS;
  const out = path.basename(path.resolve(options.out ?? "dist"));
  const made = hostsOf({ table: routes.table, service: model.service, out }, selected, options, diagnostics);
  const answers = needsAnswers(selected);
  const data = needsEdgeData(selected)
    ? edgeDataFiles(model, {
        requestOrigin: options.requestOrigin === true,
        ...(options.memo === undefined ? {} : { memo: (options.memo.edgeData ??= new EdgeDataMemo()) }),
      })
    : [];
  // What each host uploads of the site: the plain files and the handler's data (an edge host), or every file of
  // --out (a static host serves the answers).
  const siteFiles = (name: string): number =>
    raw.published.length + (needsEdgeData([name]) ? data.length : routes.files.size);
  const cpuMs = estimatedCpuMs(data);
  const hostsRecord = checkedHosts(made, raw.published, siteFiles, options, diagnostics, (name) =>
    needsEdgeData([name]) ? cpuMs : undefined,
  );
  mark("limits");
  const catalogue = await cataloguePages(model, raw, diagnostics, options);
  const site = plannedSite(routes, raw.published, { answers, data, pages: catalogue.files });
  mark("plan");
  return {
    model,
    routes,
    site,
    published: raw.published,
    hosts: made.rendered.folders,
    beside: made.rendered.beside,
    diagnostics,
    answers,
    hostsRecord,
    hostsKey: made.key,
    ...(needsEdgeData(selected) ? { handler: entryBundle("cloudflare") } : {}),
    ...(catalogue.prints === undefined ? {} : { cataloguePrints: catalogue.prints }),
  };
}

/**
 * The content's model, or a ContentError with every problem found. Only the model and the diagnostics are kept: the
 * parsed files' trees (their positions, for diagnostics) are large, and the caller lives until everything is planned.
 */
function modelOf(
  raw: RawContent,
  options: CompileOptions,
  clock: BuildClock,
): { model: SiteModel; diagnostics: Diagnostic[] } {
  const { model, diagnostics: found } = buildModel(raw, {
    clock,
    ...(options.parsed === undefined ? {} : { parsed: options.parsed }),
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
    ...(options.memo === undefined ? {} : { parts: (options.memo.modelParts ??= new ModelParts()) }),
  });
  if (options.parsed?.changed === true) {
    options.saveParsed?.(options.parsed);
    options.parsed.changed = false;
  }
  const diagnostics = applyStrict(found, options.strict);
  if (model === null || diagnostics.some((d) => d.severity === "error")) throw new ContentError(diagnostics);
  return { model, diagnostics };
}

/** The catalogue's pages, which join the site's plain files (left out, with a warning, when the content has an
 * index.html), and their prints for the records; none with --no-catalogue. */
async function cataloguePages(
  model: SiteModel,
  raw: RawContent,
  diagnostics: Diagnostic[],
  options: CompileOptions,
): Promise<{ files: readonly OutputFile[]; prints?: string }> {
  if (options.catalogue === false) return { files: [] };
  const catalogue = await import("../catalogue/index.js");
  const made = catalogue.catalogueFiles({
    model,
    raw,
    diagnostics,
    tool: toolFingerprint(),
    last: catalogue.parseCataloguePrints(options.lastCataloguePrints?.() ?? null),
    ...(options.memo === undefined ? {} : { memo: (options.memo.catalogue ??= new catalogue.CatalogueMemo()) }),
  });
  if (made.warning !== undefined) diagnostics.push(...applyStrict([made.warning], options.strict));
  if (diagnostics.some((d) => d.severity === "error")) throw new ContentError(diagnostics);
  return {
    files: made.files,
    ...(made.prints === undefined ? {} : { prints: catalogue.printCataloguePrints(made.prints) }),
  };
}

/** Every file of --out; refused when two paths differ only in case (one would overwrite the other on macOS or
 * Windows). */
function plannedSite(
  routes: BuiltRoutes,
  published: RawContent["published"],
  parts: Parameters<typeof planSite>[2],
): OutputFile[] {
  const files = planSite(routes, published, parts);
  const collisions = caseCollisions(files);
  if (collisions.length > 0) {
    throw new BuildError(
      "CASE_COLLISION",
      `These output files differ only in case and would overwrite each other on macOS or Windows: ${collisions.map((c) => c.join(" / ")).join("; ")}.`,
      { hint: "Rename the content files or keys so that they differ in more than case." },
    );
  }
  return files;
}
