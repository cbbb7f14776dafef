// src/layout/read-build.ts
// I/O: the one reader of a finished build. `preview`, `dev`, `check`, `verify`, `diff` and incremental rebuilds ask
// it where things are and what the build recorded; none of them parses the output folders on its own.

import {
  closeSync,
  createReadStream,
  existsSync,
  openSync,
  readFileSync,
  readSync,
  realpathSync,
  statSync,
} from "node:fs";
import { readFile, realpath } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { UsageError } from "../errors.js";
import { compileTable, matchRoute, parseQuery, type CompiledTable, type RouteTable } from "../routes/route-table.js";
import { corePath, DATA_DIR } from "../edge/data.js";
import { isEdgeHost, needsAnswers, type HostName } from "../hosts/names.js";
import { fileHash, parseHostsRecord, type HostsRecord, type RecordedFile } from "../hosts/record.js";
import type { BesideFolder, HostFile, HostOutput } from "../hosts/types.js";
import { linkTrees, type LinkTree } from "./link-trees.js";
import {
  ANSWER_INPUTS_FILE,
  BESIDE_STAMP_FILE,
  CATALOGUE_PRINTS_FILE,
  HOSTS_DIR,
  HOSTS_RECORD_FILE,
  layoutOf,
  MANIFEST_FILE,
  MANIFEST_HEADER,
  type Layout,
} from "./paths.js";
import { LAYOUT_FORMAT, parseSiteId, parseStamp, type BuildStamp } from "./stamp.js";

/** A file of --out as the build recorded it: its sha1 (base64url) and size. */
export interface SiteFileRecord {
  sha1: string;
  size: number;
}

/** What the build says an `/api.php` request answers (through the route table): the rule, status, headers and body file. */
export interface BuildAnswer {
  /** The id of the rule that matched (`findIcon.file`). */
  rule: string;
  status: number;
  /** Exactly the headers of the answer (besides those of the file itself). */
  headers: Record<string, string>;
  /** The site path of the body ("/api/findIcon/file/php.json"). */
  target: string;
  /** The body's file in --out, absolute. */
  file: string;
}

/** How a host serves the handler its data files: Cloudflare's ASSETS binding, or its like. */
export interface Assets {
  fetch(request: Request): Promise<Response>;
}

/**
 * The request-time handler the build emitted (the edge hosts' exact answers), as an ES module's default export. Its
 * data files come from `env.ASSETS` (the preview passes a fetch to its own static serving); without it, from the
 * build's --out (what `verify` needs: the exact answers, without a server).
 */
export interface EdgeHandler {
  fetch(request: Request, env?: { ASSETS: Assets }): Promise<Response>;
}

/** A finished build, as its records describe it. Everything is read when asked for, and read again after a rebuild. */
export interface Build {
  layout: Layout;
  stamp: BuildStamp;
  /**
   * Whether --out is the folder the records describe, whole. False when a build was stopped between its swaps, or an
   * in-place update midway (its journal is there): the files are whole, but not all of one build; the next build
   * finishes it.
   */
  complete: boolean;
  /** Whether the build wrote this host's files (--hosts). */
  has(host: string): boolean;
  /** Whether an edge host was built: the deploy answers /api.php with the handler (and --out holds its data files). */
  edge: boolean;
  /** Whether --out holds the answer files: a static host was built (only those route /api.php to them). */
  answers: boolean;
  /** The route table (routes.json), read once per reader (shared with answer(): do not change it). */
  table(): Promise<RouteTable>;
  /** The static rules the preview hands serve-handler (serve.json). */
  serveConfig(): Promise<Record<string, unknown>>;
  /**
   * Every file of --out: its site path ("icons/a.png") → hash and size; only those `keep` accepts when given (a ×100
   * site has over 600,000: a reader that needs a few keeps only those).
   */
  siteFiles(keep?: (sitePath: string) => boolean): Promise<Map<string, SiteFileRecord>>;
  /** The request-time handler the build emitted (a Cloudflare-shaped module in the records), or null when no edge host
   * was built. */
  handlerFile(): string | null;
  /** The answer the route table gives an `/api.php` query (the raw query, without "?"). The table is read once. */
  answer(query: string): Promise<BuildAnswer>;
  /** The handler the build emitted, loaded as a module (see handlerFile), or null when no edge host was built. */
  handler(): Promise<EdgeHandler | null>;
  /** The base URL the answers were built with (the default answer's icon_base_url, less "/icons/"). */
  baseUrl(): Promise<string>;
  /** Changes whenever a build replaces the records: a reader that holds data compares it to know when to reload. */
  version(): string;
  /** The client versions whose versionCheck answer the build precomputed (the route table's versionCheck.known rules). */
  versions(): Promise<string[]>;
  /**
   * The bytes of a file of the public site ("icons.json", "icons/a.png"), or null when the build did not publish it.
   * The content's plain files are published byte for byte in every build (edge-only builds too), the answers not.
   */
  published(sitePath: string): Promise<Buffer | null>;
}

