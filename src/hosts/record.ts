// src/hosts/record.ts
// What the records keep of the hosts' files (`hosts.json`, src/layout/paths.ts): which host wrote which file where,
// the size of its handler, and a key of what they were all made from: the route table, the service's name, the name
// of --out, the hosts chosen and the tool, and each file's sha1. An edit that leaves these inputs as they were (a
// mapping's icon, an icon's bytes) leaves every host file as it was: the next build reads them back instead of making
// them again, and takes them only when each still hashes as listed. Pure: the key, printing and parsing; reading the
// files is src/layout/read-build.ts's.

import { createHash } from "node:crypto";
import { insideFolder } from "../model/relative-path.js";
import { HOST_NAMES, type HostName } from "./names.js";
import type { HostFile, HostOutput, HostInput } from "./types.js";

/** A file as the record lists it: its path and the sha1 of its bytes (base64url), which are in the file. */
export interface RecordedFile {
  path: string;
  sha1: string;
}

/** One host's files as the record lists them. */
export interface RecordedHost {
  name: HostName;
  /** Its own folder's files (`hosts/<name>/`), in the order the adapter made them. */
  files: RecordedFile[];
  docroot?: "site" | "plain";
  docrootDir?: string;
  beside: Array<{ dir: string; files: RecordedFile[]; plainFiles?: string }>;
  /** Its handler's size, as is and gzipped (the plan limits), when it has one. */
  handlerBytes?: number;
  handlerGzipBytes?: number;
}

export interface HostsRecord {
  key: string;
  hosts: RecordedHost[];
}

const FORMAT = 1;

/**
 * The key of what the hosts' files are made from (`tool`: the fingerprint of the tool's code, adapters and handler):
 * the route table's JSON, each set's members by the sha1 of theirs.
 */
export function hostsKey(input: Omit<HostInput, "entry">, hosts: readonly HostName[], tool: string): string {
  const text = JSON.stringify([FORMAT, tool, input.service, input.out, hosts, input.table], (key, value: unknown) =>
    key === "in" && Array.isArray(value) ? { sha1: membersDigest(value as string[]) } : value,
  );
  return createHash("sha1").update(text).digest("base64url");
}

/**
 * The sha1 of a set's members as JSON, kept by the list: `dev`'s route table keeps its lists while the model's keys
 * are the same (src/routes/build-routes.ts: RoutesMemo), and a large table's lists are long to print and hash at
 * every rebuild only to find the hosts' files unchanged.
 */
function membersDigest(members: readonly string[]): string {
  let digest = membersDigests.get(members);
  if (digest === undefined)
    membersDigests.set(members, (digest = createHash("sha1").update(JSON.stringify(members)).digest("base64url")));
  return digest;
}
const membersDigests = new WeakMap<readonly string[], string>();

/** The sha1 of a host file's bytes (its text as UTF-8, or the bytes read back), as the record lists it. */
export const fileHash = (data: string | Uint8Array): string => createHash("sha1").update(data).digest("base64url");

const recorded = (files: readonly HostFile[]): RecordedFile[] =>
  files.map((f) => ({ path: f.path, sha1: f.sha1 ?? fileHash(f.data) }));

/** The record's text: JSON, a host per line. */
export function printHostsRecord(
  key: string,
  outputs: ReadonlyArray<{ name: HostName; output: HostOutput; handlerBytes?: number; handlerGzipBytes?: number }>,
): string {
  const hosts = outputs.map(({ name, output, handlerBytes, handlerGzipBytes }): RecordedHost => ({
    name,
    files: recorded(output.files),
    ...(output.docroot === undefined ? {} : { docroot: output.docroot }),
    ...(output.docrootDir === undefined ? {} : { docrootDir: output.docrootDir }),
    beside: (output.beside ?? []).map((b) => ({
      dir: b.dir,
      files: recorded(b.files),
      ...(b.plainFiles === undefined ? {} : { plainFiles: b.plainFiles }),
    })),
    ...(handlerBytes === undefined ? {} : { handlerBytes }),
    ...(handlerGzipBytes === undefined ? {} : { handlerGzipBytes }),
  }));
  return `{"format":${FORMAT},"key":${JSON.stringify(key)},"hosts":[\n${hosts.map((h) => JSON.stringify(h)).join(",\n")}\n]}\n`;
}

/** The record, or null when the text is not one this tool reads (then every host file is made again). */
export function parseHostsRecord(text: string): HostsRecord | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const v = value as { format?: unknown; key?: unknown; hosts?: unknown };
  if (
    typeof v !== "object" ||
    v === null ||
    v.format !== FORMAT ||
    typeof v.key !== "string" ||
    !Array.isArray(v.hosts)
  )
    return null;
  return v.hosts.every(recordedHost) ? { key: v.key, hosts: v.hosts } : null;
}

/** A path inside its folder (insideFolder), without a backslash. The record says where files are read back from and
 * written to: one that names anything else is not this tool's. */
const inside = (p: unknown): boolean => typeof p === "string" && insideFolder(p) && !p.includes("\\");
const files = (a: unknown): a is RecordedFile[] =>
  Array.isArray(a) &&
  a.every(
    (f: unknown) =>
      typeof f === "object" &&
      f !== null &&
      inside((f as RecordedFile).path) &&
      typeof (f as RecordedFile).sha1 === "string",
  );
const optional = (x: unknown, test: (x: unknown) => boolean): boolean => x === undefined || test(x);
const count = (n: unknown): boolean => Number.isInteger(n) && (n as number) >= 0;

function recordedHost(h: unknown): h is RecordedHost {
  if (typeof h !== "object" || h === null) return false;
  const r = h as Partial<Record<keyof RecordedHost, unknown>>;
  return (
    HOST_NAMES.includes(r.name as HostName) &&
    files(r.files) &&
    optional(r.docroot, (d) => d === "site" || d === "plain") &&
    optional(r.docrootDir, inside) &&
    optional(r.handlerBytes, count) &&
    optional(r.handlerGzipBytes, count) &&
    Array.isArray(r.beside) &&
    r.beside.every((b: unknown) => {
      const f = b as { dir?: unknown; files?: unknown; plainFiles?: unknown } | null;
      return typeof f === "object" && f !== null && inside(f.dir) && files(f.files) && optional(f.plainFiles, inside);
    })
  );
}
