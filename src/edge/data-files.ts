// src/edge/data-files.ts
// The handler's data files (src/edge/data.ts), computed from the site model by the same functions that precompute
// the answer files (src/php): the whole-site answers byte for byte, and the per-key lookups split into shards so
// that a request loads only the shards of the keys it asks for. Each shard's size is bounded, whatever the site's.

import * as A from "../php/answers.js";
import { changedEntries } from "../model/changed-values.js";
import type { SiteModel } from "../model/types.js";
import { createHash } from "node:crypto";
import {
  DATA_FOLDER,
  DATA_FORMAT,
  TEMPLATE_MARK,
  FALLBACK_FILES,
  jsonText,
  rebase,
  shardOf,
  WHOLE_ANSWERS,
  type CoreData,
  type FileRow,
  type LookupKind,
  type WholeAnswer,
  type WholeMeta,
} from "./data.js";
import { etagOf } from "./etag.js";

/**
 * A shard holds at most about this many bytes of JSON on average: the count is the least power of two that keeps
 * them so, growing with the site, so that a first request for a key reads and parses the same bytes at any size.
 */
export const SHARD_BYTES = 16 * 1024;

/** Whole answers up to this size are inline in core.json (one file less to fetch). */
const INLINE_BYTES = 2048;

function wholeAnswer(model: SiteModel, name: WholeAnswer): A.Answer {
  switch (name) {
    case "info":
      return A.info(model);
    case "status":
      return A.status(model);
    case "config":
      return A.config(model);
    case "icons":
      return A.icons(model);
    case "iconMappings":
      return A.iconMappings(model);
    case "configReference":
      return A.configReference(model);
    case "extensionMappings-all":
      return A.extensionMappings(model, undefined);
    case "extensionMappings-indexing":
      return A.extensionMappings(model, "indexing");
    case "extensionMappings-viewing":
      return A.extensionMappings(model, "viewing");
  }
}

/**
 * Stands in for the base URL to find where an answer writes it: no content holds it (checked), and no answer's
 * layout depends on the base URL's text, only its place.
 */
const STAND_IN = "\u0000base-url\u0000";

/**
 * Where the answer `name` writes the site's base URL in its body `body` (UTF-8 byte offsets of its JSON text): the
 * answer computed again with a stand-in base URL shows the places, so that a base URL the content itself holds (in
 * config.json, say) is never taken for one. Checked: the body rebuilt from the offsets is the stand-in's, byte for byte.
 */
export function baseUrlOffsets(model: SiteModel, name: WholeAnswer, body: string): number[] {
  const base = jsonText(model.baseUrl);
  if (!body.includes(base)) return [];
  const standIn = jsonText(STAND_IN);
  if (body.includes(standIn)) throw new Error(`Internal: the ${name} answer holds the base URL's stand-in.`);
  const marked = Buffer.from(A.answerText(wholeAnswer({ ...model, baseUrl: STAND_IN }, name)));
  const standInBytes = Buffer.from(standIn);
  const baseBytes = Buffer.byteLength(base);
  const at: number[] = [];
  const grow = standInBytes.length - baseBytes;
  for (let i = marked.indexOf(standInBytes); i !== -1; i = marked.indexOf(standInBytes, i + standInBytes.length))
    at.push(i - at.length * grow);
  if (!Buffer.from(rebase(Buffer.from(body), at, baseBytes, standInBytes)).equals(marked)) {
    throw new Error(`Internal: the base URL's places in the ${name} answer do not rebuild it.`);
  }
  return at;
}

/**
 * The answer `name`'s body `body` with TEMPLATE_MARK where it writes the site's base URL, found as baseUrlOffsets
 * finds them (the answer computed again with a stand-in base URL), or null when it writes none. Checked: the
 * template joined with the base URL is the body.
 */
