// src/output/write/journal.ts
// I/O: the update journal (src/layout/paths.ts: `.build-index-site/<out>.update`). Before the in-place updater touches
// a folder it appends every path it will change: a rebuild stopped midway leaves whole files, old and new, and a
// journal that marks the output incomplete. The next build treats every journaled path as changed (rewriting or
// removing it), then deletes the journal: it finishes the update.

import { appendFileSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { insideFolder } from "../../model/relative-path.js";

const JOURNAL_HEADER = "build-index-site update 1";
/** A new file's bytes go here first, then it is renamed over its target. */
export const TMP_SUFFIX = ".bis-new";

/** What an interrupted update left: folder (absolute) → the paths in it that may hold new bytes, or none. */
export type Dirty = Map<string, Set<string>>;

/** The journal's paths by folder; empty when there is no journal. */
export function readJournal(journal: string): Dirty {
  const dirty: Dirty = new Map();
  let text: string;
  try {
    text = readFileSync(journal, "utf8");
  } catch {
    return dirty;
  }
  const lines = text.split("\n");
  if (lines[0] !== JOURNAL_HEADER) return dirty;
  for (const line of lines.slice(1)) {
    const tab = line.indexOf("\t");
    if (tab <= 0) continue; // a line cut short by the kill
    const dir = line.slice(0, tab);
    const rel = line.slice(tab + 1);
    if (!insideFolder(rel)) continue; // not this tool's: nothing outside the folder is touched
    const set = dirty.get(dir) ?? new Set();
    set.add(rel);
    dirty.set(dir, set);
  }
  return dirty;
}

/** Starts a journal (an update begins), or keeps the one an interrupted update left (its paths stay dirty). */
export function openJournal(journal: string): void {
  try {
    const text = readFileSync(journal, "utf8");
    if (text.startsWith(`${JOURNAL_HEADER}\n`)) return;
  } catch {
    // none
  }
  mkdirSync(path.dirname(journal), { recursive: true });
  writeFileSync(journal, `${JOURNAL_HEADER}\n`);
}

/** Appends the paths of `dir` an update is about to change. */
export function journalPaths(journal: string, dir: string, paths: readonly string[]): void {
  if (paths.length > 0) appendFileSync(journal, paths.map((rel) => `${dir}\t${rel}\n`).join(""));
}

/** Removes the journal: the update is finished. */
export function removeJournal(journal: string): void {
  try {
    unlinkSync(journal);
  } catch {
    // none
  }
}

/**
 * Puts right what an interrupted update left in `dir` before a full build replaces it, or an update runs again:
 * removes the temporary files beside its journaled paths. The paths themselves hold whole files, old or new.
 */
export function removeTemporaries(dir: string, paths: Iterable<string>): void {
  for (const rel of paths) {
    try {
      unlinkSync(path.join(dir, rel) + TMP_SUFFIX);
    } catch {
      // not there
    }
  }
}
