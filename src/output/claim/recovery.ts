// src/output/claim/recovery.ts
// I/O: what a killed build leaves beside the output folder, and how the next build (holding the lock) puts it right.
//
// The swap of a finished site into place is: write the journal `.<name>.swap` naming the new folder and the folder
// that will hold the old site, rename the output folder into the latter, rename the new folder into place, delete
// the journal, delete the old site. A build killed between the two renames leaves no output folder: the next build
// finds the journal first and finishes the swap (the new folder was complete before the journal was written).
// Temporary folders are named `.<name>.tmp-<pid>-XXXXXX` and `.<name>.old-<pid>-XXXXXX`. Every build of this tool
// takes the output folder's lock before it makes one, so while this build holds the lock, any such folder belongs to
// a build that is gone (killed; possibly in another container, where its pid means nothing here): it is removed.
// Nothing else beside the output folder is touched (other names, the unnumbered `.tmp-XXXXXX` of older versions).

import { readdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { removeTree } from "./remove-tree.js";

const HEADER = "build-index-site swap 1";

export const journalFile = (target: string): string =>
  path.join(path.dirname(target), `.${path.basename(target)}.swap`);
export const tmpPrefix = (target: string): string => `.${path.basename(target)}.tmp-${process.pid}-`;
export const oldPrefix = (target: string): string => `.${path.basename(target)}.old-${process.pid}-`;

/** The file-system calls of the swap and the recovery (replaceable, so that tests can stop a build at each one). */
export interface SwapMethods {
  writeFile: typeof writeFile;
  rename: typeof rename;
  rm: typeof removeTree;
  unlink: typeof unlink;
}

export function printJournal(newDir: string, oldDir: string): string {
  return `${HEADER}\nnew ${path.basename(newDir)}\nold ${path.basename(oldDir)}\n`;
}

function parseJournal(text: string, target: string): { newDir: string; oldDir: string } | null {
  const lines = text.split("\n");
  if (lines[0] !== HEADER || lines[3] !== "") return null;
  const name = (line: string | undefined, key: string, prefix: string): string | null => {
    if (!line?.startsWith(`${key} `)) return null;
    const value = line.slice(key.length + 1);
    return value.startsWith(prefix) && !value.includes("/") ? path.join(path.dirname(target), value) : null;
  };
  const base = `.${path.basename(target)}.`;
  const newDir = name(lines[1], "new", `${base}tmp-`);
  const oldDir = name(lines[2], "old", `${base}old-`);
  return newDir === null || oldDir === null ? null : { newDir, oldDir };
}

const exists = (p: string): Promise<boolean> =>
  stat(p).then(
    () => true,
    () => false,
  );

/**
 * Puts the output folder right after a killed build, before anything else is done to it. Call only while holding
 * its lock. Returns what it did, for messages and tests.
 */
export async function recover(
  target: string,
  fs: SwapMethods = { writeFile, rename, rm: removeTree, unlink },
): Promise<string[]> {
  const done: string[] = [];
  const journal = journalFile(target);
  const text = await readFile(journal, "utf8").catch(() => null);
  if (text !== null) {
    const swap = parseJournal(text, target);
    // An unreadable journal was being written when the build stopped: no rename had happened yet.
    if (swap !== null) {
      if (!(await exists(target))) {
        if (await exists(swap.newDir)) {
          await fs.rename(swap.newDir, target);
          done.push("finished an interrupted swap");
        } else if (await exists(path.join(swap.oldDir, path.basename(target)))) {
          await fs.rename(path.join(swap.oldDir, path.basename(target)), target);
          done.push("restored the previous output");
        }
      }
      await fs.rm(swap.newDir, { recursive: true, force: true });
      await fs.rm(swap.oldDir, { recursive: true, force: true });
    }
    await fs.unlink(journal).catch(() => {});
  }
  done.push(...(await removeLeftovers(target, fs)));
  return done;
}

/** Removes the temporary folders of earlier builds of this output folder (call only while holding its lock). */
async function removeLeftovers(target: string, fs: Pick<SwapMethods, "rm">): Promise<string[]> {
  const parent = path.dirname(target);
  const pattern = new RegExp(`^\\.${escape(path.basename(target))}\\.(?:tmp|old)-\\d+-[A-Za-z0-9]{6}$`);
  const removed: string[] = [];
  for (const name of await readdir(parent).catch(() => [])) {
    if (!pattern.test(name)) continue;
    await fs.rm(path.join(parent, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
