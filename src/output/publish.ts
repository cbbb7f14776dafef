// src/output/publish.ts
// I/O: publishes a computed build in one call: --out, then each folder beside it, then the records, either
//  - in place (the default when the records describe a whole earlier build of the same hosts): only the files whose
//    bytes change are written, each renamed over its target, under the update journal (write/in-place.ts); or
//  - in full (--force, the first build, other hosts): each folder written whole beside its place and swapped in
//    (write/full.ts), reusing unchanged files by hard links.
// Either way a reader never sees a half-written file, and a build stopped midway is finished by the next one.

import path from "node:path";
import { fileIdentity } from "../layout/build-status.js";
import type { LastBuild } from "../layout/last-build.js";
import { printTrees } from "../layout/link-trees.js";
import type { Layout } from "../layout/paths.js";
import type { FolderId } from "../layout/stamp.js";
import type { OutputClaim } from "./claim/claim.js";
import { forgetFolders, recordFolders, trustedFolders, withParents } from "./manifests/dir-stamps.js";
import type { ManifestEntries, ManifestText } from "./manifests/entries.js";
import type { ManifestLines } from "./manifests/lines.js";
import { mtimesLine } from "./manifests/print.js";
import { foldersIn, type OutputFile } from "./plan/files.js";
import { addPending, removePending } from "./claim/pending.js";
import {
  planPublish,
  type BesideWritten,
  type PublishInput,
  type PublishPlan,
  type SiteWritten,
} from "./plan/publish-plan.js";
import { treeLinks } from "./plan/tree-links.js";
import {
  keptByInputs,
  openJournal,
  readJournal,
  removeJournal,
  removeTemporaries,
  updateInPlace,
  writeOutput,
  type Dirty,
  type UpdateOptions,
  type UpdateStats,
  type WriteOptions,
} from "./write/index.js";

const noManifest: ManifestText = { chunks: () => [], bytes: () => Buffer.alloc(0) };

export interface PublishOptions {
  write: WriteOptions;
  claim: OutputClaim;
  sourceDateEpoch?: number;
  /** Write every folder whole (--force), never in place. */
  force?: boolean;
  /** No later build reads the folders' record (--once): it is not written. */
  once?: boolean;
  /** What `dev` keeps in memory between its builds. */
  memo?: PublishMemo;
  /** Told how the build is written, before it writes (the CLI sets V8's heap growth by it: src/cli/startup/heap-growth.ts). */
  onMode?: (mode: Published["mode"]) => void;
}

/**
 * What `dev` keeps of its last update in place: --out's manifest in lines, as the update left it (a large site's,
 * read and parsed again, would cost each rebuild a good part of its time), with the identity of the records' file that
 * holds it once written (device, inode, size, modification and change times, in nanoseconds). The next update uses
 * them while that file is the same; anything that replaced or changed it (another build, a hand) makes it read again,
 * but for a write in place that keeps its size within the clock tick of the update's own (the file system's times
 * are that coarse).
 */
export class PublishMemo {
  private site: { file: string; identity: string; lines: ManifestLines } | null = null;

  /** The lines of --out's manifest, when `file` is still what the last update wrote; null otherwise. */
  siteLines(file: string): ManifestLines | null {
    const kept = this.site;
    return kept !== null && kept.file === file && fileIdentity(file) === kept.identity ? kept.lines : null;
  }

  /** Forgets them (before an update changes anything). */
  forget(): void {
    this.site = null;
  }

  /** Keeps `lines`, what `file` now holds (none: nothing is kept). */
  keep(file: string, lines: ManifestLines | undefined): void {
    const identity = lines === undefined ? null : fileIdentity(file);
    this.site = lines === undefined || identity === null ? null : { file, identity, lines };
  }
}

export interface Published {
  /** How the build was written. */
  mode: "full" | "in place";
  /** Files of --out, and bytes of --out and the records. */
  files: number;
  bytes: number;
  /** Files written (new or changed) and removed, across every folder; a full build counts every file written. */
  written: number;
  removed: number;
  /** Site paths of --out written or removed in place (none listed for a full build: it writes every one). */
  sitePaths: string[];
}

