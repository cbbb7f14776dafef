// src/build.ts
// The one orchestrator: read content → model → answers and route table → output plan → atomic write.

import { readdirSync, realpathSync, statSync } from "node:fs";
import { gzipSync } from "node:zlib";
import path from "node:path";
import { printTiming, TIMINGS } from "./timings.js";
import type { CatalogueMemo } from "./catalogue/index.js";
import type { ContentCache } from "./content/content-cache.js";
import type { ModelParts, ParsedFiles } from "./content/load-content.js";
import { ContentListings, readContent, type RawContent, type ReadOptions } from "./content/read-content.js";
import { BuildError, ContentError, HostLimitError, UsageError, type Diagnostic } from "./errors.js";
import type { BesideFolder, HostFolder, HostName, HostOutput, RenderedHosts } from "./hosts/index.js";
import { planLimitDiagnostics, type HostMeasures, type Plan } from "./hosts/limits.js";
import { DEFAULT_HOSTS, needsAnswers, needsEdgeData } from "./hosts/names.js";
import { BESIDE_STAMP_FILE, layoutOf, MANIFEST_FILE, RECORDS_ROOT, type Layout } from "./layout/paths.js";
import { linkTrees } from "./layout/link-trees.js";
import { besideStamp, lastBuild, type KeptHost } from "./layout/read-build.js";
import { LAYOUT_FORMAT, printSiteId, printStamp, type BuildStamp } from "./layout/stamp.js";
import { buildClock } from "./model/time.js";
import type { SiteModel } from "./model/types.js";
import { REPLACE_FLAG, resolveTarget } from "./output/out-folder.js";
import type { OutputFile } from "./output/plan.js";
import type { PublishMemo, PublishOptions } from "./output/publish.js";
import { isEdgeDataPath } from "./edge/data.js";
import type { EdgeDataMemo } from "./edge/index.js";
import type { AnswerInputsMemo } from "./routes/answer-inputs.js";
import { inputsKey, toolFingerprint, upToDate, type KeySettings } from "./output/up-to-date.js";
import { claimOutput, type OutputClaim, type WriteOptions } from "./output/write-output.js";
import type { BuiltRoutes, RoutesMemo } from "./routes/build-routes.js";

// The modules that compute the site (ajv, the model, routes, host printers) load only when a build needs them, so
// that a rebuild with nothing to do stays cheap.
const pipeline = () =>
  Promise.all([
    import("./content/load-content.js"),
    import("./routes/build-routes.js"),
    import("./php/header-groups.js"),
    import("./output/plan.js"),
    import("./hosts/index.js"),
    import("./edge/index.js"),
    import("./hosts/record.js"),
  ]);
/** Each phase's time since the last (src/timings.ts: BUILD_INDEX_SITE_TIMINGS=1). */
let lastMark = performance.now();
function mark(phase: string): void {
  if (!TIMINGS) return;
  const now = performance.now();
  printTiming(phase, now - lastMark);
  lastMark = now;
}

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
  /** Told how the build is written (in place or in full), before it writes. */
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

/** Refuses output folders that would overwrite the content or something much larger. */
export function checkFolders(contentDir: string, outDir: string): void {
  const content = realNearest(contentDir);
  const out = realNearest(outDir);
  const inside = (child: string, parent: string): boolean => child === parent || child.startsWith(parent + path.sep);
  if (out === path.parse(out).root)
    throw new UsageError(`--out ${outDir} is the file system root.`, "Choose a folder of its own, e.g. dist.");
  if (inside(content, out)) {
    throw new UsageError(
      `--out ${outDir} contains the content folder ${contentDir}: the build replaces the whole output folder.`,
      "Choose a folder of its own, e.g. dist.",
    );
  }
  if (inside(out, content)) {
    throw new UsageError(
      `--out ${outDir} is inside the content folder ${contentDir}.`,
      "Choose a folder outside the content, e.g. dist.",
    );
  }
  // The records of --out live in <base>/.build-index-site/<name>: an --out in there would hold records, its own or
  // another site's, and publish them.
  if (out.split(path.sep).includes(RECORDS_ROOT)) {
    throw new UsageError(
      `--out ${outDir} is inside ${RECORDS_ROOT}/, where builds keep their records.`,
      "Choose a folder of its own, e.g. dist.",
    );
  }
}