export function baseUrlTemplate(model: SiteModel, name: WholeAnswer, body: string): string | null {
  const base = jsonText(model.baseUrl);
  if (!body.includes(base)) return null;
  const standIn = jsonText(STAND_IN);
  if (body.includes(standIn) || body.includes(TEMPLATE_MARK))
    throw new Error(`Internal: the ${name} answer holds the base URL's stand-in.`);
  const template = A.answerText(wholeAnswer({ ...model, baseUrl: STAND_IN }, name))
    .split(standIn)
    .join(TEMPLATE_MARK);
  if (template.split(TEMPLATE_MARK).join(base) !== body)
    throw new Error(`Internal: the base URL's places in the ${name} answer do not rebuild it.`);
  return template.includes(TEMPLATE_MARK) ? template : null;
}

/** The sha1 of each whole answer's body, made once per answer (a model that shares a part with the last one shares
 * its answers, src/php/answers.ts: a large site's icons answer is large). */
const digests = new WeakMap<A.Answer, Buffer>();
function bodyDigest(answer: A.Answer, body: string): Buffer {
  let sha1 = digests.get(answer);
  if (sha1 === undefined) digests.set(answer, (sha1 = createHash("sha1").update(body).digest()));
  return sha1;
}

export interface EdgeDataOptions {
  /** `--base-url request`: the handler answers with each request's origin (core.json says so, with the offsets). */
  requestOrigin?: boolean;
  /** What earlier builds made (`dev` keeps it between builds). */
  memo?: EdgeDataMemo;
}

/** One kind's rows as JSON texts, their keys, and their bytes in a shard (each text and a comma or a bracket). */
interface PrintedRows {
  from: readonly object[];
  texts: string[];
  keys: string[];
  bytes: number;
  /** Made from `base`'s with the rows at `at` printed again (the same keys in the same order), until split. */
  patched?: { base: PrintedRows; at: readonly number[] };
}

/** A kind's rows made again where the model's part changed: each row's index and row, or null when its keys changed. */
type ChangedRows = (last: PrintedRows) => Array<[number, unknown[]]> | null;

/**
 * The shards' texts, and what they are made of, from one build to the next (`dev` keeps them): each kind's rows as
 * JSON, printed again only when a part of the model they are made of is not the last build's (src/content/
 * load-content.ts: ModelParts), and then only the rows of the entries that changed when the part keeps its keys in
 * order; each kind's rows split into shards and joined, the shards of the rows printed again joined again; and each
 * shard's text with its sha1, hashed again only when it changed. An edit of one mapping prints one row and joins one
 * shard's piece again: the other rows and shards are not printed, joined or hashed again. A build without `dev`
 * makes one for itself.
 */
export class EdgeDataMemo {
  private readonly rows = new Map<LookupKind, PrintedRows>();
  private readonly split = new Map<
    LookupKind,
    { rows: PrintedRows; shards: number; pieces: string[]; members: number[][] }
  >();
  private readonly shards: Array<{ pieces: readonly string[]; text: string; hash?: Buffer }> = [];

  /**
   * A kind's rows, the last build's when the parts they are made of are; else those `changed` gives printed over the
   * last build's (an edited mapping: one row), or all of `rows` printed.
   */
  rowsOf(kind: LookupKind, from: readonly object[], rows: () => unknown[][], changed?: ChangedRows): PrintedRows {
    const last = this.rows.get(kind);
    if (last !== undefined && last.from.length === from.length && last.from.every((part, i) => part === from[i]))
      return last;
    const rowsAt = last === undefined ? null : (changed?.(last) ?? null);
    let made: PrintedRows;
    if (last !== undefined && rowsAt !== null) {
      made = {
        from,
        texts: [...last.texts],
        keys: last.keys,
        bytes: last.bytes,
        patched: { base: last, at: rowsAt.map(([i]) => i) },
      };
      for (const [i, row] of rowsAt) {
        const text = JSON.stringify(row);
        made.bytes += text.length - made.texts[i]!.length;
        made.texts[i] = text;
      }
      last.patched = undefined; // what it was made from is let go
    } else {
      made = { from, texts: [], keys: [], bytes: 0 };
      for (const row of rows()) {
        const text = JSON.stringify(row);
        made.texts.push(text);
        made.keys.push(row[0] as string);
        made.bytes += text.length + 1;
      }
    }
    this.rows.set(kind, made);
    return made;
  }