/** Of the files changed in place, more than this share makes the build write in full instead. */
const IN_PLACE_SHARE = 0.6;

/**
 * Whether the earlier build can be updated in place: its records describe this --out whole, with the same folders
 * and the same hosts' copies of the site (the links they hold are known from --out's manifest alone).
 */
function canUpdate(
  layout: Layout,
  last: LastBuild,
  plan: PublishPlan,
  epoch: number | undefined,
  kept: ManifestLines | null,
): boolean {
  const { stamp } = last;
  if (stamp === null || !last.recordsAreOurs() || stamp.out !== path.basename(layout.out) || !last.describesSite)
    return false;
  const beside = plan.beside.map((b) => b.dir);
  if (stamp.beside.length !== beside.length || stamp.beside.some((dir) => !beside.includes(layout.beside(dir))))
    return false;
  // The manifest the records keep of each folder beside --out is that folder's.
  if (!plan.beside.every((b) => last.describesBeside(b.name))) return false;
  const trees = last.linkTrees();
  if (trees === null || printTrees(trees) !== printTrees(plan.trees)) return false;
  // The manifest's second line.
  return (kept === null ? last.siteManifest().split("\n", 2)[1] : kept.mtimes) === mtimesLine(epoch);
}

/** Publishes `input` over `last`, the build the records describe now (src/layout/last-build.ts: `lastBuild(layout)`). */
export async function publish(
  layout: Layout,
  last: LastBuild,
  input: PublishInput,
  options: PublishOptions,
): Promise<Published> {
  const plan = planPublish(input, last);
  const epoch = options.sourceDateEpoch;
  const dirty = readJournal(layout.journal);
  const injected = options.write.methods !== undefined; // tests that inject failures exercise the full writer
  const kept = dirty.size === 0 ? (options.memo?.siteLines(layout.siteManifest) ?? null) : null;
  options.memo?.forget();
  if (
    options.force !== true &&
    !injected &&
    options.write.reuse !== false &&
    canUpdate(layout, last, plan, epoch, kept)
  ) {
    options.onMode?.("in place");
    const done = inPlace(layout, last, plan, { dirty, kept, options });
    if (done !== null) return done;
  }
  options.onMode?.("full");
  return inFull(layout, last, plan, dirty, options);
}

