// src/output/plan/site.ts
// Everything the build writes, as lists of files: the public site (--out) and the build's records beside it.

import type { RawFile } from "../../content/read-content.js";
import type { HostFolder } from "../../hosts/index.js";
import { DATA_FOLDER, isEdgeDataPath } from "../../edge/data.js";
import { isAnswerPath, treeHolds, type LinkTree } from "../../layout/link-trees.js";
import {
  ANSWER_INPUTS_FILE,
  CATALOGUE_PRINTS_FILE,
  HANDLER_FILE,
  HOSTS_DIR,
  HOSTS_RECORD_FILE,
  ROUTES_FILE,
  SERVE_FILE,
  SITE_ID_FILE,
  SITE_MANIFEST_FILE,
  STAMP_FILE,
} from "../../layout/paths.js";
import { stringify, type Body } from "../../model/json.js";
import { caseShape } from "../../model/types.js";
import { AnswerOutput } from "../../routes/answer-files.js";
import type { BuiltRoutes } from "../../routes/build-routes.js";
import { filePath } from "./file-path.js";
import { serveConfig } from "../../layout/serve-config.js";
import type { ManifestEntries, ManifestText } from "../manifests/entries.js";

export type OutputFile =
  /** A file whose bytes are at hand; `hash`: their sha1, when it is known (a host's file, from the hosts' record; a
   * whole answer of the handler's data), and `size` their number, when known with it (a text's UTF-8 bytes). */
  | { path: string; data: string | Uint8Array; hash?: Buffer; size?: number }
  /**
   * A file whose bytes are produced only when it is written (answers: the site is never held as text). `unchanged`:
   * its bytes are the last build's, known without producing them (an in-place update keeps the file as it is).
   */
  | { path: string; produce(): string | Uint8Array; readonly unchanged?: boolean }
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
 * Every file of --out, the public site: the plain files sorted by path (the content's, and the pages the build makes:
 * the catalogue, src/catalogue), then the answer files (all under api/) in the order the route table made them.
 * Answers are not sorted: their paths are made only when the writer asks.
 */
export function planSite(
  routes: BuiltRoutes,
  published: readonly RawFile[],
  parts: {
    answers: boolean;
    data: ReadonlyArray<{ path: string; data: string; hash?: Buffer }>;
    /** The site's own pages (the catalogue): plain files of the site that the build makes. */
    pages?: readonly OutputFile[];
  } = { answers: true, data: [] },
): OutputFile[] {
  const files: OutputFile[] = published.map((f) => ({
    path: f.path,
    source: f.absPath,
    size: f.size,
    mtimeMs: f.mtimeMs,
    ...(f.data === undefined ? {} : { bytes: f.data }),
    ...(f.facts === undefined ? {} : { hash: f.facts.hash }),
  }));
  for (const f of parts.data) {
    if (!isEdgeDataPath(f.path)) throw new Error(`Internal: the data file ${f.path} lies outside ${DATA_FOLDER}/.`);
    files.push({ path: f.path, data: f.data, ...(f.hash === undefined ? {} : { hash: f.hash }) });
  }
  files.push(...(parts.pages ?? []));
  files.sort(byPath);
  for (let i = 0; i < files.length; i++) {
    if (i > 0 && files[i]!.path === files[i - 1]!.path)
      throw new Error(`Internal: ${files[i]!.path} is written twice.`);
    if (isAnswerPath(files[i]!.path)) throw new Error(`Internal: ${files[i]!.path} is not an answer but lies in api/.`);
  }
  // The answer files only when a static host routes /api.php to them: an edge host's handler never reads them.
  if (parts.answers) routes.files.pushOutputs(files);
  return files;
}

/**
 * The folder of a file's path ("api/icon/a.png.json": "api/icon"; "" at the top), without making the path of an
 * answer or a link: the files of one folder share one string (a ×100 site's 640,000 answers and 690,000 links lie in
 * a few thousand folders).
 */
export function folderOf(f: OutputFile): string {
  if (f instanceof AnswerOutput || f instanceof SiteLink) return f.folder;
  const slash = f.path.lastIndexOf("/");
  return slash < 0 ? "" : f.path.slice(0, slash);
}

/** The folder of each run of files in one folder (consecutive files share a folder): a ×100 site's 640,000 files
 * give a few thousand. */
export function foldersIn(files: readonly OutputFile[]): string[] {
  const folders: string[] = [];
  let last: string | undefined;
  for (let i = 0; i < files.length; i++) {
    const folder = folderOf(files[i]!);
    if (folder !== last) folders.push((last = folder));
  }
  return folders;
}

/**
 * Whether an edge host serves this file of --out as a file (its upload links it): a plain file of the content, a
 * page of the site (the catalogue), or one of the handler's data files. Never an answer file (its handler answers
 * /api.php).
 */