  /** A kind's rows joined by shard (the JSON array's inside), in their order: the shards of rows printed again over
   * the last split's are joined again, the others kept. */
  piecesOf(kind: LookupKind, rows: PrintedRows, shards: number): string[] {
    const last = this.split.get(kind);
    if (last !== undefined && last.rows === rows && last.shards === shards) return last.pieces;
    let pieces: string[];
    let members: number[][];
    if (last !== undefined && last.shards === shards && rows.patched?.base === last.rows) {
      ({ members } = last);
      pieces = [...last.pieces];
      for (const shard of new Set(rows.patched.at.map((i) => shardOf(kind, rows.keys[i]!, shards)))) {
        pieces[shard] = members[shard]!.map((i) => rows.texts[i]!).join(",");
      }
    } else {
      members = Array.from({ length: shards }, () => []);
      for (let i = 0; i < rows.keys.length; i++) members[shardOf(kind, rows.keys[i]!, shards)]!.push(i);
      pieces = members.map((list) => list.map((i) => rows.texts[i]!).join(","));
    }
    rows.patched = undefined;
    this.split.set(kind, { rows, shards, pieces, members });
    return pieces;
  }

  /** The shards of the kinds' pieces (each kind's, by shard: e, x, v, f), each the last build's while its four pieces
   * are alike, with its sha1 when `hashed` (dev's: its update then neither builds nor hashes an unchanged shard). */
  shardTexts(
    pieces: ReadonlyArray<readonly string[]>,
    shards: number,
    hashed: boolean,
  ): Array<{ text: string; hash?: Buffer }> {
    this.shards.length = Math.min(this.shards.length, shards);
    return Array.from({ length: shards }, (_, i) =>
      this.shard(
        i,
        pieces.map((kind) => kind[i]!),
        hashed,
      ),
    );
  }

  private shard(i: number, pieces: readonly string[], hashed: boolean): { text: string; hash?: Buffer } {
    const last = this.shards[i];
    if (
      last !== undefined &&
      last.pieces.every((piece, k) => piece === pieces[k]) &&
      (last.hash !== undefined || !hashed)
    )
      return last;
    // The JSON of its ShardData, keys in this order.
    const text = `{"e":[${pieces[0]}],"x":[${pieces[1]}],"v":[${pieces[2]}],"f":[${pieces[3]}]}`;
    const made = { pieces, text, ...(hashed ? { hash: createHash("sha1").update(text).digest() } : {}) };
    this.shards[i] = made;
    return made;
  }
}

type DataFile = { path: string; data: string; hash?: Buffer };

/**
 * The data files, as paths relative to the output folder ("_edge-data/core.json") and their text; a whole answer's
 * file with its sha1 (its ETag's), which the writers take for its manifest entry.
 */
export function edgeDataFiles(model: SiteModel, options: EdgeDataOptions = {}): DataFile[] {
  const files: DataFile[] = [];
  const whole = wholeAnswerFiles(model, options, files);
  const shards = shardFiles(model, options, files);
  const core: CoreData = {
    format: DATA_FORMAT,
    shards,
    baseUrl: model.baseUrl,
    service: model.service,
    serviceVersion: model.serviceVersion,
    description: model.description,
    buildTime: model.buildTime,
    config: { version: model.config.version, lastModified: model.config.lastModified },
    iconMapLastModified: model.iconMap.lastModified,
    extensionMapLastModified: model.extensionMap.lastModified,
    ...(options.requestOrigin === true ? { requestOrigin: true as const } : {}),
    files: FALLBACK_FILES.map((name) => fileRow(model, name)),
    whole,
  };
  files.unshift({ path: `${DATA_FOLDER}/core.json`, data: JSON.stringify(core) });
  return files;
}