/**
 * Refuses (before anything is written) records of --out that are not this tool's: a non-empty folder without the
 * marker where the build would write its records. --replace-out lets the build replace them, as it does --out.
 */
async function checkRecords(layout: Layout, replaceOut: boolean): Promise<void> {
  let st;
  try {
    st = statSync(layout.records, { throwIfNoEntry: false });
  } catch {
    return; // a path the file system refuses (too long, not a folder): the claim of --out reports it, with its hint
  }
  if (st === undefined || replaceOut) return;
  if (st.isDirectory() && (lastBuild(layout).recordsAreOurs() || readdirSync(layout.records).length === 0)) return;
  const shown = path.relative(process.cwd(), layout.records) || layout.records;
  throw new UsageError(
    `${shown} exists and was not written by build-index-site: the build keeps the records of --out there.`,
    `Move it away, or pass ${REPLACE_FLAG} to let the build replace it.`,
  );
}

/** Where a host's folder beside --out goes ("the folder that holds --out" + dir); refuses places the build must not
 * replace: inside or around the output or content folder, a folder the build did not write, or one that the build
 * of another --out in the same folder wrote (two sites would overwrite each other's). */
export function checkBeside(options: Pick<BuildOptions, "content" | "out">, dir: string): string {
  const out = realNearest(options.out);
  const content = realNearest(options.content);
  const target = path.join(path.dirname(out), ...dir.split("/"));
  const inside = (child: string, parent: string): boolean => child === parent || child.startsWith(parent + path.sep);
  if (inside(target, out) || inside(out, target) || inside(target, content) || inside(content, target)) {
    throw new UsageError(
      `--out ${options.out} puts the host folder ${dir} (beside it) in or around the output or content folder.`,
      "Choose an output folder of its own, e.g. dist, or leave the host out of --hosts.",
    );
  }
  const stat = statSync(target, { throwIfNoEntry: false });
  if (stat === undefined) return target;
  const shown = path.relative(process.cwd(), target) || target;
  if (!(stat.isDirectory() && statSync(path.join(target, MANIFEST_FILE), { throwIfNoEntry: false })?.isFile())) {
    throw new UsageError(
      `${shown} exists and was not written by build-index-site: the build would replace it.`,
      "Move it away (the build writes this folder whole), or leave the host out of --hosts.",
    );
  }
  const owner = besideOwner(target);
  if (owner !== null && owner !== path.basename(out)) {
    throw new UsageError(
      `${shown} belongs to the build of ${path.join(path.dirname(options.out), owner)}, not of --out ${options.out}: both sites would write it.`,
      `Build each site in a folder of its own (e.g. ${path.join(options.out, "..", "site-b", path.basename(options.out))}), or leave the host out of --hosts.`,
    );
  }
  return target;
}

/** The name of the --out whose build wrote a folder beside it (its stamp says), or null when it does not say. */
const besideOwner = (folder: string): string | null => besideStamp(folder)?.out ?? null;

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
  return strict
    ? diagnostics.map((d) => (d.severity === "warning" ? { ...d, severity: "error" as const } : d))
    : diagnostics;
}

/**
 * What `dev` keeps between builds, and the one place its watcher reports to (`changed`, `watchFailed`). The hosts'
 * files and their measures are made from the route table, the service's name, the name of --out and the hosts chosen
 * alone (src/hosts), and an edit of a mapping or an icon leaves all of these as they were.
 */
export class BuildMemo {
  /** The facts of the content's files (src/content/content-cache.ts), from the first build on: a file is read again
   * where the watcher saw a change (or its size, times or inode differ). */
  contentCache: ContentCache | null = null;
  /** `record`: the hosts' record as printed from these (its sha1s cost 80 ms at ×100), once it is. */
  hosts: { key: string; rendered: RenderedHosts; measures: HostMeasures[]; record?: string } | null = null;
  /** The content's JSON files as parsed and checked, by the sha1 of their bytes (src/content/load-content.ts). */
  parsed: ParsedFiles | null = null;
  /** The published folders' files, kept while the watcher reports no change in them (src/content/read-content.ts):
   * `dev` tells it each change it sees. */
  readonly listings = new ContentListings();
  /** --out's manifest as the last update left it (src/output/publish.ts), made with the first build. */
  publish: PublishMemo | null = null;
  /** The route table's lists of members, made of the model's keys (src/routes/build-routes.ts), made with the first build. */
  routes: RoutesMemo | null = null;
  /** The last model's parts (src/content/load-content.ts): what is made of an unchanged part alone is made once. */
  modelParts: ModelParts | null = null;
  /** The handler's data: its rows' texts and its shards (src/edge/data-files.ts), made as they are. */
  edgeData: EdgeDataMemo | null = null;
  /** The catalogue's rows' markup and the site data's parts' texts (src/catalogue/index.ts), made as they are. */
  catalogue: CatalogueMemo | null = null;
  /** The answers' prints, each made again when what it is made of changed (src/routes/answer-inputs.ts). */
  answerInputs: AnswerInputsMemo | null = null;

