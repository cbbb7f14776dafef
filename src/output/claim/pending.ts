// src/output/claim/pending.ts
// I/O: which folders are this tool's by their identity (inode and birth time, src/layout/stamp.ts) rather than by a
// file inside: the records' `site.id` names --out and each folder beside it, and the pending record
// (`<records>.pending`) names each folder a full build swaps in before its records name it, so that a build killed
// between a swap and its records leaves no folder the next build would refuse as another's.

import { appendFileSync, mkdirSync, readdirSync, readFileSync, statSync, unlinkSync } from "node:fs";
import path from "node:path";
import { pendingOf, SITE_ID_FILE, STAMP_FILE } from "../../layout/paths.js";
import { parseFolderIds, parseIdLine, parseStamp, printIdLine, type FolderId } from "../../layout/stamp.js";

const HEADER = "build-index-site pending 1";

/** Adds a folder about to be swapped in: `dir` relative to the folder that holds --out, none for --out itself.
 * Written before the swap (a line cut short by a kill names nothing), kept until the records name it. */
export function addPending(file: string, id: FolderId, dir?: string): void {
  let text: string | null = null;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    // none yet
  }
  if (text === null || !text.startsWith(`${HEADER}\n`)) {
    mkdirSync(path.dirname(file), { recursive: true });
    appendFileSync(file, `${text === null ? "" : "\n"}${HEADER}\n`);
  }
  appendFileSync(file, printIdLine(id, dir));
}

/** Removes the pending record: the records now name every folder the build swapped in. */
export function removePending(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // none
  }
}

/** Whether the records folder `records` (its `site.id`, or its pending record) names the folder `dir` (relative to
 * the folder that holds --out; null for --out) as the one of identity `id`. */
export function recordsName(records: string, dir: string | null, id: FolderId): boolean {
  const [idsText, text] = [readText(path.join(records, SITE_ID_FILE)), readText(pendingOf(records))];
  const ids = parseFolderIds(idsText);
  if (ids !== null && (dir === null ? ids.out : ids.beside.get(dir)) === id) return true;
  // After the header, whole lines only: the text from the last header on (one written over a torn line).
  const at = text.lastIndexOf(`${HEADER}\n`);
  if (at < 0) return false;
  return text
    .slice(at + HEADER.length + 1)
    .split("\n")
    .slice(0, -1)
    .some((line) => {
      const named = parseIdLine(line);
      return named !== null && named.id === id && (named.dir ?? null) === dir;
    });
}

/**
 * The --out among those whose records lie in `root` (`.build-index-site/`) whose records name the folder `dir` of
 * identity `id` (`except`: the name of this --out, not looked at): its name and the folders its builds wrote beside it
 * (its stamp's and those its `site.id` names); null when none does.
 */
export function ownerOf(
  root: string,
  dir: string,
  id: FolderId,
  except: string,
): { out: string; beside: string[] } | null {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return null;
  }
  for (const name of names.sort()) {
    const records = path.join(root, name);
    if (name === except || statSync(records, { throwIfNoEntry: false })?.isDirectory() !== true) continue;
    if (!recordsName(records, dir, id)) continue;
    const stamp = parseStamp(readText(path.join(records, STAMP_FILE)));
    const ids = parseFolderIds(readText(path.join(records, SITE_ID_FILE)));
    return { out: name, beside: [...new Set([...(stamp?.beside ?? []), ...(ids?.beside.keys() ?? [dir])])] };
  }
  return null;
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}