/** Each whole answer's entry in core.json; the files of those too large to be inline, and of their base URL's places. */
function wholeAnswerFiles(model: SiteModel, options: EdgeDataOptions, files: DataFile[]): CoreData["whole"] {
  const whole = {} as CoreData["whole"];
  for (const name of WHOLE_ANSWERS) {
    const answer = wholeAnswer(model, name);
    const body = A.answerText(answer);
    const meta: WholeMeta = { status: answer.status };
    const sha1 = body === "" ? undefined : bodyDigest(answer, body);
    if (answer.status === 200 && sha1 !== undefined) meta.etag = etagOf(sha1);
    const inline = body.length <= INLINE_BYTES;
    if (inline) meta.body = body;
    else
      files.push({
        path: `${DATA_FOLDER}/whole/${name}.json`,
        data: body,
        ...(sha1 === undefined ? {} : { hash: sha1 }),
      });
    if (options.requestOrigin === true && inline) {
      const at = baseUrlOffsets(model, name, body);
      if (at.length > 0) meta.baseAt = at;
    } else if (options.requestOrigin === true) {
      const template = baseUrlTemplate(model, name, body);
      if (template !== null) {
        meta.templateFile = true;
        files.push({ path: `${DATA_FOLDER}/whole/${name}.template`, data: template });
      }
    }
    whole[name] = meta;
  }
  return whole;
}

/** An icon file's row: its name, size and time, or its name alone when icons/ has no such file. */
function fileRow(model: SiteModel, name: string): FileRow {
  const f = model.iconDirFiles.get(name);
  return f === undefined ? [name] : [name, f.size, f.lastModified];
}

/** The rows of the entries of `now` changed since `was` (each with its index), or null when the keys changed. */
function changedIn<V>(
  was: ReadonlyMap<string, V>,
  now: ReadonlyMap<string, V>,
  row: (key: string, value: V) => unknown[],
): Array<[number, unknown[]]> | null {
  const changed = changedEntries(was, now);
  return (
    changed && changed.at.map((i, j): [number, unknown[]] => [i, row(changed.keys[j]!, now.get(changed.keys[j]!)!)])
  );
}

/**
 * Each kind's rows, in the model's order (a row's first item is its key), with the parts of the model they are made
 * of, and (an edit that keeps a map's keys in order) the rows of the entries changed since the last build.
 */
function lookupRows(model: SiteModel): Array<[LookupKind, () => unknown[][], readonly object[], ChangedRows?]> {
  const eRow = (k: string, v: string): unknown[] => [k, ...fileRow(model, v)];
  return [
    [
      "e",
      () => Array.from(model.iconMap.entries, ([k, v]) => eRow(k, v)),
      [model.iconMap, model.iconDirFiles],
      (last) =>
        last.from[1] === model.iconDirFiles
          ? changedIn((last.from[0] as SiteModel["iconMap"]).entries, model.iconMap.entries, eRow)
          : null,
    ],
    [
      "x",
      () => Array.from(model.extensionMap.indexing, ([k, v]) => [k, v]),
      [model.extensionMap],
      (last) =>
        changedIn((last.from[0] as SiteModel["extensionMap"]).indexing, model.extensionMap.indexing, (k, v) => [k, v]),
    ],
    [
      "v",
      () => Array.from(model.extensionMap.viewing, ([k, v]) => [k, v]),
      [model.extensionMap],
      (last) =>
        changedIn((last.from[0] as SiteModel["extensionMap"]).viewing, model.extensionMap.viewing, (k, v) => [k, v]),
    ],
    ["f", () => Array.from(model.iconDirFiles, ([k, f]) => [k, f.size, f.lastModified]), [model.iconDirFiles]],
  ];
}

/** The shard files of the lookups; returns how many shards there are (a power of two, by the rows' bytes). */
function shardFiles(model: SiteModel, options: EdgeDataOptions, files: DataFile[]): number {
  const lookups = lookupRows(model);
  const memo = options.memo ?? new EdgeDataMemo();
  const printed = lookups.map(([kind, rows, from, changed]) => memo.rowsOf(kind, from, rows, changed));
  let bytes = 0;
  for (const rows of printed) bytes += rows.bytes;
  let shards = 1;
  while (bytes / shards > SHARD_BYTES) shards *= 2;
  const pieces = lookups.map(([kind], j) => memo.piecesOf(kind, printed[j]!, shards));
  for (const [i, shard] of memo.shardTexts(pieces, shards, options.memo !== undefined).entries()) {
    files.push({
      path: `${DATA_FOLDER}/shards/${i}.json`,
      data: shard.text,
      ...(shard.hash === undefined ? {} : { hash: shard.hash }),
    });
  }
  return shards;
}
