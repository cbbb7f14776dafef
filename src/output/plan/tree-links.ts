// src/output/plan/tree-links.ts
// The hosts' copies of the site in the records (src/layout/link-trees.ts): which files of --out a tree links
// (treeHolds), and, as an update in place sees them, only the links it must look at. A large site's records hold
// hundreds of thousands of links, and a one-mapping update writes a few dozen files of --out again. A link is looked
// at when its target was written again (it is linked anew), when its folder is not trusted (that folder's listing is
// read, and a file in it that no planned link names is removed), or, after an interrupted update, always. Every other
// link is where the last build made it, to the same file (publish.ts checks that the trees are the last build's).

import { isEdgeDataPath } from "../../edge/data.js";
import type { LinkTree } from "../../layout/link-trees.js";
import { AnswerOutput, type AnswerSet } from "../../routes/answer-files.js";
import type { ManifestEntries } from "../manifests/entries.js";
import { folderOf, linkGroup, SiteLink, type OutputFile } from "./files.js";

/** --out as just written: its files, their entries (a file without one is not written), and where it is. */
export interface SiteFiles {
  files: readonly OutputFile[];
  entries: ManifestEntries;
  dir: string;
}

export interface TreeLinks {
  /** The links to look at. */
  links: SiteLink[];
  /** Every folder the trees' links lie in (relative to the records), with their parents but not the records' own (""). */
  folders: Set<string>;
  /** The bytes of the links not looked at (their targets' sizes). */
  otherBytes: number;
}

/**
 * Whether the tree links a file of --out (its path, or the file: a large site's answers make their paths only
 * when asked, and an answer's is asked only when one of the host's own files lies among them). Whether it is an
 * answer is the caller's to say.
 */
export function treeHolds(tree: LinkTree, answer: boolean, file: string | { readonly path: string }): boolean {
  if (answer && tree.docroot === "plain") return false; // an edge host's handler answers /api.php
  if (answer && !tree.ownAmongAnswers) return true;
  const sitePath = typeof file === "string" ? file : file.path;
  if (!answer && tree.docroot === "site" && isEdgeDataPath(sitePath)) return false;
  return !tree.own.has(sitePath);
}

export function treeLinks(
  trees: readonly LinkTree[],
  site: SiteFiles,
  options: { trusted: (rel: string) => boolean; rewritten: ReadonlySet<number>; all: boolean },
): TreeLinks {
  const links: SiteLink[] = [];
  const folders = new Set<string>();
  let otherBytes = 0;
  const rewritten = [...options.rewritten].sort((a, b) => a - b);
  for (const tree of trees) {
    const group = linkGroup(tree.prefix, site, true);
    let target: string | undefined;
    let trusted = false;
    /** Whether the links into `folder` are looked at, each (the folder is made and asked once per run of files in it). */
    const lookAt = (folder: string): boolean => {
      if (folder !== target) {
        target = folder;
        const link = folder === "" ? tree.prefix.slice(0, -1) : tree.prefix + folder;
        for (let d = link; d !== "" && !folders.has(d); d = d.slice(0, Math.max(0, d.lastIndexOf("/")))) folders.add(d);
        trusted = options.trusted(link);
      }
      return options.all || !trusted;
    };
    for (let i = 0; i < site.files.length; i++) {
      const f = site.files[i]!;
      const answer = f instanceof AnswerOutput;
      const set = answer && !tree.ownAmongAnswers ? setFrom(site.files, i) : null;
      const held = treeHolds(tree, answer, f);
      if (set !== null) {
        // A set's answers, a run of one folder that the tree holds whole or not at all (src/layout/link-trees.ts):
        // asked once, not answer by answer; only the rewritten ones' links are made.
        const end = i + set.members.length;
        if (held) {
          const each = lookAt(set.folder);
          for (let k = i; k < end; k++) {
            const size = site.entries.size(k);
            if (size < 0) continue;
            if (each) links.push(new SiteLink(group, k));
            else otherBytes += size;
          }
          if (!each) {
            for (let r = firstAtLeast(rewritten, i); r < rewritten.length && rewritten[r]! < end; r++) {
              const k = rewritten[r]!;
              const size = site.entries.size(k);
              if (size < 0) continue;
              links.push(new SiteLink(group, k));
              otherBytes -= size;
            }
          }
        }
        i = end - 1;
        continue;
      }
      const size = site.entries.size(i);
      if (size < 0 || !held) continue;
      if (lookAt(folderOf(f)) || options.rewritten.has(i)) links.push(new SiteLink(group, i));
      else otherBytes += size;
    }
  }
  return { links, folders, otherBytes };
}

/** The set whose answers lie in `files` from `i` on, in its order, when `files[i]` is its first; else null. */
function setFrom(files: readonly OutputFile[], i: number): AnswerSet | null {
  const set = (files[i] as AnswerOutput).startsSet();
  if (set === null) return null;
  const last = files[i + set.members.length - 1];
  return last instanceof AnswerOutput && last.isMember(set, set.members.length - 1) ? set : null;
}

/** The index of the first value of `sorted` at least `value` (its length when none is). */
function firstAtLeast(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
