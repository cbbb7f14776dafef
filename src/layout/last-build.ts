// src/layout/last-build.ts
// I/O: what the next build needs of the last one in the same place (src/pipeline/, src/output/publish.ts), read here like
// every other reader's: synchronously, each file once and only when asked for.

import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import path from "node:path";
import type { KeptParse } from "../content/load-content.js";
import { readParses } from "../content/parse-cache.js";
import type { HostName } from "../hosts/names.js";
import { fileHash, parseHostsRecord, type HostsRecord, type RecordedFile } from "../hosts/record.js";
import type { BesideFolder, HostFile, HostOutput } from "../hosts/types.js";
import { linkTrees, type LinkTree } from "./link-trees.js";
import {
  ANSWER_INPUTS_FILE,
  CATALOGUE_PRINTS_FILE,
  HOSTS_DIR,
  HOSTS_RECORD_FILE,
  MANIFEST_FILE,
  MANIFEST_HEADER,
  type Layout,
} from "./paths.js";
import {
  folderId,
  parseFolderIds,
  parseSiteId,
  parseStamp,
  type BuildStamp,
  type FolderId,
  type FolderIds,
} from "./stamp.js";

/**
 * What the next build needs of the last one in the same place (src/pipeline/pipeline.ts, src/output/publish.ts and up-to-date.ts):
 * read here like every other reader's, synchronously, each file once and only when asked for.
 */
export interface LastBuild {
  /** The stamp, when there is one of this tool's layout (it may name another --out); null otherwise. */
  stamp: BuildStamp | null;
  /** Whether the records folder is this tool's: its manifest begins with the marker (only that line is read). */
  recordsAreOurs(): boolean;
  /** Whether the records describe the --out that is there (describesSite). */
  describesSite: boolean;
  /** Whether the records describe the folder beside --out that is there (`dir`: ".vercel/output"): their site.id
   * names its identity, so that the manifest they keep of it is its own. */
  describesBeside(dir: string): boolean;
  /** Whether an in-place update was stopped midway: its journal is there. */
  unfinished: boolean;
  /** --out's manifest as the records keep it ("" when there is none); `release`: not kept here once returned (a
   * large site's, which a build in full reads once more, to reuse its files, and then lets go). */
  siteManifest(release?: boolean): string;
  /** The folders beside --out that its records name (site.id) and that are still there, by the same identity: the
   * next records name them too, so that a folder one build wrote stays this --out's when a later one leaves its host
   * out (it is not removed). */
  keptBeside(): Array<{ dir: string; id: FolderId }>;
  /** The manifests the records keep of those folders (keptBeside's), by folder ("" for one they keep none of). */
  besideManifests(): Map<string, string>;
  /** The manifest of a written folder (absolute): the records' own, or the one the records keep of a folder beside
   * --out; "" when there is none. */
  folderManifest(dir: string): string;
  /** What its answer files were computed from, as its records print it (src/routes/answer-inputs.ts), or null when it
   * kept none. */
  answerInputsText(): string | null;
  /** The prints of its catalogue's pages, as its records print them (src/catalogue/index.ts), or null. */
  cataloguePrintsText(): string | null;
  /** The content's JSON files as it parsed and checked them (src/content/parse-cache.ts), when its record is of the
   * tool `tool`; none otherwise. */
  parses(tool: string): KeptParse[];
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
  let ids: FolderIds | null | undefined;
  const folderIds = (): FolderIds | null =>
    ids === undefined ? (ids = parseFolderIds(readText(layout.siteId) ?? "")) : ids;
  let hostsRecord: HostsRecord | null | undefined;
  const recordOfHosts = (): HostsRecord | null =>
    hostsRecord === undefined
      ? (hostsRecord = parseHostsRecord(readText(path.join(layout.records, HOSTS_RECORD_FILE)) ?? ""))
      : hostsRecord;
  const keptBeside = (): Array<{ dir: string; id: FolderId }> =>
    [...(folderIds()?.beside ?? [])]
      .filter(([dir, id]) => idOf(layout.beside(dir)) === id)
      .map(([dir, id]) => ({ dir, id }));
  return {
    stamp: parseStamp(readText(layout.stamp) ?? ""),
    recordsAreOurs: () => startsWith(path.join(layout.records, MANIFEST_FILE), `${MANIFEST_HEADER}\n`),
    describesSite: describesSite(layout),
    describesBeside: (dir) => keptBeside().some((k) => k.dir === dir),
    unfinished: existsSync(layout.journal),
    siteManifest: (release) => {
      const text = (site ??= readText(layout.siteManifest) ?? "");
      if (release === true) site = undefined;
      return text;
    },
    keptBeside,
    besideManifests: () => new Map(keptBeside().map(({ dir }) => [dir, readText(layout.besideManifest(dir)) ?? ""])),
    folderManifest: (dir) =>
      readText(
        dir === layout.records
          ? path.join(dir, MANIFEST_FILE)
          : layout.besideManifest(path.relative(layout.base, dir).split(path.sep).join("/")),
      ) ?? "",
    answerInputsText: () => readText(path.join(layout.records, ANSWER_INPUTS_FILE)),
    cataloguePrintsText: () => readText(path.join(layout.records, CATALOGUE_PRINTS_FILE)),
    parses: (tool) => readParses(layout.parsedCache, tool),
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

/**
 * Whether the records describe the --out folder that is there (site.id names its identity). False after a build that
 * stopped between its swaps, and when either is missing.
 */
export function describesSite(layout: Layout): boolean {
  try {
    return parseSiteId(readFileSync(layout.siteId, "utf8")) === idOf(layout.out);
  } catch {
    return false;
  }
}

/** A folder's identity (through symlinks), or null when there is none. */
function idOf(dir: string): FolderId | null {
  try {
    const st = statSync(dir, { bigint: true, throwIfNoEntry: false });
    return st === undefined ? null : folderId(st);
  } catch {
    return null;
  }
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
