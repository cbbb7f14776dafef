// src/output/plan/files.ts
// The files a build writes, as the plan lists them (OutputFile), and the hard links among them: a host's copy of a
// file of --out (SiteLink) makes its path, target and entry only when the writer asks.

import { AnswerOutput } from "../../routes/answer-files.js";
import type { ManifestEntries } from "../manifests/entries.js";
import { filePath } from "./file-path.js";

export type OutputFile =
  /** A file whose bytes are at hand; `hash`: their sha1, when it is known (a host's file, from the hosts' record; a
   * whole answer of the handler's data), and `size` their number, when known with it (a text's UTF-8 bytes). */
  | { path: string; data: string | Uint8Array; hash?: Buffer; size?: number }
  /**
   * A file whose bytes are produced only when it is written (answers: the site is never held as text). `unchanged`:
   * its bytes are the last build's, known without producing them (an in-place update keeps the file as it is).
   */
  | {
      path: string;
      produce(): string | Uint8Array;
      readonly unchanged?: boolean;
      /** The same text in pieces, which the full writer writes one by one (a large site's records hold large texts). */
      chunks?(): Iterable<string>;
    }
  /**
   * A content file copied byte for byte (the copy gets the source's modification time, which lets rebuilds reuse it).
   * `bytes`: when the build has read them; `hash`: their sha1, when the content's facts know it (then the bytes are
   * read only to be written).
   */
  | { path: string; source: string; size: number; mtimeMs?: number; bytes?: Uint8Array; hash?: Buffer }
  /**
   * A hard link to a file this build has just written (a host's copy of the site): `entry` is that file's manifest
   * entry ("<hash> <size>"), so nothing is read. Where linking fails (another file system), the bytes are copied.
   * `implied`: its folder's manifest does not list it (a host's tree in the records, src/layout/link-trees.ts): the
   * writers set it no entry.
   */
  | { path: string; linkTo: string; entry: string; readonly implied?: boolean };

/**
 * The folder of a file's path ("api/icon/a.png.json": "api/icon"; "" at the top), without making the path of an
 * answer or a link: the files of one folder share one string (a large site's answers and links, hundreds of
 * thousands, lie in a few thousand folders).
 */
export function folderOf(f: OutputFile): string {
  if (f instanceof AnswerOutput || f instanceof SiteLink) return f.folder;
  const slash = f.path.lastIndexOf("/");
  return slash < 0 ? "" : f.path.slice(0, slash);
}

/** The folder of each run of files in one folder (consecutive files share a folder): a large site's files give a
 * few thousand. */
export function foldersIn(files: readonly OutputFile[]): string[] {
  const folders: string[] = [];
  let last: string | undefined;
  for (let i = 0; i < files.length; i++) {
    const folder = folderOf(files[i]!);
    if (folder !== last) folders.push((last = folder));
  }
  return folders;
}

/** Where a host's copies of --out's files go and what they link to: one for all the links of a folder. */
export interface LinkGroup {
  /** The links' paths are this + the site path. */
  readonly prefix: string;
  /** --out's files as written, where --out now is, and their manifest entries. */
  readonly files: readonly OutputFile[];
  readonly dir: string;
  readonly entries: ManifestEntries;
  /** Whether the links are a host's tree in the records, which their manifest does not list (src/layout/link-trees.ts). */
  readonly implied: boolean;
  /** The folder of the last link asked for its folder, and its target's: the links of a folder share one string. */
  folders?: { target: string; link: string };
}

/** The group of a host's links to --out's files under `prefix` (`implied`: a tree in the records). */
export const linkGroup = (
  prefix: string,
  site: Pick<LinkGroup, "files" | "dir" | "entries">,
  implied: boolean,
): LinkGroup => ({ prefix, files: site.files, dir: site.dir, entries: site.entries, implied });

/**
 * A hard link to the file of --out at `index` (a host's copy of the site). It holds two references only, and makes
 * its path, target and manifest entry when the writer asks: a large site's records hold hundreds of thousands of
 * links, and three strings apiece (or more fields) would cost far more memory.
 */
export class SiteLink {
  constructor(
    private readonly group: LinkGroup,
    private readonly index: number,
  ) {}

  get path(): string {
    return this.group.prefix + this.group.files[this.index]!.path;
  }

  get linkTo(): string {
    return filePath(this.group.dir, this.group.files[this.index]!.path);
  }

  /** The folder of its path (folderOf), made once for a run of links into one folder. */
  get folder(): string {
    const target = folderOf(this.group.files[this.index]!);
    const last = this.group.folders;
    if (last !== undefined && last.target === target) return last.link;
    const link = target === "" ? this.group.prefix.slice(0, -1) : this.group.prefix + target;
    this.group.folders = { target, link };
    return link;
  }

  /** The path in --out of the file it links to. */
  get sitePath(): string {
    return this.group.files[this.index]!.path;
  }

  /** Whether its target is among files rewritten: by its index when it links into that list, else by its path. */
  targetAmong(files: readonly OutputFile[], indexes: ReadonlySet<number>, paths: ReadonlySet<string>): boolean {
    return this.group.files === files ? indexes.has(this.index) : paths.has(this.sitePath);
  }

  /** Whether it links into the folder `dir` (absolute). */
  linksInto(dir: string): boolean {
    return this.group.dir === dir;
  }

  get entry(): string {
    return this.group.entries.get(this.index)!;
  }

  /** The size of the file it links to, without printing its entry. */
  get size(): number {
    return this.group.entries.size(this.index);
  }

  /** Whether its folder's manifest leaves it out (a host's tree in the records: implied by --out's manifest). */
  get implied(): boolean {
    return this.group.implied;
  }

  /** Copies its manifest entry into `entries` at `index`, without printing it. */
  copyEntry(entries: ManifestEntries, index: number): void {
    entries.copy(index, this.group.entries, this.index);
  }
}

/** A hard link of the plan: a host's copy of an --out file (SiteLink), or a link with its entry as text. */
export type LinkFile = Extract<OutputFile, { linkTo: string }>;

/** Sets a link's manifest entry at `index`: a SiteLink's copied from --out's entries (no text made), another's read
 * from its text. */
export function setLinkEntry(entries: ManifestEntries, index: number, f: LinkFile): void {
  if (f instanceof SiteLink) f.copyEntry(entries, index);
  else entries.setEntry(index, f.entry);
}

/** The size of the file a link links to, from its entry (a SiteLink's without printing it). */
export function linkSize(f: LinkFile): number {
  return f instanceof SiteLink ? f.size : Number(f.entry.slice(f.entry.indexOf(" ") + 1));
}

/**
 * `files` sorted by path (stably), each path made once: a SiteLink makes its path when asked, and a comparator of
 * paths would make one for every comparison. `files` itself when it is in order already.
 */
export function sortedByPath<T extends { readonly path: string }>(files: T[]): T[] {
  const paths = files.map((f) => f.path);
  let inOrder = true;
  for (let i = 1; i < paths.length && inOrder; i++) inOrder = paths[i - 1]! <= paths[i]!;
  if (inOrder) return files;
  const order = paths.map((_, i) => i).sort((a, b) => (paths[a]! < paths[b]! ? -1 : paths[a]! > paths[b]! ? 1 : 0));
  return order.map((i) => files[i]!);
}