export function servedByEdge(f: OutputFile): boolean {
  // An answer's path is made only when asked for: it is known without it (a ×100 site has 590,000).
  if (f instanceof AnswerOutput) return false;
  return !isAnswerPath(f.path); // the content's files, the site's own pages, the handler's data
}

export interface RecordsInput {
  routes: BuiltRoutes;
  published: readonly RawFile[];
  hosts: readonly HostFolder[];
  /** --out's files as written, their manifest entries, and where --out now is (the host folders link its files). */
  site: { files: readonly OutputFile[]; entries: ManifestEntries; dir: string; manifest: ManifestText };
  stamp: string;
  siteId: string;
  /** The request-time handler as a Cloudflare-shaped module (`fetch(request, env)`), when an edge host is built: what
   * `preview`, `dev` and `verify` run (src/layout/read-build.ts). */
  handler?: string;
  /** What the answer files were computed from (src/routes/answer-inputs.ts), printed: when a static host is built. */
  answerInputs?: string;
  /** The prints of the catalogue's pages (src/catalogue/index.ts), printed: when the catalogue is built. */
  cataloguePrints?: string;
  /** Which host wrote which file, and what they were made from (src/hosts/record.ts), printed. */
  hostsRecord: string;
  /** The hosts' copies of the site (src/layout/link-trees.ts): `linkTrees(hosts)`. */
  trees: readonly LinkTree[];
  /** Whether the route table is the last build's (the same hosts key): routes.json then keeps its bytes. */
  tableUnchanged: boolean;
  /** Whether the trees' links are among the files (default): an update in place looks only at those it must
   * (src/output/plan/tree-links.ts). */
  links?: boolean;
}

/**
 * Every file of the build's records (src/layout/paths.ts): the stamp, --out's manifest, the route table, the
 * preview's static rules, and each host's own folder (its configs, and for a host that uploads its own folder, the
 * site's files hard-linked into it).
 */
export function planRecords(input: RecordsInput): OutputFile[] {
  const { site } = input;
  const manifest = site.manifest;
  const files: OutputFile[] = [
    { path: STAMP_FILE, data: input.stamp },
    { path: SITE_ID_FILE, data: input.siteId },
    // Both printed when they are written, and dropped then: 46 and 18 MB at ×100.
    { path: SITE_MANIFEST_FILE, produce: () => manifest.bytes() },
    {
      path: ROUTES_FILE,
      produce: () => stringify(input.routes.table as unknown as Body),
      unchanged: input.tableUnchanged,
    },
    { path: SERVE_FILE, data: stringify(serveConfig(input.published.map((f) => f.path)) as unknown as Body) },
  ];
  if (input.handler !== undefined) files.push({ path: HANDLER_FILE, data: input.handler });
  if (input.answerInputs !== undefined) files.push({ path: ANSWER_INPUTS_FILE, data: input.answerInputs });
  if (input.cataloguePrints !== undefined) files.push({ path: CATALOGUE_PRINTS_FILE, data: input.cataloguePrints });
  files.push({ path: HOSTS_RECORD_FILE, data: input.hostsRecord });
  for (const host of input.hosts) {
    const dir = `${HOSTS_DIR}/${host.name}`;
    for (const f of host.files) {
      files.push({
        path: `${dir}/${f.path}`,
        data: f.data,
        ...(f.sha1 === undefined ? {} : { hash: Buffer.from(f.sha1, "base64url") }),
        ...(f.bytes === undefined ? {} : { size: f.bytes }),
      });
    }
    const tree = input.trees.find((t) => t.host === host.name);
    if (tree === undefined || input.links === false) continue;
    const group: LinkGroup = {
      prefix: tree.prefix,
      files: site.files,
      dir: site.dir,
      entries: site.entries,
      implied: true,
    };
    // Links are concatenated one by one, never spread into arguments (a ×100 site has 640,000 files).
    for (let i = 0; i < site.files.length; i++) {
      const f = site.files[i]!;
      if (site.entries.size(i) >= 0 && treeHolds(tree, f instanceof AnswerOutput, f))
        files.push(new SiteLink(group, i));
    }
  }
  return files;
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

/**
 * A hard link to the file of --out at `index` (a host's copy of the site). It holds two references only, and makes
 * its path, target and manifest entry when the writer asks: a ×100 site's records hold 690,000 links, and three
 * strings apiece cost hundreds of megabytes (five fields apiece, 21 MB more than two).
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

const byPath = (a: OutputFile, b: OutputFile): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/**
 * `files` sorted by path (stably), each path made once: a SiteLink makes its path when asked, and a ×100 site's
 * 49,000 links sorted by a comparator of paths made 1.6 million strings. `files` itself when it is in order already.
 */
export function sortedByPath<T extends { readonly path: string }>(files: T[]): T[] {
  const paths = files.map((f) => f.path);
  let inOrder = true;
  for (let i = 1; i < paths.length && inOrder; i++) inOrder = paths[i - 1]! <= paths[i]!;
  if (inOrder) return files;
  const order = paths.map((_, i) => i).sort((a, b) => (paths[a]! < paths[b]! ? -1 : paths[a]! > paths[b]! ? 1 : 0));
  return order.map((i) => files[i]!);
}

/**
 * Paths that would land on the same file on a case-insensitive file system (macOS, Windows), each group in the order
 * of the files, the groups in the order of their first path. Only a folder that can hold two such paths is looked at
 * path by path: one spelt two ways (`Icons/` and `icons/`), one holding another file whose name lower case may
 * change, or one whose answers' names lower case could make alike. A ×100 site has 640,000 paths, 590,000 of them
 * answers in sets that keep one case each (`findIcon/file-upper/PHP.json`): their names are not made.
 */
export function caseCollisions(files: readonly OutputFile[]): string[][] {
  /** Folder in lower case → the spelling first met, and the shapes of the names in it (NameShape bits). */
  const spelt = new Map<string, string>();
  const shapes = new Map<string, number>();
  const suspect = new Set<string>();
  let folder: string | undefined;
  let lower = "";
  let bits = 0;
  const endRun = (): void => {
    if (folder !== undefined) shapes.set(lower, (shapes.get(lower) ?? 0) | bits);
  };
  for (let i = 0; i < files.length; i++) {
    const f = files[i]!;
    const d = folderOf(f);
    if (d !== folder) {
      endRun();
      folder = d;
      lower = d.toLowerCase();
      bits = 0;
      const seen = spelt.get(lower);
      if (seen === undefined) spelt.set(lower, d);
      else if (seen !== d) suspect.add(lower);
    }
    const set = f instanceof AnswerOutput ? f.startsSet() : null;
    const last = set === null ? undefined : files[i + set.members.length - 1];
    if (set !== null && last instanceof AnswerOutput && last.isMember(set, set.members.length - 1)) {
      // A set's answers, one after another as planned: their members' shapes, found once for the list.
      bits |= memberShapes(set.members);
      i += set.members.length - 1;
      continue;
    }
    const member = f instanceof AnswerOutput ? f.member : null;
    if (member !== null) bits |= SHAPE[caseShape(member)];
    else {
      const p = f.path;
      bits |=
        Shape.Other |
        (/[A-Z\u0080-\uffff]/.test(d.length === 0 ? p : p.slice(d.length + 1)) ? Shape.OtherMayChange : 0);
    }
  }
  endRun();
  for (const [name, b] of shapes) if (mayCollide(b)) suspect.add(name);
  if (suspect.size === 0) return [];
  /** Path in lower case → the indexes of the paths that are it, in the suspect folders only. */
  const groups = new Map<string, number[]>();
  folder = undefined;
  for (let i = 0; i < files.length; i++) {
    const d = folderOf(files[i]!);
    if (d !== folder) {
      folder = d;
      lower = d.toLowerCase();
    }
    if (!suspect.has(lower)) continue;
    const key = files[i]!.path.toLowerCase();
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [i]);
    else group.push(i);
  }
  return [...groups.values()].filter((group) => group.length > 1).map((group) => group.map((i) => files[i]!.path));
}

