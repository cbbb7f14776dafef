// src/build/publish-build.ts
// The build past the up-to-date check, loaded when a build needs it: compiles the content with what the last build
// kept, stamps it, and publishes it (src/output/publish.ts): in place when the records describe a whole earlier build
// of the same hosts (only the files whose bytes change are written), in full otherwise or with --force.

import path from "node:path";
import { ParsedFiles } from "../content/load-content.js";
import { parsesRecord, readParses, writeParses } from "../content/parse-cache.js";
import type { RawContent } from "../content/read-content.js";
import { lastBuild, type LastBuild } from "../layout/last-build.js";
import { linkTrees } from "../layout/link-trees.js";
import type { Layout } from "../layout/paths.js";
import { printSiteId, printStamp } from "../layout/stamp.js";
import type { OutputClaim } from "../output/claim/claim.js";
import { checkBeside } from "../output/claim/folder-checks.js";
import { planBeside } from "../output/plan/beside.js";
import { planRecords } from "../output/plan/records.js";
import { publish, PublishMemo, type PublishOptions, type PublishPlan } from "../output/publish.js";
import { AnswerInputsMemo } from "../routes/answer-inputs.js";
import { compileSite, type Compiled } from "./compile-site.js";
import { mark } from "./mark.js";
import type { BuildOptions, BuildResult, CompileOptions, StageOptions } from "./options.js";
import { stampOf } from "./stamp.js";
import { toolFingerprint } from "./up-to-date.js";

/** --out claimed, its layout, and the content read with the key of the build's inputs. */
export interface Claimed {
  claim: OutputClaim;
  layout: Layout;
  raw: RawContent;
  key: string;
}

/** Compiles and publishes the build into the claimed --out. */
export async function publishBuild(options: BuildOptions, stages: StageOptions, at: Claimed): Promise<BuildResult> {
  const { layout } = at;
  // The last build, read once (each file when first asked for): its host files, its route table's key, its manifests.
  const last = lastBuild(layout);
  // The JSON files' parses' record is made once the model is built, and written with the build.
  let parses: Buffer | undefined;
  const compiled = await compileSite(
    at.raw,
    compileOptions(options, layout, last, (record) => (parses = record)),
  );
  const besidePaths = compiled.beside.map((folder) => checkBeside(options, folder.dir));
  const stamp = printStamp(stampOf(compiled, options, layout, at.key));
  // What the answer files are computed from (a static host is built): the next update keeps those it leaves alone.
  const made = compiled.answers
    ? (options.memo === undefined
        ? new AnswerInputsMemo()
        : (options.memo.answerInputs ??= new AnswerInputsMemo())
      ).make(compiled.model, toolFingerprint())
    : undefined;
  const plan = publishPlan(compiled, { layout, last, stamp, besidePaths, made });
  const done = await publish(layout, last, plan, publishOptions(options, stages, at.claim));
  mark(`publish (${done.mode})`);
  if (parses !== undefined) writeParses(layout.parsedCache, parses);
  const { model, routes, diagnostics } = compiled;
  return {
    outDir: path.resolve(options.out),
    model,
    routes,
    diagnostics,
    counts: {
      answers: compiled.answers ? routes.files.size : 0,
      rules: routes.table.rules.length,
      files: done.files,
      bytes: done.bytes,
    },
    changes: { mode: done.mode, written: done.written, removed: done.removed, sitePaths: done.sitePaths },
  };
}

/**
 * What the compile stage takes from the last build: the time of its stamp (`again`), the JSON files' parses (dev's,
 * or the record's, read when first needed; none with --force), its hosts' files and its catalogue's prints. The
 * parses are not held here once compiled: `saved` gets their record when they changed.
 */
function compileOptions(
  options: BuildOptions,
  layout: Layout,
  last: LastBuild,
  saved: (record: Buffer) => void,
): CompileOptions {
  const time = options.again === true ? last.stamp?.time : undefined;
  const recorded = (): ReturnType<typeof readParses> => readParses(layout.parsedCache, toolFingerprint());
  return {
    ...options,
    ...(time === undefined ? {} : { nowMs: time * 1000 }),
    parsed:
      options.force === true
        ? new ParsedFiles()
        : options.memo !== undefined
          ? (options.memo.parsed ??= new ParsedFiles(recorded))
          : new ParsedFiles(recorded),
    saveParsed: (parsed) => saved(parsesRecord(toolFingerprint(), parsed.entries())),
    ...(options.force === true
      ? {}
      : { keptHosts: (key: string) => last.hostOutputs(key), lastCataloguePrints: () => last.cataloguePrintsText() }),
  };
}

/** Every folder's files: --out's, then those of the folders beside it and of the records, made once --out is
 * written (they link to its files, and record its manifest and identity). */
function publishPlan(
  compiled: Compiled,
  at: {
    layout: Layout;
    last: LastBuild;
    stamp: string;
    besidePaths: string[];
    made: PublishPlan["answerInputs"];
  },
): PublishPlan {
  const { site, routes, published, hosts, handler, cataloguePrints } = compiled;
  const { layout, last, stamp, made } = at;
  const trees = linkTrees(hosts);
  return {
    site,
    trees,
    beside: compiled.beside.map((folder, i) => ({
      dir: at.besidePaths[i]!,
      files: (written) => planBeside(folder, stamp, { files: site, dir: layout.out, entries: written.entries }),
    })),
    records: (written, links) =>
      planRecords({
        routes,
        published,
        hosts,
        trees,
        hostsRecord: compiled.hostsRecord(),
        stamp,
        // The same key, the same route table: routes.json is neither printed nor hashed.
        tableUnchanged: last.hostsKey() === compiled.hostsKey(),
        siteId: printSiteId(written.ino),
        ...(handler === undefined ? {} : { handler }),
        ...(made === undefined ? {} : { answerInputs: made.text }),
        ...(cataloguePrints === undefined ? {} : { cataloguePrints }),
        site: { files: site, entries: written.entries, dir: layout.out, manifest: written.manifest },
        ...(links === false ? { links } : {}),
      }),
    ...(made === undefined ? {} : { answerInputs: made }),
  };
}

function publishOptions(options: BuildOptions, stages: StageOptions, claim: OutputClaim): PublishOptions {
  return {
    // The records are ours by their place: --replace-out, which let the build replace --out, lets it replace them too.
    write: { ...options.write, replaceOut: stages.replaceOut },
    claim,
    ...(stages.epoch === undefined ? {} : { sourceDateEpoch: stages.epoch }),
    force: options.force === true,
    ...(options.memo === undefined ? {} : { memo: (options.memo.publish ??= new PublishMemo()) }),
    ...(options.onMode === undefined ? {} : { onMode: options.onMode }),
  };
}