  /** The watcher saw `rel` change under the content folder (whose real path is `contentReal`), or anything (none). */
  changed(contentReal: string, rel?: string): void {
    this.contentCache?.forget(rel === undefined ? undefined : path.join(contentReal, rel));
    this.listings.changed(rel);
  }

  /** The watcher failed: a change may go unseen, so every build walks the published folders again. */
  watchFailed(): void {
    this.listings.fail();
  }
}

type CompileOptions = Pick<
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
   * model is built, when they changed (make their record): they are then let go, not held while the build is written. */
  parsed?: ParsedFiles;
  saveParsed?: (parsed: ParsedFiles) => void;
  /** The name of --out (configs beside it name the records' folder); "dist" when not given. */
  out?: string;
};

const readOptions = (options: Pick<BuildOptions, "exclude" | "cache" | "memo">): ReadOptions => ({
  ...(options.exclude === undefined ? {} : { exclude: options.exclude }),
  ...(options.cache === undefined ? {} : { cache: options.cache }),
  ...(options.memo === undefined ? {} : { listings: options.memo.listings }),
});

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

/** How many files a build of `compiled` writes in all: --out, the host folders (links included), the folders beside
 * --out, and the records. */
export function filesToWrite(compiled: Compiled): number {
  const data = compiled.site.filter((f) => isEdgeDataPath(f.path)).length;
  const plain = compiled.published.length + data;
  const links = (docroot: "site" | "plain" | undefined): number =>
    docroot === "site" ? compiled.site.length - data : docroot === "plain" ? plain : 0;
  // The records: build.json, site.id, site.manifest, routes.json, serve.json, hosts.json, handler.js with an edge host,
  // answer-inputs.json with a static host, and catalogue-inputs.json with the catalogue.
  let n =
    compiled.site.length +
    6 +
    (compiled.handler === undefined ? 0 : 1) +
    (compiled.answers ? 1 : 0) +
    (compiled.cataloguePrints === undefined ? 0 : 1);
  for (const host of compiled.hosts) n += host.files.length + links(host.docroot);
  for (const folder of compiled.beside) n += folder.files.length + 1 + (folder.plainFiles === undefined ? 0 : plain);
  return n;
}

/** Reads and checks the content and computes every answer, without writing anything. */
export async function compile(options: CompileOptions): Promise<Compiled> {
  return compileContent(await readContent(options.content, readOptions(options)), options);
}