/** Writes every folder whole, each swapped in when written. */
async function inFull(
  layout: Layout,
  last: LastBuild,
  plan: PublishPlan,
  dirty: Dirty,
  options: PublishOptions,
): Promise<Published> {
  const epoch = options.sourceDateEpoch;
  const dated = epoch === undefined ? {} : { sourceDateEpoch: epoch };
  for (const [dir, paths] of dirty) removeTemporaries(dir, paths);
  // After an interrupted update the manifests do not say what the files hold: nothing is reused. With --force a file
  // is reused only when its bytes are read and found to be what the manifest says (one edited by hand is written).
  const reuse = dirty.size === 0 ? (options.force === true ? { verifyReuse: true } : {}) : { reuse: false };
  const { signal: _signal, claim: _claim, ...write } = options.write;
  // The last manifest, held only while --out is written (the records print the new one beside it): read in the call,
  // so that no variable here holds it afterwards.
  const previous = (): string | null =>
    dirty.size === 0 && last.describesSite && last.recordsAreOurs() ? last.siteManifest(true) : null;
  forgetFolders(layout.folders);
  // Each folder swapped in before the records name it is named in the pending record first: a build stopped between
  // the two leaves it this build's for the next one (src/output/claim/pending.ts).
  const pending = (dir?: string) => (id: FolderId) => addPending(layout.pending, id, dir);
  const site = await writeOutput(layout.out, plan.site, {
    ...options.write,
    ...reuse,
    claim: options.claim,
    ...dated,
    manifest: { previous: previous() },
    beforeSwap: pending(),
  });
  const written = siteWritten(layout, site);
  const folders = [{ dir: layout.out, folders: withParents(foldersIn(plan.site)) }];
  const beside: BesideWritten[] = [];
  // Once --out is swapped in, Ctrl-C no longer stops the build (its signal is not passed on): it finishes, rather
  // than leave new answers with an old handler and say that nothing was written.
  // The manifests the records keep of the folders beside --out that they describe: their unchanged files are reused.
  const kept = dirty.size === 0 && last.recordsAreOurs() ? last.besideManifests() : new Map<string, string>();
  for (const folder of plan.beside) {
    const files = folder.files(written);
    const stats = await writeOutput(folder.dir, files, {
      ...write,
      ...reuse,
      ...dated,
      // Checked before the build began (src/output/claim/folder-checks.ts: checkBeside); it holds no marker.
      replaceOut: true,
      manifest: { previous: kept.get(folder.name) ?? null },
      beforeSwap: pending(folder.name),
    });
    beside.push({ dir: folder.name, id: stats.id, manifest: stats.manifest ?? noManifest });
    folders.push({ dir: folder.dir, folders: withParents(foldersIn(files)) });
  }
  const recordFiles = plan.recordsApart(written, beside);
  const records = await writeOutput(layout.records, recordFiles.files, {
    ...write,
    ...reuse,
    ...dated,
    implied: recordFiles.links,
  });
  folders.push({ dir: layout.records, folders: withParents(recordFiles.folders) });
  removePending(layout.pending);
  removeJournal(layout.journal);
  if (options.once !== true) recordFolders(layout.folders, folders);
  return {
    mode: "full",
    files: site.files,
    bytes: site.bytes + records.bytes,
    written: site.files,
    removed: 0,
    sitePaths: [],
  };
}

/** --out as written, for the folders beside it and the records. */
function siteWritten(
  layout: Layout,
  site: { id: FolderId; entries: ManifestEntries; manifest: ManifestText | null },
): SiteWritten {
  return { dir: layout.out, id: site.id, entries: site.entries, manifest: site.manifest ?? noManifest };
}

/** What an update in place starts from: the interrupted update's paths, and `dev`'s lines of --out's manifest. */
interface UpdateStart {
  dirty: Dirty;
  kept: ManifestLines | null;
  options: PublishOptions;
}

/** Updates every folder in place: --out first, then the folders beside it and the records. Null, with nothing
 * changed, when most of the site changes: it is then written in full. */
function inPlace(layout: Layout, last: LastBuild, plan: PublishPlan, start: UpdateStart): Published | null {
  const { dirty, kept, options } = start;
  const epoch = options.sourceDateEpoch;
  for (const [dir, paths] of dirty) removeTemporaries(dir, paths);
  const previous = kept ?? last.siteManifest();
  const trusted = trustedFolders(layout.folders);
  forgetFolders(layout.folders); // before any change: an update stopped midway leaves nothing trusted
  openJournal(layout.journal);
  const site = updateInPlace(layout.out, plan.site, {
    journal: layout.journal,
    ...(epoch === undefined ? {} : { sourceDateEpoch: epoch }),
    previous,
    trusted: trusted(layout.out),
    dirty: dirty.get(layout.out) ?? new Set(),
    manifestInside: false,
    ...(plan.answerInputs === undefined ? {} : keptByInputs(last.answerInputsText(), plan.answerInputs, epoch)),
    maxChanged: Math.max(64, Math.floor(plan.site.length * IN_PLACE_SHARE)),
    ...(options.write.signal === undefined ? {} : { signal: options.write.signal }),
    ...(options.write.onFile === undefined ? {} : { onFile: options.write.onFile }),
  });
  if (site === null) {
    if (dirty.size === 0) removeJournal(layout.journal);
    return null;
  }
  const others = updateOthers(layout, last, plan, { site, trusted, start });
  removePending(layout.pending); // what a full build stopped before its records left (they name its folders now)
  removeJournal(layout.journal);
  if (options.once !== true)
    recordFolders(layout.folders, [{ dir: layout.out, folders: site.folders }, ...others.folders]);
  // With the manifest's bytes as the records wrote them: a value, not the update's closure (which holds the plan's
  // files until the next update).
  options.memo?.keep(layout.siteManifest, site.lines && { ...site.lines, printed: site.madeManifest?.() });
  return {
    mode: "in place",
    files: site.files,
    bytes: site.bytes + others.bytes,
    written: site.written.length + others.written,
    removed: site.removed.length + others.removed,
    sitePaths: [...site.written, ...site.removed],
  };
}

