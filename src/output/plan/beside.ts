// src/output/plan/beside.ts
// The files of a folder a host writes beside --out (".netlify/v1"), as the plan lists them.

import type { BesideFolder } from "../../hosts/index.js";
import type { ManifestEntries } from "../manifests/entries.js";
import { linkGroup, SiteLink, sortedByPath, type OutputFile } from "./files.js";
import { servedByEdge } from "./site.js";

/**
 * The host's files and, when the host uploads the site's plain files from this folder, a link to each of them: --out's
 * files as written (`site`: those without an entry were not written). Nothing of the build's own: the records keep
 * the folder's manifest and identity.
 */
export function planBeside(
  folder: BesideFolder,
  site: { files: readonly OutputFile[]; dir: string; entries: ManifestEntries },
): OutputFile[] {
  const files: OutputFile[] = [...folder.files];
  if (folder.plainFiles !== undefined) {
    // The links are concatenated, never spread into arguments (a large site has tens of thousands of plain files).
    const group = linkGroup(`${folder.plainFiles}/`, site, false);
    for (let j = 0; j < site.files.length; j++) {
      if (servedByEdge(site.files[j]!) && site.entries.size(j) >= 0) files.push(new SiteLink(group, j));
    }
  }
  return sortedByPath(files);
}