async function compileContent(raw: RawContent, options: CompileOptions): Promise<Compiled> {
  const [
    { buildModel, ModelParts },
    { buildRoutes, RoutesMemo },
    { checkHeaderGroups },
    { caseCollisions, planSite },
    { assembleHosts, configMeasures, renderHosts, withFileHashes },
    edge,
    { hostsKey: recordKey, printHostsRecord },
  ] = await pipeline();
  const clock = buildClock(sourceDateEpoch(options), options.nowMs ?? Date.now());
  mark("load modules");
  // Only the model and the diagnostics are kept: the parsed files' trees (their positions, for diagnostics) are 77 MB
  // at ×100, and this function lives until everything is planned.
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
  mark("model");
  const routes = buildRoutes(
    model,
    options.memo === undefined ? undefined : (options.memo.routes ??= new RoutesMemo()),
  );
  checkHeaderGroups(routes.files.shapes());
  mark("routes");
  const selected = options.hosts ?? DEFAULT_HOSTS;
  const input = {
    table: routes.table,
    service: model.service,
    out: path.basename(path.resolve(options.out ?? "dist")),
  };
  // The hosts' files are made again only when what they are made from changes (src/hosts/record.ts): else they are
  // dev's memo, or the last build's, read back from where it wrote them.
  let hostsKey: string | undefined;
  const keyOfHosts = (): string => (hostsKey ??= recordKey(input, selected, toolFingerprint()));
  const memo = options.memo !== undefined && options.memo.hosts?.key === keyOfHosts() ? options.memo.hosts : null;
  const kept = memo === null && options.keptHosts !== undefined ? options.keptHosts(keyOfHosts()) : null;
  let hosts: RenderedHosts;
  try {
    hosts =
      memo?.rendered ??
      (kept === null
        ? withFileHashes(renderHosts({ ...input, entry: (host) => edge.entryBundle(host) }, selected))
        : assembleHosts(kept));
  } catch (error) {
    if (!(error instanceof HostLimitError)) throw error;
    throw new ContentError([
      ...diagnostics,
      {
        severity: "error",
        code: "HOST_LIMIT",
        file: `--hosts ${error.host}`,
        message: error.message,
        hint: error.hint ?? `Build without ${error.host} (--hosts), or use fewer icons, extensions or versions.`,
      },
    ]);
  }
  mark(memo === null && kept === null ? "hosts" : "hosts (kept)");
  const answers = needsAnswers(selected);
  const data = needsEdgeData(selected)
    ? edge.edgeDataFiles(model, {
        requestOrigin: options.requestOrigin === true,
        ...(options.memo === undefined ? {} : { memo: (options.memo.edgeData ??= new edge.EdgeDataMemo()) }),
      })
    : [];
  // What each host uploads of the site: the plain files and the handler's data (an edge host), or every file of
  // --out (a static host serves the answers).
  const siteFiles = (name: HostName): number =>
    raw.published.length + (needsEdgeData([name]) ? data.length : routes.files.size);
  // A kept host's handler keeps its size (gzipped once).
  // The largest of the content's copies, found once for every host (a ×100 site has 49,000).
  let largestPublished = { path: "", bytes: 0 };
  for (const f of raw.published)
    if (f.size > largestPublished.bytes) largestPublished = { path: f.path, bytes: f.size };
  // The rule counts in each host's config: dev's memo has them for the same files.
  const measures = hosts.outputs.map(({ name, output }, i) => ({
    ...(memo?.measures[i] ?? configMeasures(name, output)),
    ...measureHost(name, output, largestPublished, siteFiles(name), memo?.measures[i] ?? kept?.[i]),
  }));
  // The record printed from the memo's hosts holds: it is made of the same key, files and handler sizes.
  const memoOut =
    options.memo === undefined
      ? null
      : (options.memo.hosts = {
          key: keyOfHosts(),
          rendered: hosts,
          measures,
          ...(memo?.record === undefined ? {} : { record: memo.record }),
        });
  const hostsRecord = (): string => {
    if (memoOut?.record !== undefined) return memoOut.record;
    const record = printHostsRecord(
      keyOfHosts(),
      hosts.outputs.map((o, i) => ({
        ...o,
        ...(measures[i]!.handlerBytes === undefined
          ? {}
          : { handlerBytes: measures[i]!.handlerBytes, handlerGzipBytes: measures[i]!.handlerGzipBytes! }),
      })),
    );
    if (memoOut !== null) memoOut.record = record;
    return record;
  };
  const limits = applyStrict(planLimitDiagnostics(measures, options.plan ?? "free"), options.strict);
  diagnostics.push(...limits);
  if (limits.some((d) => d.severity === "error")) throw new ContentError(diagnostics);
  mark("limits");
  // The catalogue's pages join the site's plain files (left out, with a warning, when the content has an index.html).
  const catalogueModule = options.catalogue === false ? null : await import("./catalogue/index.js");
  const catalogue =
    catalogueModule === null
      ? { files: [] }
      : catalogueModule.catalogueFiles({
          model,
          raw,
          diagnostics,
          tool: toolFingerprint(),
          last: catalogueModule.parseCataloguePrints(options.lastCataloguePrints?.() ?? null),
          ...(options.memo === undefined
            ? {}
            : { memo: (options.memo.catalogue ??= new catalogueModule.CatalogueMemo()) }),
        });
  if (catalogue.warning !== undefined) diagnostics.push(...applyStrict([catalogue.warning], options.strict));
  if (diagnostics.some((d) => d.severity === "error")) throw new ContentError(diagnostics);
  const files = planSite(routes, raw.published, { answers, data, pages: catalogue.files });
  const collisions = caseCollisions(files);
  if (collisions.length > 0) {
    throw new BuildError(
      "CASE_COLLISION",
      `These output files differ only in case and would overwrite each other on macOS or Windows: ${collisions.map((c) => c.join(" / ")).join("; ")}.`,
      { hint: "Rename the content files or keys so that they differ in more than case." },
    );
  }
  mark("plan");
  return {
    model,
    routes,
    site: files,
    published: raw.published,
    hosts: hosts.folders,
    beside: hosts.beside,
    diagnostics,
    answers,
    hostsRecord,
    hostsKey: keyOfHosts,
    ...(needsEdgeData(selected) ? { handler: edge.entryBundle("cloudflare") } : {}),
    ...(catalogue.prints === undefined || catalogueModule === null
      ? {}
      : { cataloguePrints: catalogueModule.printCataloguePrints(catalogue.prints) }),
  };
}

