// src/content/inputs-key.ts
// The key of a build's inputs: every content file's bytes hashed (times can be normalised, e.g. to 1 in Nix, and then a
// same-size edit would look unchanged), with the options and the tool's fingerprint. A build whose key its records
// hold is up to date (src/pipeline/up-to-date.ts).

import { createHash } from "node:crypto";
import type { FileFacts } from "./file-facts.js";
import type { RawContent, RawFile, RawText } from "./read-content.js";

const HEADER = "build-index-site inputs 1";

/** The options that change what a build writes, as its key holds them (src/pipeline/options.ts: keySettings). */
export interface KeySettings {
  baseUrl: string | undefined;
  /** true with --base-url request (absent otherwise, so that other builds keep their key). */
  requestOrigin?: true;
  sourceDateEpoch: string | undefined;
  hosts: readonly string[];
  plan: string;
  /** false with --no-catalogue (absent otherwise, so that default builds keep their key). */
  catalogue?: false;
}

/**
 * The key of a build's inputs, `tool` being the tool's fingerprint (src/pipeline/up-to-date.ts: toolFingerprint).
 * Modification times are clamped like the build clamps them under SOURCE_DATE_EPOCH, and paths are relative, so the
 * key (and so the output) stays reproducible.
 */
export async function inputsKey(raw: RawContent, settings: KeySettings, tool: string): Promise<string> {
  const hash = createHash("sha1").update(`${HEADER}\n${tool}\n${JSON.stringify(settings)}\n`);
  const limit = settings.sourceDateEpoch ? Number(settings.sourceDateEpoch) * 1000 : Infinity;
  // Each text by the sha1 of its bytes where the content's facts have it (the published ones), else by itself.
  const text = (name: string, t: RawText): void => {
    hash.update(`${name} ${Math.min(t.file.mtimeMs, limit)} `);
    if (t.file.facts === undefined) hash.update(t.text).update("\0");
    else hash.update("sha1 ").update(t.file.facts.hash).update("\0");
  };
  for (const [name, t] of Object.entries(raw.json).sort(([a], [b]) => (a < b ? -1 : 1))) text(name, t);
  if (raw.configReference) text("reference", raw.configReference);
  // Published files by their bytes' hash (and their time, which the copy keeps). The JSON texts above are among them.
  // In runs whose ends the files' own hashes choose (about one in 64), each run by its sha1: `dev` hashes again only
  // the runs that an edit changed or a file added or removed reached (a large site publishes many thousands).
  const files = raw.published;
  for (let start = 0; start < files.length;) {
    let end = start;
    while (end < files.length && !endsRun(files[end++]!)) {
      /* to the run's last file */
    }
    hash.update(runDigest(files, start, end, limit));
    start = end;
  }
  return hash.digest("base64url");
}

/** Whether a file ends its run in inputsKey: a property of its bytes, so that an edit moves no other run's ends. */
function endsRun(f: RawFile): boolean {
  if (f.facts === undefined)
    throw new Error(`Internal: ${f.path} was not read (readContent gives every published file its facts).`);
  return f.facts.hash[19]! % 64 === 0;
}

/** A run's sha1, kept by its first file's facts (the content cache keeps a file's facts while it is unchanged) for
 * as long as they live: the same again while the run holds the same files with the same facts, sizes and times. */
interface KeptRun {
  facts: FileFacts[];
  paths: string[];
  sizes: number[];
  mtimes: number[];
  limit: number;
  digest: Buffer;
}
const runs = new WeakMap<FileFacts, KeptRun>();
function runDigest(files: readonly RawFile[], start: number, end: number, limit: number): Buffer {
  const kept = runs.get(files[start]!.facts!);
  if (kept !== undefined && kept.limit === limit && kept.facts.length === end - start) {
    let same = true;
    for (let i = start, k = 0; i < end && same; i++, k++) {
      const f = files[i]!;
      same =
        kept.facts[k] === f.facts &&
        kept.paths[k] === f.path &&
        kept.sizes[k] === f.size &&
        kept.mtimes[k] === f.mtimeMs;
    }
    if (same) return kept.digest;
  }
  const hash = createHash("sha1");
  for (let i = start; i < end; i++) {
    const f = files[i]!;
    hash
      .update(`${f.path}\0${f.size}\0${Math.min(f.mtimeMs, limit)}\0`)
      .update(f.facts!.hash)
      .update("\n");
  }
  const digest = hash.digest();
  const run = files.slice(start, end);
  runs.set(files[start]!.facts!, {
    facts: run.map((f) => f.facts!),
    paths: run.map((f) => f.path),
    sizes: run.map((f) => f.size),
    mtimes: run.map((f) => f.mtimeMs),
    limit,
    digest,
  });
  return digest;
}
