// src/pipeline/publish-build.ts
// The build past the up-to-date check, loaded when a build needs it: compiles the content with what the last build
// kept, stamps it, and publishes it (src/output/publish.ts): in place when the records describe a whole earlier build
// of the same hosts (only the files whose bytes change are written), in full otherwise or with --force.

import path from "node:path";
import { ParsedFiles, type KeptParse } from "../content/load-content.js";
import { parsesRecord, writeParses } from "../content/parse-cache.js";
import type { RawContent } from "../content/read-content.js";
import { lastBuild, type LastBuild } from "../layout/last-build.js";
import type { Layout } from "../layout/paths.js";
import { printStamp } from "../layout/stamp.js";
import type { OutputClaim } from "../output/claim/claim.js";
import { checkBeside } from "../output/claim/folder-checks.js";
import { publish, PublishMemo, type PublishOptions } from "../output/publish.js";
import { stampOf } from "../output/stamp.js";
import { AnswerInputsMemo } from "../routes/answer-inputs.js";
import { mark } from "../timings.js";
import { compileSite, type Compiled } from "./compile-site.js";
import type { BuildOptions, BuildResult, CompileOptions, StageOptions } from "./options.js";
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
  const publishWith = publishOptions(options, stages, at.claim);
  // The last build, read once (each file when first asked for): its host files, its route table's key, its manifests.
  const last = lastBuild(layout);
  // The JSON files' parses' record is made once the model is built, and written with the build.
  let parses: Buffer | undefined;
  const compiled = await compileOver(last, options, at.raw, (record) => (parses = record));
  const stamp = printStamp(stampOf(compiled, { key: at.key, hosts: options.hosts, tool: toolFingerprint() }, layout));
  const besidePaths = compiled.beside.map((folder) => checkBeside(options, folder.dir));
  // What the answer files are computed from (a static host is built): the next update keeps those it leaves alone.
  const made =
    compiled.answers && options.once !== true
      ? (options.memo === undefined
          ? new AnswerInputsMemo()
          : (options.memo.answerInputs ??= new AnswerInputsMemo())
        ).make(compiled.model, toolFingerprint())
      : undefined;
  const input = { ...compiled, besidePaths, stamp, ...(made === undefined ? {} : { answerInputs: made }) };
  const done = await publish(layout, last, input, publishWith);
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
 * Compiles the content read with what the last build kept: the time of its stamp (`again`), the JSON files' parses
 * (dev's, or the record's, read when first needed; none with --force), its hosts' files and its catalogue's prints.
 * The parses are not held once compiled: `saved` gets their record when they changed.
 */
async function compileOver(
  last: LastBuild,
  options: BuildOptions,
  raw: RawContent,
  saved: (record: Buffer) => void,
): Promise<Compiled> {
  const time = options.again === true ? last.stamp?.time : undefined;
  const recorded = (): KeptParse[] => last.parses(toolFingerprint());
  const compileWith: CompileOptions = {
    ...options,
    ...(time === undefined ? {} : { nowMs: time * 1000 }),
    parsed:
      options.force === true
        ? new ParsedFiles()
        : options.memo !== undefined
          ? (options.memo.parsed ??= new ParsedFiles(recorded))
          : new ParsedFiles(recorded),
    ...(options.once === true
      ? {}
      : { saveParsed: (parsed: ParsedFiles) => saved(parsesRecord(toolFingerprint(), parsed.entries())) }),
    ...(options.force === true
      ? {}
      : { keptHosts: (key: string) => last.hostOutputs(key), lastCataloguePrints: () => last.cataloguePrintsText() }),
  };
  return compileSite(raw, compileWith);
}

function publishOptions(options: BuildOptions, stages: StageOptions, claim: OutputClaim): PublishOptions {
  return {
    // The records are ours by their place: --replace-out, which let the build replace --out, lets it replace them too.
    write: { ...options.write, replaceOut: stages.replaceOut },
    claim,
    ...(stages.epoch === undefined ? {} : { sourceDateEpoch: stages.epoch }),
    force: options.force === true,
    ...(options.once === true ? { once: true } : {}),
    ...(options.memo === undefined ? {} : { memo: (options.memo.publish ??= new PublishMemo()) }),
    ...(options.onMode === undefined ? {} : { onMode: options.onMode }),
  };
}