/**
 * What a host's deploy receives, measured before anything is written: files in its upload (its own and `siteFiles`
 * of the site), the largest file (of its own and `published`, the largest of the site's), and its handler (the
 * JavaScript it runs), as is and gzipped.
 */
function measureHost(
  host: HostName,
  output: HostOutput,
  published: { path: string; bytes: number },
  siteFiles: number,
  handler?: Pick<HostMeasures, "handlerBytes" | "handlerGzipBytes">,
): HostMeasures {
  const own = ownFiles(output);
  const code = own.filter((f) => /\.m?js$/.test(f.path));
  const measures: HostMeasures = { host, files: own.length + siteFiles, largestFile: largestOf(own, published) };
  if (code.length > 0) {
    measures.handlerBytes = handler?.handlerBytes ?? code.reduce((n, f) => n + Buffer.byteLength(f.data), 0);
    measures.handlerGzipBytes = handler?.handlerGzipBytes ?? code.reduce((n, f) => n + gzipSync(f.data).length, 0);
  }
  return measures;
}

const ownFiles = (output: HostOutput): HostOutput["files"] => [
  ...output.files,
  ...(output.beside ?? []).flatMap((folder) => folder.files),
];

/** The largest of a host's own files, or `published` when that is larger. */
function largestOf(
  own: HostOutput["files"],
  published: { path: string; bytes: number },
): { path: string; bytes: number } {
  let largest = { path: "", bytes: 0 };
  for (const f of own) {
    const bytes = f.bytes ?? Buffer.byteLength(f.data);
    if (bytes > largest.bytes) largest = { path: f.path, bytes };
  }
  return published.bytes > largest.bytes ? published : largest;
}

const sourceDateEpoch = (options: Pick<BuildOptions, "sourceDateEpoch">): string | undefined =>
  options.sourceDateEpoch ?? process.env.SOURCE_DATE_EPOCH;

/** SOURCE_DATE_EPOCH as seconds (checked: a UsageError when it is not a time), or undefined when it is not set. */
function epochSeconds(options: Pick<BuildOptions, "sourceDateEpoch">): number | undefined {
  const epoch = sourceDateEpoch(options);
  return epoch === undefined || epoch === "" ? undefined : buildClock(epoch, 0).now;
}

/** Checks, locks and recovers --out before any work (a refused or busy --out exits 2 at once), then runs `work`. */
async function withOutput<T>(
  options: BuildOptions,
  work: (claim: OutputClaim, layout: Layout) => Promise<T>,
): Promise<T> {
  checkFolders(options.content, options.out);
  epochSeconds(options);
  // Where the build writes: beside the real --out (through a symlink), where the readers look too.
  const layout = layoutOf(await resolveTarget(options.out));
  const replaceOut = options.replaceOut === true || options.write?.replaceOut === true;
  await checkRecords(layout, replaceOut);
  const claim = await claimOutput(options.out, {
    ...options.write,
    label: options.write?.label ?? options.out,
    replaceOut,
  });
  try {
    return await work(claim, layout);
  } finally {
    await claim.release();
  }
}

