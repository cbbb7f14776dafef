// src/layout/stamp.ts
// The stamp a build leaves in its records (`build.json`) and in each folder it writes beside --out: what was built
// from which inputs, and which folders belong to it. Pure: printing and parsing only.

/** Bumped when the layout changes; a build of another format is not read (it is rebuilt, and `verify` refuses it). */
export const LAYOUT_FORMAT = 3;

export interface BuildStamp {
  format: number;
  /** The name of --out (the folder the stamp belongs to): a folder beside --out that names another is not ours. */
  out: string;
  /** The key of the inputs (content, options, tool): equal keys build equal outputs. */
  key: string;
  hosts: string[];
  warnings: number;
  answers: number;
  rules: number;
  /** The folders written beside --out (".netlify/v1"), each with this stamp. */
  beside: string[];
  /** The time the answers give as the build's (seconds since the epoch: SOURCE_DATE_EPOCH, else when it ran): the
   * same inputs at the same time build the same bytes (`dev` fills its memory so, src/cli/dev.ts). */
  time?: number;
  /** The fingerprint of the tool that wrote it (src/pipeline/up-to-date.ts): a rebuild by another is likely to be
   * written in full (src/cli/startup/heap-growth.ts). Absent from builds before it was recorded. */
  tool?: string;
}

/**
 * The identity of the --out folder a build swapped in: its inode, which a rename keeps. Kept in a file of its own
 * (`site.id`), the one record that differs between two builds of the same inputs. A build stopped between two swaps
 * leaves records that name another --out: the next build starts over, and readers say it is incomplete. The inode is
 * printed in 20 digits (any 64-bit number), so that the record's size, and a build's count of bytes written, never
 * depends on which inode the folder got.
 */
export const printSiteId = (ino: number): string => `ino ${String(ino).padStart(20, "0")}\n`;

export function parseSiteId(text: string): number | null {
  const m = /^ino (\d+)\n$/.exec(text);
  return m === null ? null : Number(m[1]);
}

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