/** How many times a handler was loaded (each load gets an instance of its own). */
let loads = 0;

/**
 * The default export of a handler module's text. Evaluated as the body of a function when the text ends the way
 * esbuild ends a bundle (`export { x as default };`) and holds no other import or export (src/edge/bundle.ts): what the
 * function made is let go with it. An `import()` of a module stays in Node's module map for good, with every datum its
 * handler cached: `dev` loads one per rebuild (some 2 MB each). A function called again makes new instances of its
 * own. Any other text is imported as a module of its own (`unique` makes its URL new).
 */
async function evaluateHandler(text: string, unique: string): Promise<Required<EdgeHandler> | undefined> {
  const tail = /\nexport\s*\{\s*([A-Za-z_$][\w$]*)\s+as\s+default\s*\};?\s*$/.exec(text);
  const body = tail === null ? "" : text.slice(0, tail.index);
  if (tail !== null && !/^\s*(import|export)\b|\bimport\s*[.(]/m.test(body)) {
    return (new Function(`"use strict";\n${body}\nreturn ${tail[1]!};`) as () => Required<EdgeHandler> | undefined)();
  }
  const mod = (await import(`data:text/javascript;base64,${Buffer.from(text + unique).toString("base64")}`)) as {
    default?: Required<EdgeHandler>;
  };
  return mod.default;
}

/** A folder that is no build of this tool (or of an older layout): one line, exit 2. */
export class NotABuildError extends UsageError {}

const fileVersion = (file: string): string => {
  const s = statSync(file, { throwIfNoEntry: false });
  return s === undefined ? "" : `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}`;
};

async function readJson(file: string): Promise<unknown> {
  return JSON.parse(await readFile(file, "utf8")) as unknown;
}

/**
 * Opens the build whose --out is `outDir`. Throws NotABuildError when the folder is missing, is not a build, or was
 * built by a version of this tool with another layout.
 */
export async function readBuild(outDir: string): Promise<Build> {
  const real = await realpath(outDir).catch(() => null);
  const shown = outDir.replace(/[\\/]+$/, "") || outDir;
  if (real === null || !statSync(real).isDirectory()) {
    throw new NotABuildError(
      `${shown} does not exist: there is no build to read.`,
      "Run `build-index-site build` first, or name the output folder with --dir.",
    );
  }
  const layout = layoutOf(real);
  const stampText = await readFile(layout.stamp, "utf8").catch(() => null);
  const stamp = parseStamp(stampText ?? "");
  const otherFormat = stampText === null ? undefined : formatOf(stampText);
  if (stamp === null && otherFormat !== undefined) {
    throw new NotABuildError(
      `${shown} was built by another version of build-index-site (layout format ${otherFormat}; this one reads ${LAYOUT_FORMAT}).`,
      "Build it again with this version.",
    );
  }
  if (stamp === null) {
    const older = statSync(path.join(real, "routes.json"), { throwIfNoEntry: false }) !== undefined;
    throw new NotABuildError(
      older
        ? `${shown} was built by an older version of build-index-site (its records are inside it).`
        : `${shown} is not a build of build-index-site: ${path.relative(process.cwd(), layout.stamp) || layout.stamp} is missing.`,
      older
        ? "Build again: the records now live beside it, in .build-index-site/."
        : "Run `build-index-site build` first, or name the output folder with --dir.",
    );
  }
  let compiled: Promise<CompiledTable> | undefined;
  // Read once per reader: answer() compiles the same table (a ×100 site's is about 50 MB in memory).
  let tableRead: Promise<RouteTable> | undefined;
  const table = (): Promise<RouteTable> => (tableRead ??= readJson(layout.routes) as Promise<RouteTable>);
  const edge = stamp.hosts.some(isEdgeHost);
  const answers = needsAnswers(stamp.hosts);
  const handlerFile = (): string | null =>
    edge && statSync(layout.handler, { throwIfNoEntry: false })?.isFile() ? layout.handler : null;
  /** The data files from --out, as a host's static serving would give them (verify's exact answers). */
  const ownAssets: Assets = {
    async fetch(request) {
      const sitePath = decodeURIComponent(new URL(request.url).pathname);
      if (!sitePath.startsWith(`${DATA_DIR}/`) || sitePath.split("/").includes(".."))
        return new Response("Not Found", { status: 404 });
      const data = await readFile(path.join(layout.out, ...sitePath.split("/"))).catch(() => null);
      return data === null ? new Response("Not Found", { status: 404 }) : new Response(data);
    },
  };
  const answer = async (query: string): Promise<BuildAnswer> => {
    compiled ??= table().then(compileTable);
    const { rule, target } = matchRoute(await compiled, parseQuery(query));
    return {
      rule: rule.id,
      status: rule.status,
      headers: rule.headers,
      target,
      file: path.join(layout.out, ...target.split("/")),
    };
  };
  return {
    layout,
    stamp,
    complete: describesSite(layout) && !existsSync(layout.journal),
    has: (host) => stamp.hosts.includes(host),
    edge,
    answers,
    table,
    serveConfig: async () => (await readJson(layout.serve)) as Record<string, unknown>,
    siteFiles: async (keep) =>
      keep === undefined
        ? parseSiteManifest(await readFile(layout.siteManifest, "utf8"))
        : keptSiteFiles(layout.siteManifest, keep),
    handlerFile,
    answer,
    handler: async () => {
      const file = handlerFile();
      const text = file === null ? null : await readFile(file, "utf8").catch(() => null);
      if (text === null) return null;
      // An instance of its own per load (the handler's text is the same for every build, and an import of the same
      // URL returns the instance already loaded, with its cache): after a rebuild, the data are read again.
      const worker = await evaluateHandler(text, `\n// ${fileVersion(layout.stamp)} ${++loads}\n`);
      if (typeof worker?.fetch !== "function") return null;
      return { fetch: (request, env) => worker.fetch(request, env ?? { ASSETS: ownAssets }) };
    },
    baseUrl: async () => {
      if (!answers) {
        const core = JSON.parse(await readFile(path.join(layout.out, ...corePath().split("/")), "utf8")) as {
          baseUrl?: unknown;
        };
        return typeof core.baseUrl === "string" ? core.baseUrl : "";
      }
      const info = JSON.parse(await readFile((await answer("")).file, "utf8")) as { icon_base_url?: unknown };
      return typeof info.icon_base_url === "string" ? info.icon_base_url.replace(/\/icons\/$/, "") : "";
    },
    version: () => fileVersion(layout.stamp),
    versions: async () => versionsOf(await table()),
    published: async (sitePath) => {
      const parts = sitePath.split("/");
      if (parts.some((p) => p === "" || p === "." || p === "..")) return null;
      return readFile(path.join(layout.out, ...parts)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT" || error.code === "ENOTDIR" || error.code === "EISDIR") return null;
        throw error;
      });
    },
  };
}