/** Writes the content cache beside the records (src/layout/paths.ts), when it changed: a failure to write it costs the
 * next build its reads, never this one. */
function saveCache(cache: ContentCache, layout: Layout): void {
  try {
    cache.save(layout.contentCache, toolFingerprint());
  } catch {
    // a read-only or full disk: the build itself reports what it cannot write
  }
}

function keySettings(options: BuildOptions): KeySettings {
  return {
    baseUrl: options.baseUrl,
    ...(options.requestOrigin === true ? { requestOrigin: true as const } : {}),
    sourceDateEpoch: sourceDateEpoch(options),
    strict: options.strict === true,
    hosts: options.hosts === undefined ? ["*"] : [...new Set(options.hosts)].sort(),
    plan: options.plan ?? "free",
    ...(options.catalogue === false ? { catalogue: false } : {}),
  };
}

/** Builds the site into --out (atomically; unchanged files are hard-linked from the previous output). */
export async function build(options: BuildOptions): Promise<BuildResult> {
  return buildOrSkip(options, false) as Promise<BuildResult>;
}

/**
 * Like build, but does nothing when --out already holds the build of exactly these inputs (content, options and
 * tool unchanged, output intact): what the CLI runs.
 */
export async function buildIfChanged(options: BuildOptions): Promise<BuildResult | UpToDateResult> {
  return buildOrSkip(options, true);
}

async function buildOrSkip(options: BuildOptions, ifChanged: boolean): Promise<BuildResult | UpToDateResult> {
  return withOutput(options, async (claim, layout) => {
    mark("claim");
    // The facts of the content's files the last build read: only the files changed since are read (--force reads
    // every one). Kept for the next build once this one is written or found up to date.
    const { ContentCache } = await import("./content/content-cache.js");
    const cache =
      options.force === true
        ? new ContentCache()
        : (options.cache ?? options.memo?.contentCache ?? new ContentCache()).load(
            layout.contentCache,
            toolFingerprint(),
          );
    if (options.memo !== undefined && options.force !== true) options.memo.contentCache = cache;
    const raw = await readContent(options.content, readOptions({ ...options, cache }));
    mark("read content");
    const key = await inputsKey(raw, keySettings(options));
    mark("inputs key");
    if (ifChanged && options.again !== true && raw.diagnostics.length === 0 && options.write?.reuse !== false) {
      const stamp = await upToDate(layout, key, raw, epochSeconds(options));
      mark("up-to-date check");
      if (stamp !== null) {
        saveCache(cache, layout);
        return {
          outDir: path.resolve(options.out),
          warnings: stamp.warnings,
          counts: { answers: stamp.answers, rules: stamp.rules },
        };
      }
    }
    const built = await buildFrom(raw, options, key, claim, layout);
    saveCache(cache, layout);
    return built;
  });
}

/**
 * Publishes the build (src/output/publish.ts): in place when the records describe a whole earlier build of the same
 * hosts (only the files whose bytes change are written), in full otherwise or with --force.
 */