/**
 * What the names in a folder are like (bits). An answer of a set is named `<member>.json`, its member an ASCII safe
 * value (src/routes/route-table.ts: SAFE_VALUE; build-routes.ts gives any other value a single answer of its own):
 * two members lower case makes alike are of one shape only if it is mixed, since lower case maps the members of one
 * other shape one to one (caseShape). Any other file's name counts by whether lower case may change it, as it is.
 */
const enum Shape {
  Lower = 1,
  Upper = 2,
  Capitalized = 4,
  Mixed = 8,
  Other = 16,
  OtherMayChange = 32,
}
const SHAPE = { lower: Shape.Lower, upper: Shape.Upper, capitalized: Shape.Capitalized, mixed: Shape.Mixed } as const;

/** The shapes of a set's members (bits), kept by the list: `dev`'s route table keeps its lists while the model's
 * keys are the same (src/routes/build-routes.ts: RoutesMemo), and a ×100 site's sets have 590,000 members. */
function memberShapes(members: readonly string[]): number {
  let bits = shapesOfMembers.get(members);
  if (bits === undefined) {
    bits = 0;
    for (const member of members) bits |= SHAPE[caseShape(member)];
    shapesOfMembers.set(members, bits);
  }
  return bits;
}
const shapesOfMembers = new WeakMap<readonly string[], number>();

/** Whether a folder whose names have these shapes can hold two that lower case makes alike. */
function mayCollide(bits: number): boolean {
  if ((bits & (Shape.Mixed | Shape.OtherMayChange)) !== 0) return true;
  const members = bits & (Shape.Lower | Shape.Upper | Shape.Capitalized);
  // Two shapes of answers; or other files beside answers that lower case changes.
  if ((members & (members - 1)) !== 0) return true;
  return (bits & Shape.Other) !== 0 && (members & (Shape.Upper | Shape.Capitalized)) !== 0;
}