/** Updates the folders beside --out and the records in place, once --out is: what they link to is rewritten with it. */
function updateOthers(
  layout: Layout,
  last: LastBuild,
  plan: PublishPlan,
  at: { site: UpdateStats; trusted: (dir: string) => (rel: string) => boolean; start: UpdateStart },
): { bytes: number; written: number; removed: number; folders: Array<{ dir: string; folders: Set<string> }> } {
  const { site, trusted } = at;
  const { dirty, options } = at.start;
  const epoch = options.sourceDateEpoch;
  const rewritten = {
    dir: layout.out,
    paths: new Set(site.written),
    files: plan.site,
    indexes: new Set(site.writtenIndexes),
  };
  const written = siteWritten(layout, site);
  const done = { bytes: 0, written: 0, removed: 0, folders: [] as Array<{ dir: string; folders: Set<string> }> };
  const update = (dir: string, files: OutputFile[], more: Partial<UpdateOptions>): UpdateStats => {
    const stats = updateInPlace(dir, files, {
      journal: layout.journal,
      ...(epoch === undefined ? {} : { sourceDateEpoch: epoch }),
      previous: last.folderManifest(dir),
      trusted: trusted(dir),
      dirty: dirty.get(dir) ?? new Set(),
      manifestInside: true,
      rewritten,
      ...(options.write.onFile === undefined ? {} : { onFile: options.write.onFile }),
      ...more,
    })!;
    done.written += stats.written.length;
    done.removed += stats.removed.length;
    done.folders.push({ dir, folders: stats.folders });
    return stats;
  };
  // The folders beside --out keep no manifest inside: the records keep it, with their identities.
  const beside: BesideWritten[] = [];
  for (const b of plan.beside) {
    const stats = update(b.dir, b.files(written), { manifestInside: false });
    beside.push({ dir: b.name, id: stats.id, manifest: stats.manifest ?? noManifest });
  }
  const records = recordsToUpdate(layout, plan, { site, written, beside, rewritten, trusted, dirty });
  done.bytes += update(layout.records, records.files, { implied: records.implied }).bytes;
  return done;
}

/** The records' files, with only those of their links into --out that the update must look at
 * (src/output/plan/tree-links.ts), all of them after an interrupted update. */
function recordsToUpdate(
  layout: Layout,
  plan: PublishPlan,
  at: {
    site: UpdateStats;
    written: SiteWritten;
    beside: readonly BesideWritten[];
    rewritten: { indexes: ReadonlySet<number> };
    trusted: (dir: string) => (rel: string) => boolean;
    dirty: Dirty;
  },
): { files: OutputFile[]; implied: UpdateOptions["implied"] } {
  const { site } = at;
  const files = plan.records(at.written, at.beside, false);
  const links = treeLinks(
    plan.trees,
    { files: plan.site, entries: site.entries, dir: layout.out },
    {
      trusted: at.trusted(layout.records),
      rewritten: at.rewritten.indexes,
      all: (at.dirty.get(layout.records) ?? new Set()).size > 0,
    },
  );
  for (const link of links.links) files.push(link); // one by one: a large site's trees hold many
  return {
    files,
    implied: {
      trees: plan.trees,
      removedSitePaths: site.removed,
      folders: links.folders,
      otherBytes: links.otherBytes,
    },
  };
}
