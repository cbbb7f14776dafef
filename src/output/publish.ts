// src/output/publish.ts
// I/O: publishes a computed build in one call: --out, then each folder beside it, then the records, either
//  - in place (the default when the records describe a whole earlier build of the same hosts): only the files whose
//    bytes change are written, each renamed over its target, under the update journal (update.ts); or
//  - in full (--force, the first build, other hosts): each folder written whole beside its place and swapped in
//    (write-output.ts), reusing unchanged files by hard links.
// Either way a reader never sees a half-written file, and a build stopped midway is finished by the next one.

import { unlinkSync } from "node:fs";
import path from "node:path";
import { ICONS_DIR, iconDirName } from "../content/read-content.js";
import { printTrees, type LinkTree } from "../layout/link-trees.js";
import type { Layout } from "../layout/paths.js";
import { fileIdentity, type LastBuild } from "../layout/read-build.js";
import { AnswerOutput } from "../routes/answer-files.js";
import { changedMembers, changedPrints, iconKey, type AnswerInputs } from "../routes/answer-inputs.js";
import { foldersIn, type OutputFile } from "./plan/site.js";
import { forgetFolders, recordFolders, trustedFolders, withParents } from "./manifests/dir-stamps.js";
import { treeLinks } from "./plan/tree-links.js";
import type { ManifestLines } from "./manifests/lines.js";
import { openJournal, readJournal, removeTemporaries, updateInPlace, type UpdateOptions } from "./write/in-place.js";
import {
  MANIFEST_FILE,
  mtimesLine,
  writeOutput,
  type ManifestEntries,
  type ManifestText,
  type OutputClaim,
  type WriteOptions,
} from "./write/full.js";

const noManifest: ManifestText = { chunks: () => [], bytes: () => Buffer.alloc(0) };

/** --out as written: what the folders beside it and the records link to and record. */
export interface SiteWritten {
  dir: string;
  ino: number;
  entries: ManifestEntries;
  /** --out's manifest, printed when the records write it (its 46 MB at ×100 are not held meanwhile). */
  manifest: ManifestText;
}

export interface PublishPlan {
  /** The files of --out. */
  site: readonly OutputFile[];
  /** Each folder beside --out (absolute), its files made once --out is written (they link to its files). */
  beside: ReadonlyArray<{ dir: string; files(site: SiteWritten): OutputFile[] }>;
  /** The records' files, made once --out is written (they record its manifest and identity); without the trees' links
   * when `links` is false. */
  records(site: SiteWritten, links?: boolean): OutputFile[];
  /** The hosts' copies of the site among the records' files (src/layout/link-trees.ts): their manifest omits them. */
  trees: readonly LinkTree[];
  /** What the answer files of --out are computed from, when it holds answers, and its text in the records: an update
   * in place keeps those whose inputs the last build's records show unchanged, without producing them. */
  answerInputs?: { inputs: AnswerInputs; text: string };
}

export interface PublishOptions {
  write: WriteOptions;
  claim: OutputClaim;
  sourceDateEpoch?: number;
  /** Write every folder whole (--force), never in place. */
  force?: boolean;
  /** What `dev` keeps in memory between its builds. */
  memo?: PublishMemo;
  /** Told how the build is written, before it writes (the CLI sets V8's heap growth by it: src/cli/heap.ts). */
  onMode?: (mode: Published["mode"]) => void;
}

