// src/output/manifests/lines.ts
// A folder's manifest read back (print.ts prints it): its paths, and their entries in ManifestEntries (20 bytes of
// hash and a size each, no string per entry), for an update in place (src/output/write/in-place.ts) and for the files
// a build in full reuses from the last one (src/output/write/full.ts).

import { insideFolder } from "../../model/relative-path.js";
import { HASH_CHARS, ManifestEntries } from "./entries.js";
import { manifestOf, type PrintedManifest } from "./patch.js";
import { MANIFEST_HEADER } from "../../layout/paths.js";

/** A manifest's lines as two lists (paths, and their entries by the same index), and its line of times. */
export interface ManifestLines {
  readonly paths: readonly string[];
  readonly entries: ManifestEntries;
  readonly mtimes: string | null;
  /** Their text, when it is exactly what printedManifest prints of them (src/output/manifests/patch.ts): an update
   * that changes a few entries patches it. */
  readonly printed?: PrintedManifest | undefined;
  /** Where the answers of each set lie among the paths, by the set's list of members, when an update made these
   * lines (`dev` keeps them): the next update with the same list finds them there. */
  readonly runs?: ReadonlyMap<readonly string[], Run>;
}

/** A set's answers in a manifest: its members' paths, in their order, from `start`, each `prefix` + member + ".json". */
export interface Run {
  readonly prefix: string;
  readonly start: number;
}

/** A manifest's lines from its text; with where each begins when `patchable` (--out's, which an update patches). */
export function manifestLines(text: string, patchable: boolean): ManifestLines {
  const paths: string[] = [];
  let mtimes: string | null = null;
  let lines = 0;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) lines++;
  const entries = new ManifestEntries(lines + 1);
  // Where each path's line begins, while every line is as printedManifest prints it.
  let starts: number[] | null = patchable ? [] : null;
  if (text.startsWith(`${MANIFEST_HEADER}\n`)) {
    let at = MANIFEST_HEADER.length + 1;
    while (at < text.length) {
      let end = text.indexOf("\n", at);
      if (end < 0) end = text.length;
      const first = text.indexOf(" ", at);
      const second = first < 0 || first > end ? -1 : text.indexOf(" ", first + 1);
      let printed = false;
      if (text.startsWith("mtimes ", at) && paths.length === 0 && mtimes === null) {
        mtimes = text.slice(at, end);
        printed = at === MANIFEST_HEADER.length + 1;
      } else if (second > 0 && second < end) {
        const rel = text.slice(second + 1, end);
        if (insideFolder(rel)) {
          const k = paths.length;
          printed = entries.setPrinted(k, text, at, Number(text.slice(first + 1, second)));
          printed &&= first - at === HASH_CHARS && second - at === entries.printedLength(k);
          starts?.push(at);
          paths.push(rel);
        }
      }
      if (!printed || end === text.length) starts = null;
      at = end + 1;
    }
  } else {
    starts = null;
  }
  return {
    paths,
    entries,
    mtimes,
    printed: (starts === null || mtimes === null ? null : manifestOf(text, starts)) ?? undefined,
  };
}

/**
 * A lookup of a path's index in the manifest that expects the paths in about the manifest's order (each build plans
 * them in the same order): a path that is not next is looked up in a map, made only then.
 */
export function finder(paths: readonly string[]): ((path: string) => number) & { resume(at: number): void } {
  let next = 0;
  let index: Map<string, number> | null = null;
  const find = (p: string): number => {
    if (paths[next] === p) return next++;
    if (index === null) {
      index = new Map();
      for (let k = 0; k < paths.length; k++) index.set(paths[k]!, k);
    }
    const k = index.get(p);
    if (k === undefined) return -1;
    next = k + 1;
    return k;
  };
  /** The paths up to `at` were taken: the next lookup expects the path there. */
  return Object.assign(find, { resume: (at: number): void => void (next = at) });
}
