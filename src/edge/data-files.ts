// src/edge/data-files.ts
// The handler's data files (src/edge/data.ts), computed from the site model by the same functions that precompute
// the answer files (src/api): the whole-site answers byte for byte, and the per-key lookups split into shards so
// that a request loads only the shards of the keys it asks for. A bounded number of files: at most MAX_SHARDS shards.

import * as A from "../api/answers.js";
import type { SiteModel } from "../model/types.js";
import { createHash } from "node:crypto";
import {
  DATA_FOLDER, DATA_FORMAT, FALLBACK_FILES, jsonText, rebase, shardOf, WHOLE_ANSWERS, type CoreData, type FileRow,
  type LookupKind, type ShardData, type WholeAnswer, type WholeMeta,
} from "./data.js";
import { etagOf } from "./etag.js";

/** A shard holds about this many bytes of JSON; the count is a power of two between 1 and MAX_SHARDS. */
const SHARD_BYTES = 16 * 1024;
export const MAX_SHARDS = 256;

/** A shard's file: the JSON of its ShardData (keys in this order), from its rows' JSON texts. */
const shardText = (shard: Record<LookupKind, string[]>): string =>
  `{"e":[${shard.e.join(",")}],"x":[${shard.x.join(",")}],"v":[${shard.v.join(",")}],"f":[${shard.f.join(",")}]}`;

/** Whole answers up to this size are inline in core.json (one file less to fetch). */
const INLINE_BYTES = 2048;

function wholeAnswer(model: SiteModel, name: WholeAnswer): A.Answer {
  switch (name) {
    case "info": return A.info(model);
    case "status": return A.status(model);
    case "config": return A.config(model);
    case "icons": return A.icons(model);
    case "iconMappings": return A.iconMappings(model);
    case "configReference": return A.configReference(model);
    case "extensionMappings-all": return A.extensionMappings(model, undefined);
    case "extensionMappings-indexing": return A.extensionMappings(model, "indexing");
    case "extensionMappings-viewing": return A.extensionMappings(model, "viewing");
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
  for (let i = marked.indexOf(standInBytes); i !== -1; i = marked.indexOf(standInBytes, i + standInBytes.length)) at.push(i - at.length * grow);
  if (!Buffer.from(rebase(Buffer.from(body), at, baseBytes, standInBytes)).equals(marked)) {
    throw new Error(`Internal: the base URL's places in the ${name} answer do not rebuild it.`);
  }
  return at;
}

/** The sha1 of each whole answer's body, made once per answer (a model that shares a part with the last one shares
 * its answers, src/api/answers.ts: a ×100 site's icons answer is 8.6 MB). */
const digests = new WeakMap<A.Answer, Buffer>();
function bodyDigest(answer: A.Answer, body: string): Buffer {
  let sha1 = digests.get(answer);
  if (sha1 === undefined) digests.set(answer, (sha1 = createHash("sha1").update(body).digest()));
  return sha1;
}

export interface EdgeDataOptions {
  /** `--base-url request`: the handler answers with each request's origin (core.json says so, with the offsets). */
  requestOrigin?: boolean;
}

/**
 * The data files, as paths relative to the output folder ("_edge-data/core.json") and their text; a whole answer's
 * file with its sha1 (its ETag's), which the writers take for its manifest entry.
 */
export function edgeDataFiles(model: SiteModel, options: EdgeDataOptions = {}): Array<{ path: string; data: string; hash?: Buffer }> {
  const files: Array<{ path: string; data: string; hash?: Buffer }> = [];
  const whole = {} as CoreData["whole"];
  for (const name of WHOLE_ANSWERS) {
    const answer = wholeAnswer(model, name);
    const body = A.answerText(answer);
    const meta: WholeMeta = { status: answer.status };
    const sha1 = body === "" ? undefined : bodyDigest(answer, body);
    if (answer.status === 200 && sha1 !== undefined) meta.etag = etagOf(sha1);
    const inline = body.length <= INLINE_BYTES;
    if (inline) meta.body = body;
    else files.push({ path: `${DATA_FOLDER}/whole/${name}.json`, data: body, ...(sha1 === undefined ? {} : { hash: sha1 }) });
    const at = options.requestOrigin === true ? baseUrlOffsets(model, name, body) : [];
    if (at.length > 0 && inline) meta.baseAt = at;
    else if (at.length > 0) {
      meta.baseAtFile = true;
      files.push({ path: `${DATA_FOLDER}/whole/${name}.base-at.json`, data: JSON.stringify(at) });
    }
    whole[name] = meta;
  }

  const fileRow = (name: string): FileRow => {
    const f = model.iconDirFiles.get(name);
    return f === undefined ? [name] : [name, f.size, f.lastModified];
  };
  // Each kind's rows, in the model's order; a row's first item is its key.
  const lookups: Array<[LookupKind, unknown[][]]> = [
    ["e", Array.from(model.iconMap.entries, ([k, v]) => [k, ...fileRow(v)])],
    ["x", Array.from(model.extensionMap.indexing, ([k, v]) => [k, v])],
    ["v", Array.from(model.extensionMap.viewing, ([k, v]) => [k, v])],
    ["f", Array.from(model.iconDirFiles, ([k, f]) => [k, f.size, f.lastModified])],
  ];
  // Each row's JSON, printed once: its length plus one byte (a comma or a bracket) sizes the shards, and the shards
  // are the rows' texts joined, as JSON.stringify would print each shard's object.
  let bytes = 0;
  const texts = lookups.map(([, rows]) => rows.map((row) => {
    const text = JSON.stringify(row);
    bytes += text.length + 1;
    return text;
  }));
  let shards = 1;
  while (shards < MAX_SHARDS && bytes / shards > SHARD_BYTES) shards *= 2;
  const data: Array<Record<LookupKind, string[]>> = Array.from({ length: shards }, () => ({ e: [], x: [], v: [], f: [] }));
  for (const [j, [kind, rows]] of lookups.entries()) {
    const text = texts[j]!;
    for (let i = 0; i < rows.length; i++) data[shardOf(kind, rows[i]![0] as string, shards)]![kind].push(text[i]!);
  }
  for (const [i, shard] of data.entries()) files.push({ path: `${DATA_FOLDER}/shards/${i}.json`, data: shardText(shard) });

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
    files: FALLBACK_FILES.map(fileRow),
    whole,
  };
  files.unshift({ path: `${DATA_FOLDER}/core.json`, data: JSON.stringify(core) });
  return files;
}