async function buildFrom(
  raw: RawContent,
  options: BuildOptions,
  key: string,
  claim: OutputClaim,
  layout: Layout,
): Promise<BuildResult> {
  // The last build, read once (each file when first asked for): its host files, its route table's key, its manifests.
  const last = lastBuild(layout);
  const time = options.again === true ? last.stamp?.time : undefined;
  // The JSON files' parses: dev's, or the record's (read when first needed); none with --force. Their record is made
  // once the model is built, and written with the build; the parses are not held here (80 MB at ×100).
  const [{ ParsedFiles }, { parsesRecord, readParses, writeParses }] = await Promise.all([
    import("./content/load-content.js"),
    import("./content/parse-cache.js"),
  ]);
  const recorded = (): ReturnType<typeof readParses> => readParses(layout.parsedCache, toolFingerprint());
  let parsesChanged: Buffer | undefined;
  const {
    model,
    routes,
    site,
    published,
    hosts,
    beside,
    diagnostics,
    answers,
    handler,
    hostsRecord,
    hostsKey,
    cataloguePrints,
  } = await compileContent(raw, {
    ...options,
    ...(time === undefined ? {} : { nowMs: time * 1000 }),
    parsed:
      options.force === true
        ? new ParsedFiles()
        : options.memo !== undefined
          ? (options.memo.parsed ??= new ParsedFiles(recorded))
          : new ParsedFiles(recorded),
    saveParsed: (parsed) => (parsesChanged = parsesRecord(toolFingerprint(), parsed.entries())),
    ...(options.force === true
      ? {}
      : { keptHosts: (key: string) => last.hostOutputs(key), lastCataloguePrints: () => last.cataloguePrintsText() }),
  });
  const besidePaths = beside.map((folder) => checkBeside(options, folder.dir));
  const epoch = epochSeconds(options);
  const stamp: BuildStamp = {
    format: LAYOUT_FORMAT,
    out: path.basename(layout.out),
    key,
    hosts: [...(options.hosts ?? DEFAULT_HOSTS)],
    warnings: diagnostics.filter((d) => d.severity === "warning").length,
    answers: answers ? routes.files.size : 0,
    rules: routes.table.rules.length,
    beside: beside.map((folder) => folder.dir),
    time: model.buildTime,
    tool: toolFingerprint(),
  };
  const { planRecords, servedByEdge, SiteLink, sortedByPath } = await import("./output/plan.js");
  const { publish, PublishMemo } = await import("./output/publish.js");
  // What the answer files are computed from (a static host is built): the next update keeps those it leaves alone.
  const { AnswerInputsMemo } = await import("./routes/answer-inputs.js");
  const made = answers
    ? (options.memo === undefined
        ? new AnswerInputsMemo()
        : (options.memo.answerInputs ??= new AnswerInputsMemo())
      ).make(model, toolFingerprint())
    : undefined;
  const trees = linkTrees(hosts);
  const done = await publish(
    layout,
    last,
    {
      site,
      trees,
      beside: beside.map((folder, i) => ({
        dir: besidePaths[i]!,
        files: (written) => {
          const files: OutputFile[] = [...folder.files, { path: BESIDE_STAMP_FILE, data: printStamp(stamp) }];
          if (folder.plainFiles !== undefined) {
            // The links are concatenated, never spread into arguments (a ×100 site has 49,000 plain files).
            const group = {
              prefix: `${folder.plainFiles}/`,
              files: site,
              dir: layout.out,
              entries: written.entries,
              implied: false,
            };
            for (let j = 0; j < site.length; j++) {
              if (servedByEdge(site[j]!) && written.entries.size(j) >= 0) files.push(new SiteLink(group, j));
            }
          }
          return sortedByPath(files);
        },
      })),
      records: (written, links) =>
        planRecords({
          routes,
          published,
          hosts,
          trees,
          hostsRecord: hostsRecord(),
          stamp: printStamp(stamp),
          // The same key, the same route table: routes.json (18 MB at ×100) is neither printed nor hashed.
          tableUnchanged: last.hostsKey() === hostsKey(),
          siteId: printSiteId(written.ino),
          ...(handler === undefined ? {} : { handler }),
          ...(made === undefined ? {} : { answerInputs: made.text }),
          ...(cataloguePrints === undefined ? {} : { cataloguePrints }),
          site: { files: site, entries: written.entries, dir: layout.out, manifest: written.manifest },
          ...(links === false ? { links } : {}),
        }),
      ...(made === undefined ? {} : { answerInputs: made }),
    },
    {
      // The records are ours by their place: --replace-out, which let the build replace --out, lets it replace them too.
      write: { ...options.write, replaceOut: options.replaceOut === true || options.write?.replaceOut === true },
      claim,
      ...(epoch === undefined ? {} : { sourceDateEpoch: epoch }),
      force: options.force === true,
      ...(options.memo === undefined ? {} : { memo: (options.memo.publish ??= new PublishMemo()) }),
      ...(options.onMode === undefined ? {} : { onMode: options.onMode }),
    },
  );
  mark(`publish (${done.mode})`);
  if (parsesChanged !== undefined) writeParses(layout.parsedCache, parsesChanged);
  return {
    outDir: path.resolve(options.out),
    model,
    routes,
    diagnostics,
    counts: {
      answers: answers ? routes.files.size : 0,
      rules: routes.table.rules.length,
      files: done.files,
      bytes: done.bytes,
    },
    changes: { mode: done.mode, written: done.written, removed: done.removed, sitePaths: done.sitePaths },
  };
}
