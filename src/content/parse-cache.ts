// src/content/parse-cache.ts
// I/O: the record of the content's parses (load-content.ts: ParsedFiles) beside the build's records, so that the
// next command parses and checks only the JSON files whose bytes changed (`.build-index-site/<out>.parsed`,
// docs/layout.md). Its parses are V8's serialization of the parsed values (read back much faster than the text is
// parsed and checked), after a header that names the tool and the sha1 of what
// follows: a record of another tool, or one damaged in any byte, is not read, and then every file is parsed. Like the
// content cache, it describes nothing of the build: deleting it costs the next build time, nothing else.

import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { deserialize, serialize } from "node:v8";
import { digest } from "./file-facts.js";
import type { KeptParse } from "./load-content.js";
import { JSON_CONTENT } from "./read-content.js";

const HEADER = "build-index-site parsed 1";

/** The parses the record `file` holds for the tool `tool` (its fingerprint); none when it holds none this tool reads. */
export function readParses(file: string, tool: string): KeptParse[] {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return [];
  }
  // "<header>\n<tool>\n<sha1 of the payload, base64url>\n<payload>"
  const head = `${HEADER}\n${tool}\n`;
  const at = head.length + 28;
  if (bytes.length < at || bytes.toString("utf8", 0, head.length) !== head || bytes[at - 1] !== 0x0a) return [];
  const payload = bytes.subarray(at);
  if (bytes.toString("latin1", head.length, at - 1) !== digest(payload).toString("base64url")) return [];
  try {
    const kept = deserialize(payload) as unknown;
    return Array.isArray(kept) && kept.every(isKeptParse) ? kept : [];
  } catch {
    return [];
  }
}

/** The record of the parses for the tool `tool`: made once the model is built, so that the parses (many objects)
 * can be let go while the build is written. */
export function parsesRecord(tool: string, parses: readonly KeptParse[]): Buffer {
  const payload = serialize(parses);
  return Buffer.concat([Buffer.from(`${HEADER}\n${tool}\n${digest(payload).toString("base64url")}\n`), payload]);
}

/** Writes a record to `file` (beside it, then renamed over it). A failure costs the next build its parses, never this
 * one its output. */
export function writeParses(file: string, record: Buffer): void {
  const tmp = `${file}.new`;
  try {
    rmSync(tmp, { force: true });
    writeFileSync(tmp, record, { flag: "wx" });
    renameSync(tmp, file);
  } catch {
    rmSync(tmp, { force: true });
  }
}

function isKeptParse(x: unknown): x is KeptParse {
  if (typeof x !== "object" || x === null) return false;
  const { name, hash, problems } = x as Record<string, unknown>;
  if (!(JSON_CONTENT as readonly unknown[]).includes(name) || typeof hash !== "string" || !("value" in x)) return false;
  if (problems === undefined) return true;
  if (typeof problems !== "object" || problems === null) return false;
  const { skipBaseUrl, found } = problems as Record<string, unknown>;
  return typeof skipBaseUrl === "boolean" && Array.isArray(found);
}