/**
 * What `dev` keeps of its last update in place: --out's manifest in lines, as the update left it (a ×100 site's is
 * 46 MB, 640,000 lines: read and parsed again, 0.3 s of each rebuild), with the identity of the records' file that
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
  const trees = last.linkTrees();
  if (trees === null || printTrees(trees) !== printTrees(plan.trees)) return false;
  // The manifest's second line.
  return (kept === null ? last.siteManifest().split("\n", 2)[1] : kept.mtimes) === mtimesLine(epoch);
}

/** Publishes `plan` over `last`, the build the records describe now (read-build.ts: `lastBuild(layout)`). */
export async function publish(
  layout: Layout,
  last: LastBuild,
  plan: PublishPlan,
  options: PublishOptions,
): Promise<Published> {
  const epoch = options.sourceDateEpoch;
  const dated = epoch === undefined ? {} : { sourceDateEpoch: epoch };
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
    const done = inPlace(layout, last, plan, dirty, options, epoch, kept);
    if (done !== null) return done;
  }
  options.onMode?.("full");
  for (const [dir, paths] of dirty) removeTemporaries(dir, paths);
  // After an interrupted update the manifests do not say what the files hold: nothing is reused. With --force a file
  // is reused only when its bytes are read and found to be what the manifest says (one edited by hand is written).
  const reuse = dirty.size === 0 ? (options.force === true ? { verifyReuse: true } : {}) : { reuse: false };
  const { signal: _signal, claim: _claim, ...write } = options.write;
  // The last manifest, held only while --out is written (the records print the new one beside its 46 MB at ×100): read
  // in the call, so that no variable here holds it afterwards.
  const previous = (): string | null =>
    dirty.size === 0 && last.describesSite && last.recordsAreOurs() ? last.siteManifest(true) : null;
  forgetFolders(layout.folders);
  const site = await writeOutput(layout.out, plan.site, {
    ...options.write,
    ...reuse,
    claim: options.claim,
    ...dated,
    manifest: { previous: previous() },
  });
  const written: SiteWritten = {
    dir: layout.out,
    ino: site.ino,
    entries: site.entries,
    manifest: site.manifest ?? noManifest,
  };
  const folders = [{ dir: layout.out, folders: withParents(foldersIn(plan.site)) }];
  // Once --out is swapped in, Ctrl-C no longer stops the build (its signal is not passed on): it finishes, rather
  // than leave new answers with an old handler and say that nothing was written.
  for (const folder of plan.beside) {
    const files = folder.files(written);
    await writeOutput(folder.dir, files, { ...write, ...reuse, ...dated });
    folders.push({ dir: folder.dir, folders: withParents(foldersIn(files)) });
  }
  const recordFiles = plan.records(written);
  const records = await writeOutput(layout.records, recordFiles, { ...write, ...reuse, ...dated });
  folders.push({ dir: layout.records, folders: withParents(foldersIn(recordFiles)) });
  removeJournal(layout.journal);
  recordFolders(layout.folders, folders);
  return {
    mode: "full",
    files: site.files,
    bytes: site.bytes + records.bytes,
    written: site.files,
    removed: 0,
    sitePaths: [],
  };
}

function inPlace(
  layout: Layout,
  last: LastBuild,
  plan: PublishPlan,
  dirty: Map<string, Set<string>>,
  options: PublishOptions,
  epoch: number | undefined,
  kept: ManifestLines | null,
): Published | null {
  const none = new Set<string>();
  const common = { journal: layout.journal, ...(epoch === undefined ? {} : { sourceDateEpoch: epoch }) };
  for (const [dir, paths] of dirty) removeTemporaries(dir, paths);
  const previous = kept ?? last.siteManifest();
  const trusted = trustedFolders(layout.folders);
  forgetFolders(layout.folders); // before any change: an update stopped midway leaves nothing trusted
  openJournal(layout.journal);
  const site = updateInPlace(layout.out, plan.site, {
    ...common,
    previous,
    trusted: trusted(layout.out),
    dirty: dirty.get(layout.out) ?? none,
    manifestInside: false,
    ...(plan.answerInputs === undefined ? {} : lastInputs(last.answerInputsText(), plan.answerInputs, epoch)),
    maxChanged: Math.max(64, Math.floor(plan.site.length * IN_PLACE_SHARE)),
    ...(options.write.signal === undefined ? {} : { signal: options.write.signal }),
    ...(options.write.onFile === undefined ? {} : { onFile: options.write.onFile }),
  });
  if (site === null) {
    if (dirty.size === 0) removeJournal(layout.journal);
    return null; // most of the site changes: written in full
  }
  const rewritten = {
    dir: layout.out,
    paths: new Set(site.written),
    files: plan.site,
    indexes: new Set(site.writtenIndexes),
  };
  const written: SiteWritten = {
    dir: layout.out,
    ino: site.ino,
    entries: site.entries,
    manifest: site.manifest ?? noManifest,
  };
  let { bytes } = site;
  let changed = site.written.length;
  let removed = site.removed.length;
  // The records' links into --out: only those the update must look at (src/output/plan/tree-links.ts), all of them after an
  // interrupted update.
  const records = (): { files: OutputFile[]; implied: UpdateOptions["implied"] } => {
    const files = plan.records(written, false);
    const links = treeLinks(
      plan.trees,
      { files: plan.site, entries: site.entries, dir: layout.out },
      {
        trusted: trusted(layout.records),
        rewritten: rewritten.indexes,
        all: (dirty.get(layout.records) ?? none).size > 0,
      },
    );
    for (const link of links.links) files.push(link); // one by one: 690,000 after an interrupted update at ×100
    return {
      files,
      implied: {
        trees: plan.trees,
        removedSitePaths: site.removed,
        folders: links.folders,
        otherBytes: links.otherBytes,
      },
    };
  };
  const folders = [
    ...plan.beside.map((b) => ({ dir: b.dir, files: () => ({ files: b.files(written), implied: undefined }) })),
    { dir: layout.records, files: records },
  ];
  const updated = [{ dir: layout.out, folders: site.folders }];
  for (const folder of folders) {
    const { files, implied } = folder.files();
    const stats = updateInPlace(folder.dir, files, {
      ...common,
      previous: last.folderManifest(folder.dir),
      trusted: trusted(folder.dir),
      dirty: dirty.get(folder.dir) ?? none,
      manifestInside: true,
      rewritten,
      ...(options.write.onFile === undefined ? {} : { onFile: options.write.onFile }),
      ...(implied === undefined ? {} : { implied }),
    })!;
    if (folder.dir === layout.records) bytes += stats.bytes;
    changed += stats.written.length;
    removed += stats.removed.length;
    updated.push({ dir: folder.dir, folders: stats.folders });
  }
  removeJournal(layout.journal);
  recordFolders(layout.folders, updated);
  // With the manifest's bytes as the records wrote them: a value, not the update's closure (which holds the plan's
  // 640,000 files at ×100 until the next update).
  options.memo?.keep(layout.siteManifest, site.lines && { ...site.lines, printed: site.madeManifest?.() });
  return {
    mode: "in place",
    files: site.files,
    bytes,
    written: changed,
    removed,
    sitePaths: [...site.written, ...site.removed],
  };
}

