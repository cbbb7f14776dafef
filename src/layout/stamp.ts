// src/layout/stamp.ts
// The stamp a build leaves in its records (`build.json`): what was built from which inputs, and which folders belong
// to it; and the identities of those folders (`site.id`). Pure: printing and parsing only.

/** Bumped when the layout changes; a build of another format is not read (it is rebuilt, and `verify` refuses it). */
export const LAYOUT_FORMAT = 4;

export interface BuildStamp {
  format: number;
  /** The name of --out (the folder the stamp belongs to). */
  out: string;
  /** The key of the inputs (content, options, tool): equal keys build equal outputs. */
  key: string;
  hosts: string[];
  warnings: number;
  answers: number;
  rules: number;
  /** The folders written beside --out (".netlify/v1"): the records keep each one's manifest and identity. */
  beside: string[];
  /** The time the answers give as the build's (seconds since the epoch: SOURCE_DATE_EPOCH, else when it ran): the
   * same inputs at the same time build the same bytes (`dev` fills its memory so, src/cli/dev.ts). */
  time?: number;
  /** The fingerprint of the tool that wrote it (src/pipeline/up-to-date.ts): a rebuild by another is likely to be
   * written in full (src/cli/startup/heap-growth.ts). Absent from builds before it was recorded. */
  tool?: string;
}

/**
 * A folder's identity: its inode and its birth time, each in 20 digits (any 64-bit number), so that the records' size,
 * and a build's count of bytes written, never depend on them. A rename keeps both; a folder removed and made again may
 * get the same inode, never the same birth time (where the file system keeps one; else 0, and the inode alone names
 * it).
 */
export type FolderId = string;

/** The identity of a folder as `stat(…, { bigint: true })` describes it. */
export const folderId = (st: { ino: bigint; birthtimeNs: bigint }): FolderId =>
  `${st.ino.toString().padStart(20, "0")}.${st.birthtimeNs.toString().padStart(20, "0")}`;

/**
 * The identities of the folders a build swapped in: --out's, then each folder beside it (".netlify/v1") with its own.
 * Kept in a file of its own (`site.id`), the one record that differs between two builds of the same inputs. A build
 * stopped between two swaps leaves records that name another --out: the next build starts over, and readers say it
 * is incomplete.
 */
export interface FolderIds {
  out: FolderId;
  /** By the folder's path relative to the folder that holds --out. */
  beside: ReadonlyMap<string, FolderId>;
}

/** One line of `site.id` (and of the pending record, src/output/claim/pending.ts): `id <identity>[ <dir>]`. */
export const printIdLine = (id: FolderId, dir?: string): string => `id ${id}${dir === undefined ? "" : ` ${dir}`}\n`;

/** A line `id <identity>[ <dir>]`, or null. */
export function parseIdLine(line: string): { id: FolderId; dir?: string } | null {
  const m = /^id (\d{20}\.\d{20})(?: (\S.*))?$/.exec(line);
  if (m === null) return null;
  return m[2] === undefined ? { id: m[1]! } : { id: m[1]!, dir: m[2] };
}

export const printSiteId = (id: FolderId, beside: ReadonlyArray<{ dir: string; id: FolderId }> = []): string =>
  printIdLine(id) + beside.map((b) => printIdLine(b.id, b.dir)).join("");

/** The identities `site.id` names, or null when it is not one (the first line names --out). */
export function parseFolderIds(text: string): FolderIds | null {
  const lines = text.split("\n");
  if (lines.pop() !== "") return null;
  const first = parseIdLine(lines[0] ?? "");
  if (first === null || first.dir !== undefined) return null;
  const beside = new Map<string, FolderId>();
  for (const line of lines.slice(1)) {
    const id = parseIdLine(line);
    if (id?.dir === undefined) return null;
    beside.set(id.dir, id.id);
  }
  return { out: first.id, beside };
}

/** --out's identity as `site.id` names it, or null. */
export const parseSiteId = (text: string): FolderId | null => parseFolderIds(text)?.out ?? null;

export const printStamp = (stamp: BuildStamp): string => `${JSON.stringify(stamp, null, 2)}\n`;

/** The stamp, or null when the text is not one of this format. */
export function parseStamp(text: string): BuildStamp | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const s = value as Partial<BuildStamp>;
  const strings = (a: unknown): a is string[] => Array.isArray(a) && a.every((x) => typeof x === "string");
  const count = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 0;
  if (
    s.format !== LAYOUT_FORMAT ||
    typeof s.out !== "string" ||
    typeof s.key !== "string" ||
    !strings(s.hosts) ||
    !strings(s.beside) ||
    !count(s.warnings) ||
    !count(s.answers) ||
    !count(s.rules) ||
    !(s.time === undefined || Number.isInteger(s.time)) ||
    !(s.tool === undefined || typeof s.tool === "string")
  )
    return null;
  return s as BuildStamp;
}