/** The versions of the route table's versionCheck.known rules: the `in` set, and each escaped version's `eq` rule. */
export function versionsOf(table: RouteTable): string[] {
  const out: string[] = [];
  for (const rule of table.rules) {
    if (rule.id !== "versionCheck.known" && rule.id !== "versionCheck.known.escaped") continue;
    const p = rule.match.current_version;
    if (p === undefined) continue;
    if ("in" in p) out.push(...p.in);
    else if ("eq" in p) out.push(p.eq);
  }
  return out;
}

/** The layout format a stamp names when it is not this tool's (a number), else undefined. */
function formatOf(text: string): number | undefined {
  try {
    const format = (JSON.parse(text) as { format?: unknown }).format;
    return typeof format === "number" && format !== LAYOUT_FORMAT ? format : undefined;
  } catch {
    return undefined;
  }
}

/** The manifest's records that `keep` accepts, read line by line (the whole text of a ×100 site's is 46 MB). */
async function keptSiteFiles(file: string, keep: (sitePath: string) => boolean): Promise<Map<string, SiteFileRecord>> {
  const files = new Map<string, SiteFileRecord>();
  const lines = createInterface({
    input: createReadStream(file, { encoding: "utf8", highWaterMark: 256 * 1024 }),
    crlfDelay: Infinity,
  });
  let header = true;
  for await (const line of lines) {
    if (header) {
      header = false;
      continue;
    }
    const first = line.indexOf(" ");
    const second = line.indexOf(" ", first + 1);
    if (first <= 0 || second <= first || line.startsWith("mtimes ")) continue;
    const sitePath = line.slice(second + 1);
    if (keep(sitePath))
      files.set(sitePath, { sha1: line.slice(0, first), size: Number(line.slice(first + 1, second)) });
  }
  return files;
}