/** What the prints of the last build's inputs vouch for: answer files kept whole, and copies' times. */
function lastInputs(
  lastText: string | null,
  now: { inputs: AnswerInputs; text: string },
  epoch: number | undefined,
): Pick<UpdateOptions, "keep" | "changedMembers" | "sameTime"> {
  const changed = changedPrints(lastText, now.text, now.inputs);
  if (changed === null) return {}; // nothing can be kept: no answer is asked, every copy's time is read
  const keep = keptAnswers(changed);
  const sameTime = keptIconTimes(changed, epoch);
  return {
    keep,
    changedMembers: (set) => changedMembers(set.inputs, changed),
    ...(sameTime === undefined ? {} : { sameTime }),
  };
}

/** Answer files whose inputs are those of the last build (src/routes/answer-inputs.ts): their bytes are its. */
function keptAnswers(changed: ReadonlySet<string>): (f: OutputFile) => boolean {
  const tests = new Map<((member: string) => string) | undefined, (member: string) => boolean>();
  return (f) => f instanceof AnswerOutput && f.inputsUnchanged(changed, tests);
}

/**
 * Copies of icons/ files whose modification time is the last build's, without reading it: under SOURCE_DATE_EPOCH,
 * a time clamped to it now whose file's print (src/routes/answer-inputs.ts: size and time in seconds, clamped the
 * same way) is unchanged was clamped to it then. Every file directly in icons/ has its print among the inputs (each of
 * the model's icons/ files has one), so a copy's is unchanged unless its key is among the changed ones, a handful. A
 * ×100 site has 49,000 icons: their times, read one by one, took half a second of a one-mapping rebuild, and their
 * keys, made one by one to be looked up, 45 ms.
 */
function keptIconTimes(
  changed: ReadonlySet<string>,
  epoch: number | undefined,
): ((f: OutputFile, mtimeMs: number) => boolean) | undefined {
  if (epoch === undefined) return undefined;
  const limit = epoch * 1000;
  const prefix = iconKey("");
  const changedCopies = new Set<string>();
  for (const key of changed) if (key.startsWith(prefix)) changedCopies.add(ICONS_DIR + key.slice(prefix.length));
  return (f, mtimeMs) => mtimeMs === limit && iconDirName(f.path) !== null && !changedCopies.has(f.path);
}

function removeJournal(journal: string): void {
  try {
    unlinkSync(journal);
  } catch {
    // none
  }
}
