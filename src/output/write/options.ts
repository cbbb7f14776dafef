// src/output/write/options.ts
// What the two writers are asked to do, and what they answer (index.ts says why there are two).

import type { LinkTree } from "../../layout/link-trees.js";
import type { FolderId } from "../../layout/stamp.js";
import type { AnswerSet } from "../../routes/answer-files.js";
import type { OutputClaim } from "../claim/claim.js";
import type { WriteMethods } from "../claim/fs-methods.js";
import type { ManifestEntries, ManifestText } from "../manifests/entries.js";
import type { ManifestLines } from "../manifests/lines.js";
import type { PrintedManifest } from "../manifests/patch.js";
import type { LinkFile, OutputFile } from "../plan/files.js";

/** The full writer's (full.ts). */
export interface WriteOptions {
  /** Aborting (Ctrl-C) stops the writing before the swap; the temporary folder is removed and the old site kept. */
  signal?: AbortSignal;
  methods?: Partial<WriteMethods>;
  /** Called after each file is written (tests inject failures here). */
  onFile?: (file: OutputFile) => void | Promise<void>;
  /** Hard-link unchanged files from the previous output instead of writing them (default true). */
  reuse?: boolean;
  /** Reuse a previous file only when its bytes, read again, are those its manifest entry says (--force: a file edited
   * by hand since is written again). Default: the manifest is trusted. */
  verifyReuse?: boolean;
  /** Replace an existing output that this tool did not write (a file, a non-empty folder without the marker). */
  replaceOut?: boolean;
  /** SOURCE_DATE_EPOCH in seconds: every file's modification time is clamped to it (reproducible Last-Modified). */
  sourceDateEpoch?: number;
  /** The claim of this output folder when the caller already holds it (build() takes it before compiling). */
  claim?: OutputClaim;
  /** How to name the output folder in messages (default: the path as given). */
  label?: string;
  /**
   * Where the folder's manifest goes. Default: into the folder (it is then also the folder's marker). With
   * `{ previous }` the caller keeps it elsewhere (--out holds only the public site): `previous` is the last build's
   * manifest text when it still describes this folder (null otherwise), and the new one is returned.
   */
  manifest?: { previous: string | null };
  /** Told the new folder's identity (src/layout/stamp.ts: FolderId, which the swap keeps) right before it is swapped
   * in: a folder whose manifest the caller keeps is known for its own by it (src/output/claim/pending.ts). */
  beforeSwap?: (id: FolderId) => void | Promise<void>;
  /**
   * Links the folder's manifest does not list (a host's tree in the records, src/layout/link-trees.ts), written after
   * the files, each made as it is asked for: a large site's trees hold over a million, never held at once.
   */
  implied?: () => Iterable<LinkFile>;
}

export interface WriteStats {
  /** The folder's identity (the records name the --out they describe by it). */
  id: FolderId;
  /** The manifest's text, printed when asked for, when the caller keeps it (`manifest: { previous }`); otherwise it is
   * in the folder. */
  manifest: ManifestText | null;
  files: number;
  bytes: number;
  /** Files hard-linked from the previous output instead of written (their bytes did not change). */
  reused: number;
  /** Each file's manifest entry ("<hash> <size>"), by its index in the files written. */
  entries: ManifestEntries;
}

/** The in-place updater's (in-place.ts). */
export interface UpdateOptions {
  /** What the folder holds now: its manifest's text (its entries are what the files hold, but for `dirty`), or that
   * text's lines when they are known (`dev` keeps those of its last update, src/output/publish.ts): then it is not
   * read. Lines only for a folder whose manifest the caller keeps (`manifestInside` false). */
  previous: string | ManifestLines;
  /** Whether one of the folder's folders ("" for itself) holds exactly what the manifest lists
   * (src/output/manifests/dir-stamps.ts): then it is not read. Default: none is. */
  trusted?: (rel: string) => boolean;
  /** Paths an interrupted update may have changed: treated as changed whatever the manifest says. */
  dirty: ReadonlySet<string>;
  /** The journal the changes are appended to before any is made. */
  journal: string;
  /** Whether the folder keeps its manifest inside (`.build-manifest`: the records), or the caller keeps it (--out's
   * and each folder's beside it, in the records). */
  manifestInside: boolean;
  sourceDateEpoch?: number;
  signal?: AbortSignal;
  /** Called after each file is written (tests stop an update midway here). Synchronous: the update is. */
  onFile?: (file: OutputFile) => unknown;
  /** Whether a file holds the bytes its manifest entry says, by what it is computed from (answers whose inputs are
   * unchanged, src/routes/answer-inputs.ts): then it is neither produced nor hashed, unless it is missing or dirty. */
  keep?: (f: OutputFile) => boolean;
  /** The same for the answers of a set, by member: those whose inputs changed, or null when none did. */
  changedMembers?: (set: AnswerSet) => ((member: string) => boolean) | null;
  /** Whether a copy of the content has the modification time `mtimeMs` in the folder already, as the last build
   * gave it (known from its source's records): then its time is not read. */
  sameTime?: (f: OutputFile, mtimeMs: number) => boolean;
  /** More changed files than this: nothing is touched, and null is returned (the caller writes the folder whole). */
  maxChanged?: number;
  /** The hosts' copies of the site, when `dir` is the records (src/layout/link-trees.ts): the manifest leaves their
   * links out. They must be those of the last build (publish.ts checks): the links to --out's files it removed are
   * removed. Only the links the update must look at are among the files (src/output/plan/tree-links.ts): `folders`
   * are those of every link, and `otherBytes` the bytes of the others. */
  implied?: {
    trees: readonly LinkTree[];
    removedSitePaths: readonly string[];
    folders: ReadonlySet<string>;
    otherBytes: number;
  };
  /** The files of --out (`dir`) this build has rewritten (relative paths, and their indexes in `files`, --out's file
   * list): a link to one of them is made again, whatever its entry. */
  rewritten?: { dir: string; paths: ReadonlySet<string>; files: readonly OutputFile[]; indexes: ReadonlySet<number> };
}

export interface UpdateStats extends WriteStats {
  /** The folder's manifest as the update leaves it, in lines; none for the records, whose manifest leaves the hosts'
   * copies of the site out (`implied`). */
  lines?: ManifestLines;
  /** --out's manifest as the update made it (patched or printed), with its lines' starts, once its bytes are made (the
   * records write them): what the next update patches. None for a folder that keeps its manifest inside. */
  madeManifest?: () => PrintedManifest | undefined;
  /** Paths written (new or changed) and removed. */
  written: string[];
  /** The indexes in the files given of those written. */
  writtenIndexes: number[];
  removed: string[];
  /** The folders of the files planned (relative, "" for the folder itself): what the folder holds after the update. */
  folders: Set<string>;
}