/** The manifest's lines ("<sha1> <size> <path>") → path → record, read in place (no array of lines). */
function parseSiteManifest(text: string): Map<string, SiteFileRecord> {
  const files = new Map<string, SiteFileRecord>();
  let start = text.indexOf("\n") + 1; // the header line
  while (start > 0 && start < text.length) {
    const end = text.indexOf("\n", start);
    const stop = end === -1 ? text.length : end;
    const first = text.indexOf(" ", start);
    const second = first === -1 || first >= stop ? -1 : text.indexOf(" ", first + 1);
    if (first > start && second > first && second < stop && !text.startsWith("mtimes ", start)) {
      files.set(text.slice(second + 1, stop), {
        sha1: text.slice(start, first),
        size: Number(text.slice(first + 1, second)),
      });
    }
    start = stop + 1;
  }
  return files;
}

/**
 * Whether the records describe the --out folder that is there (site.id names its inode). False after a build that
 * stopped between its swaps, and when either is missing.
 */
export function describesSite(layout: Layout): boolean {
  try {
    return parseSiteId(readFileSync(layout.siteId, "utf8")) === statSync(layout.out).ino;
  } catch {
    return false;
  }
}

/**
 * What names one version of a file of a build's records: its device, inode, size, and modification and change times
 * in nanoseconds; null when it is not there. `dev` keeps what it wrote while the file is the same
 * (src/output/publish.ts: PublishMemo).
 */
