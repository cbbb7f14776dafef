// src/output/claim/folder-checks.ts
// I/O: the places the build refuses to write, checked before it writes there: an --out over the content or the file
// system's root, records of --out that are not this tool's, and host folders beside --out that it must not replace.

import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { UsageError } from "../../errors.js";
import { MANIFEST_FILE, OLD_BESIDE_STAMP_FILE, RECORDS_ROOT } from "../../layout/paths.js";
import { folderId } from "../../layout/stamp.js";
import { leftoversCommand } from "./leftovers.js";
import { hasMarker, REPLACE_FLAG } from "./out-folder.js";
import { ownerOf, recordsName } from "./pending.js";

const inside = (child: string, parent: string): boolean => child === parent || child.startsWith(parent + path.sep);

/** Refuses output folders that would overwrite the content or something much larger. */
export function checkFolders(contentDir: string, outDir: string): void {
  const content = realNearest(contentDir);
  const out = realNearest(outDir);
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
export async function checkRecords(records: string, replaceOut: boolean): Promise<void> {
  let st;
  try {
    st = statSync(records, { throwIfNoEntry: false });
  } catch {
    return; // a path the file system refuses (too long, not a folder): the claim of --out reports it, with its hint
  }
  if (st === undefined || replaceOut) return;
  if (st.isDirectory() && ((await hasMarker(records)) || readdirSync(records).length === 0)) return;
  const shown = path.relative(process.cwd(), records) || records;
  throw new UsageError(
    `${shown} exists and was not written by build-index-site: the build keeps the records of --out there.`,
    `Move it away, or pass ${REPLACE_FLAG} to let the build replace it.`,
  );
}

/** Where a host's folder beside --out goes ("the folder that holds --out" + dir); refuses places the build must not
 * replace: inside or around the output or content folder, a folder the build did not write, or one that the build
 * of another --out in the same folder wrote (two sites would overwrite each other's). The folder holds no file of
 * ours: it is this --out's when its records name its identity (src/output/claim/pending.ts). */
export function checkBeside(options: { content: string; out: string }, dir: string): string {
  const out = realNearest(options.out);
  const content = realNearest(options.content);
  const target = path.join(path.dirname(out), ...dir.split("/"));
  if (inside(target, out) || inside(out, target) || inside(target, content) || inside(content, target)) {
    throw new UsageError(
      `--out ${options.out} puts the host folder ${dir} (beside it) in or around the output or content folder.`,
      "Choose an output folder of its own, e.g. dist, or leave the host out of --hosts.",
    );
  }
  const stat = statSync(target, { bigint: true, throwIfNoEntry: false });
  if (stat === undefined) return target;
  const shown = path.relative(process.cwd(), target) || target;
  const root = path.join(path.dirname(out), RECORDS_ROOT);
  const name = path.basename(out);
  let owner: { out: string; beside: readonly string[] } | null = null;
  if (stat.isDirectory()) {
    if (recordsName(path.join(root, name), dir, folderId(stat))) return target;
    // A build of layout format 3 or before kept its marks inside: its manifest, and a stamp naming its --out.
    const old = statSync(path.join(target, MANIFEST_FILE), { throwIfNoEntry: false })?.isFile() === true;
    const oldOwner = old ? oldBesideStamp(target) : null;
    if (old && (oldOwner === null || oldOwner.out === name)) return target;
    if (!old && readdirSync(target).length === 0) return target;
    owner = oldOwner ?? ownerOf(root, dir, folderId(stat), name);
  }
  if (owner === null) {
    throw new UsageError(
      `${shown} exists and was not written by build-index-site: the build would replace it.`,
      "Move it away (the build writes this folder whole), or leave the host out of --hosts.",
    );
  }
  const other = path.join(path.dirname(options.out), owner.out);
  throw new UsageError(
    `${shown} belongs to the build of ${other}, not of --out ${options.out}: both sites would write it.`,
    `If ${other} was this site's earlier output folder, remove what its build left: ${leftoversCommand(other, owner.beside.length === 0 ? [dir] : owner.beside)}. ` +
      `Else build each site in a folder of its own (e.g. ${path.join(options.out, "..", "site-b", path.basename(options.out))}), or leave the host out of --hosts.`,
  );
}

/** What the stamp an older build left in a folder beside its --out says of its owner: the name of that --out and the
 * folders it wrote beside it; null when it says nothing readable (any layout format). */
function oldBesideStamp(folder: string): { out: string; beside: string[] } | null {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path.join(folder, OLD_BESIDE_STAMP_FILE), "utf8"));
  } catch {
    return null;
  }
  const s = (typeof value === "object" && value !== null ? value : {}) as { out?: unknown; beside?: unknown };
  if (typeof s.out !== "string") return null;
  const beside = Array.isArray(s.beside) ? s.beside.filter((d): d is string => typeof d === "string") : [];
  return { out: s.out, beside };
}

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
