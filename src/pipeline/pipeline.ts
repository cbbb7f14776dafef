// src/pipeline/pipeline.ts
// The build, stage by stage: the options narrowed for each stage, --out claimed, the content read, and, unless --out
// already holds the build of these inputs, the content compiled and published (publish-build.ts, loaded then).

import path from "node:path";
import { readContent, type RawContent } from "../content/read-content.js";
import type { Layout } from "../layout/paths.js";
import { withClaim } from "../output/claim/claim.js";
import { mark } from "./mark.js";
import { stageOptions, type BuildOptions, type BuildResult, type UpToDateResult } from "./options.js";
import { inputsKey, toolFingerprint, upToDate } from "./up-to-date.js";

/** Builds the site into --out (atomically; unchanged files are hard-linked from the previous output). */
export async function build(options: BuildOptions): Promise<BuildResult> {
  return buildOrSkip(options, false) as Promise<BuildResult>;
}

/**
 * Like build, but does nothing when --out already holds the build of exactly these inputs (content, options and
 * tool unchanged, output intact): what the CLI runs.
 */
export async function buildIfChanged(options: BuildOptions): Promise<BuildResult | UpToDateResult> {
  return buildOrSkip(options, true);
}

/**
 * `build` (ifChanged false) or `buildIfChanged` (true), stage by stage: the options narrowed, --out claimed, the content
 * read (with what the last build kept of it) and keyed, and, unless --out already holds the build of that key, the
 * content compiled and published. The content's facts are kept for the next build once this one is written or found
 * up to date.
 */
export async function buildOrSkip(options: BuildOptions, ifChanged: boolean): Promise<BuildResult | UpToDateResult> {
  const stages = stageOptions(options);
  return withClaim(stages.claim, async (claim, layout) => {
    mark("claim");
    const { ContentCache } = await import("../content/content-cache.js");
    const cache = ContentCache.open(layout.contentCache, toolFingerprint(), stages.cache);
    if (options.memo !== undefined && options.force !== true) options.memo.contentCache = cache;
    const raw = await readContent(options.content, { ...stages.read, cache });
    mark("read content");
    const key = await inputsKey(raw, stages.key);
    mark("inputs key");
    let built: BuildResult | UpToDateResult | null = null;
    if (ifChanged && options.again !== true && raw.diagnostics.length === 0 && options.write?.reuse !== false)
      built = upToDateResult(options, layout, key, raw, stages.epoch);
    if (built === null) {
      const { publishBuild } = await import("./publish-build.js");
      built = await publishBuild(options, stages, { claim, layout, raw, key });
    }
    if (options.once !== true) {
      try {
        cache.save(layout.contentCache, toolFingerprint());
      } catch {
        // a read-only or full disk costs the next build its reads, never this one: the build reports what it cannot write
      }
    }
    return built;
  });
}

/** What the build says when --out already holds the build of these inputs (nothing is written); null when not. */
function upToDateResult(
  options: BuildOptions,
  layout: Layout,
  key: string,
  raw: RawContent,
  epoch: number | undefined,
): UpToDateResult | null {
  const stamp = upToDate(layout, key, raw, epoch);
  mark("up-to-date check");
  // --strict is no input (it changes no byte), but it must still refuse the warnings the last build recorded.
  if (stamp === null || (options.strict === true && stamp.warnings > 0)) return null;
  return {
    outDir: path.resolve(options.out),
    warnings: stamp.warnings,
    counts: { answers: stamp.answers, rules: stamp.rules },
  };
}