export function fileIdentity(file: string): string | null {
  const s = statSync(file, { bigint: true, throwIfNoEntry: false });
  return s === undefined ? null : `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
}

/** Synchronously: whether `outDir` holds a build whose records can be read (dev, before it starts a preview). */
export const isBuild = (outDir: string): boolean => buildStamp(outDir) !== null;

/** The stamp of the build in `outDir` (its records' build.json), or null when it is no build. */
export function buildStamp(outDir: string): BuildStamp | null {
  try {
    return parseStamp(readFileSync(layoutOf(realpathSync(outDir)).stamp, "utf8"));
  } catch {
    return null;
  }
}

/** The version of the records of the build in `outDir` (see Build.version), without reading them. */
export const buildVersion = (outDir: string): string => fileVersion(layoutOf(realpathSync(outDir)).stamp);

/**
 * Synchronously: whether `outDir` holds a build that was stopped midway (between its swaps, or during an in-place
 * update: its journal is there). Its files are whole, but not all of one build. False when it is no build.
 */
export function isIncomplete(outDir: string): boolean {
  try {
    const last = lastBuild(layoutOf(realpathSync(outDir)));
    return last.stamp !== null && (!last.describesSite || last.unfinished);
  } catch {
    return false;
  }
}

/**
 * What the next build needs of the last one in the same place (src/build/pipeline.ts, src/output/publish.ts and up-to-date.ts):
 * read here like every other reader's, synchronously, each file once and only when asked for.
 */
export interface LastBuild {
  /** The stamp, when there is one of this tool's layout (it may name another --out); null otherwise. */
  stamp: BuildStamp | null;
  /** Whether the records folder is this tool's: its manifest begins with the marker (only that line is read). */
  recordsAreOurs(): boolean;
  /** Whether the records describe the --out that is there (describesSite). */
  describesSite: boolean;
  /** Whether an in-place update was stopped midway: its journal is there. */
  unfinished: boolean;
  /** --out's manifest as the records keep it ("" when there is none); `release`: not kept here once returned (46 MB
   * at ×100, which a build in full reads once more, to reuse its files, and then lets go). */
  siteManifest(release?: boolean): string;
  /** The manifest a written folder keeps inside (the records, a folder beside --out); "" when there is none. */
  folderManifest(dir: string): string;
  /** What its answer files were computed from, as its records print it (src/routes/answer-inputs.ts), or null when it
   * kept none. */
  answerInputsText(): string | null;
  /** The prints of its catalogue's pages, as its records print them (src/catalogue/index.ts), or null. */
  cataloguePrintsText(): string | null;
  /** Each host's files as it wrote them, read back, when they were made from `key` (src/hosts/record.ts) and the
   * build is whole; null otherwise (then they are made again). */
  hostOutputs(key: string): KeptHost[] | null;
  /** The hosts' copies of the site it holds in its records (src/layout/link-trees.ts), from its hosts' record; null
   * when that cannot be read. */
  linkTrees(): LinkTree[] | null;
  /** The key of what its hosts' files and route table were made from (its hosts' record), or null. */
  hostsKey(): string | null;
}

/** A host's output as the last build wrote it, and its handler's size. */
export interface KeptHost {
  name: HostName;
  output: HostOutput;
  handlerBytes?: number;
  handlerGzipBytes?: number;
}

export function lastBuild(layout: Layout): LastBuild {
  let site: string | undefined;
  let hostsRecord: HostsRecord | null | undefined;
  const recordOfHosts = (): HostsRecord | null =>
    hostsRecord === undefined
      ? (hostsRecord = parseHostsRecord(readText(path.join(layout.records, HOSTS_RECORD_FILE)) ?? ""))
      : hostsRecord;
  return {
    stamp: parseStamp(readText(layout.stamp) ?? ""),
    recordsAreOurs: () => startsWith(path.join(layout.records, MANIFEST_FILE), `${MANIFEST_HEADER}\n`),
    describesSite: describesSite(layout),
    unfinished: existsSync(layout.journal),
    siteManifest: (release) => {
      const text = (site ??= readText(layout.siteManifest) ?? "");
      if (release === true) site = undefined;
      return text;
    },
    folderManifest: (dir) => readText(path.join(dir, MANIFEST_FILE)) ?? "",
    answerInputsText: () => readText(path.join(layout.records, ANSWER_INPUTS_FILE)),
    cataloguePrintsText: () => readText(path.join(layout.records, CATALOGUE_PRINTS_FILE)),
    hostOutputs: (key) => (existsSync(layout.journal) ? null : keptHosts(layout, recordOfHosts(), key)),
    linkTrees: () => {
      const record = recordOfHosts();
      return record === null ? null : linkTrees(record.hosts);
    },
    hostsKey: () => recordOfHosts()?.key ?? null,
  };
}

function keptHosts(layout: Layout, record: HostsRecord | null, key: string): KeptHost[] | null {
  if (record === null || record.key !== key) return null;
  // Each file as the record lists it: there, and with the bytes it was written with (not edited by hand since).
  const read = (dir: string, listed: RecordedFile[]): HostFile[] | null => {
    const files: HostFile[] = [];
    for (const f of listed) {
      const bytes = readBytes(path.join(dir, ...f.path.split("/")));
      if (bytes === null || fileHash(bytes) !== f.sha1) return null;
      files.push({ path: f.path, data: bytes.toString("utf8"), sha1: f.sha1, bytes: bytes.length });
    }
    return files;
  };
  const kept: KeptHost[] = [];
  for (const host of record.hosts) {
    const files = read(path.join(layout.records, HOSTS_DIR, host.name), host.files);
    if (files === null) return null;
    const beside: BesideFolder[] = [];
    for (const b of host.beside) {
      const besideFiles = read(layout.beside(b.dir), b.files);
      if (besideFiles === null) return null;
      beside.push({
        dir: b.dir,
        files: besideFiles,
        ...(b.plainFiles === undefined ? {} : { plainFiles: b.plainFiles }),
      });
    }
    const output: HostOutput = {
      files,
      ...(host.docroot === undefined ? {} : { docroot: host.docroot }),
      ...(host.docrootDir === undefined ? {} : { docrootDir: host.docrootDir }),
      ...(beside.length === 0 ? {} : { beside }),
    };
    kept.push({
      name: host.name,
      output,
      ...(host.handlerBytes === undefined ? {} : { handlerBytes: host.handlerBytes }),
      ...(host.handlerGzipBytes === undefined ? {} : { handlerGzipBytes: host.handlerGzipBytes }),
    });
  }
  return kept;
}

/** Whether a file begins with `text` (ASCII), reading no more of it. */
function startsWith(file: string, text: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const buf = Buffer.alloc(text.length);
    return readSync(fd, buf, 0, text.length, 0) === text.length && buf.toString("latin1") === text;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The stamp a folder written beside an --out keeps (it names that --out), or null: any folder, of any build. */
export function besideStamp(folder: string): BuildStamp | null {
  return parseStamp(readText(path.join(folder, BESIDE_STAMP_FILE)) ?? "");
}

function readBytes(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}

function readText(file: string): string | null {
  return readBytes(file)?.toString("utf8") ?? null;
}

/** What `check`, `preview`, `dev` and `verify` say of an incomplete build (isIncomplete). */
export const incompleteLine = (dir: string): string =>
  `${dir} is incomplete: a build was stopped midway, so it holds whole files of two builds. Run the build again: it finishes the update.`;
