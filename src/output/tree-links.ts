// src/output/tree-links.ts
// The hosts' copies of the site in the records (src/layout/link-trees.ts), as an update in place sees them: only the
// links it must look at. A ×100 site's records hold 690,000 links, and a one-mapping update writes some 40 files of
// --out again. A link is looked at when its target was written again (it is linked anew), when its folder is not
// trusted (that folder's listing is read, and a file in it that no planned link names is removed), or, after an
// interrupted update, always. Every other link is where the last build made it, to the same file (publish.ts checks
// that the trees are the last build's).

import { treeHolds, type LinkTree } from "../layout/link-trees.js";
import { AnswerOutput } from "../routes/answer-files.js";
import type { ManifestEntries } from "./manifest-entries.js";
import { folderOf, SiteLink, type LinkGroup, type OutputFile } from "./plan.js";

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

export function treeLinks(
  trees: readonly LinkTree[], site: SiteFiles,
  options: { trusted: (rel: string) => boolean; rewritten: ReadonlySet<number>; all: boolean },
): TreeLinks {
  const links: SiteLink[] = [];
  const folders = new Set<string>();
  let otherBytes = 0;
  for (const tree of trees) {
    const group: LinkGroup = { prefix: tree.prefix, files: site.files, dir: site.dir, entries: site.entries, implied: true };
    let target: string | undefined;
    let trusted = false;
    for (let i = 0; i < site.files.length; i++) {
      const f = site.files[i]!;
      const size = site.entries.size(i);
      if (size < 0 || !treeHolds(tree, f instanceof AnswerOutput, f)) continue;
      const folder = folderOf(f);
      if (folder !== target) {
        // The files of one folder come in runs (answers: one run each): a folder is made and asked once per run.
        target = folder;
        const link = folder === "" ? tree.prefix.slice(0, -1) : tree.prefix + folder;
        for (let d = link; d !== "" && !folders.has(d); d = d.slice(0, Math.max(0, d.lastIndexOf("/")))) folders.add(d);
        trusted = options.trusted(link);
      }
      if (options.all || !trusted || options.rewritten.has(i)) links.push(new SiteLink(group, i));
      else otherBytes += size;
    }
  }
  return { links, folders, otherBytes };
}
