// src/pipeline/hosts.ts
// The compile stage's hosts: their files, made again only when what they are made from changes (src/hosts/record.ts),
// else `dev`'s memo or the last build's read back from where it wrote them; their measures, checked against the
// plan's limits; and their record (hosts.json), printed when first asked for.

import type { RawContent } from "../content/read-content.js";
import { entryBundle } from "../edge/index.js";
import { ContentError, HostLimitError, type Diagnostic } from "../errors.js";
import {
  assembleHosts,
  configMeasures,
  renderHosts,
  withFileHashes,
  type HostInput,
  type HostName,
  type RenderedHosts,
} from "../hosts/index.js";
import { planLimitDiagnostics } from "../hosts/limits.js";
import { hostsKey, printHostsRecord } from "../hosts/record.js";
import type { KeptHost } from "../layout/last-build.js";
import { mark } from "../timings.js";
import type { BuildMemo } from "./memo.js";
import { largestPublished, measureHost } from "./measure-hosts.js";
import { applyStrict, type CompileOptions } from "./options.js";
import { toolFingerprint } from "./up-to-date.js";

/** The chosen hosts' files, the key of what they are made from, and where they came from. */
export interface MadeHosts {
  rendered: RenderedHosts;
  key(): string;
  /** `dev`'s memo of them, when they are its (their measures and record come with them). */
  memo: BuildMemo["hosts"];
  /** The last build's, read back, when they are. */
  kept: KeptHost[] | null;
}

/** The hosts' files: `dev`'s, the last build's, or rendered; a host over one of its limits is a ContentError. */
export function hostsOf(
  input: Omit<HostInput, "entry">,
  selected: readonly HostName[],
  options: Pick<CompileOptions, "memo" | "keptHosts">,
  diagnostics: Diagnostic[],
): MadeHosts {
  let key: string | undefined;
  const keyOf = (): string => (key ??= hostsKey(input, selected, toolFingerprint()));
  const memo = options.memo !== undefined && options.memo.hosts?.key === keyOf() ? options.memo.hosts : null;
  const kept = memo === null && options.keptHosts !== undefined ? options.keptHosts(keyOf()) : null;
  let rendered: RenderedHosts;
  try {
    rendered =
      memo?.rendered ??
      (kept === null
        ? withFileHashes(renderHosts({ ...input, entry: (host) => entryBundle(host) }, selected))
        : assembleHosts(kept));
  } catch (error) {
    if (!(error instanceof HostLimitError)) throw error;
    throw new ContentError([
      ...diagnostics,
      {
        severity: "error",
        code: "HOST_LIMIT",
        file: `--hosts ${error.host}`,
        message: error.message,
        hint: error.hint ?? `Build without ${error.host} (--hosts), or use fewer icons, extensions or versions.`,
      },
    ]);
  }
  mark(memo === null && kept === null ? "hosts" : "hosts (kept)");
  return { rendered, key: keyOf, memo, kept };
}

/**
 * Measures each host's deploy (`siteFiles`: how many of the site's files it uploads) and checks the measures against
 * the plan's limits (a ContentError over one). Returns the hosts' record, printed when first asked for: the memo's
 * when it holds one, as it is made of the same key, files and handler sizes.
 */
export function checkedHosts(
  made: MadeHosts,
  published: RawContent["published"],
  siteFiles: (name: HostName) => number,
  options: Pick<CompileOptions, "memo" | "plan" | "strict">,
  diagnostics: Diagnostic[],
  cpuMs?: (name: HostName) => number | undefined,
): () => string {
  const largest = largestPublished(published);
  // A kept host's handler keeps its size (gzipped once).
  // The rule counts in each host's config: dev's memo has them for the same files.
  const measures = made.rendered.outputs.map(({ name, output }, i) => ({
    ...(made.memo?.measures[i] ?? configMeasures(name, output)),
    ...measureHost(name, output, largest, siteFiles(name), made.memo?.measures[i] ?? made.kept?.[i]),
    ...(cpuMs?.(name) === undefined ? {} : { cpuMs: cpuMs(name) }),
  }));
  const memoOut =
    options.memo === undefined
      ? null
      : (options.memo.hosts = {
          key: made.key(),
          rendered: made.rendered,
          measures,
          ...(made.memo?.record === undefined ? {} : { record: made.memo.record }),
        });
  const limits = applyStrict(planLimitDiagnostics(measures, options.plan ?? "free"), options.strict);
  diagnostics.push(...limits);
  if (limits.some((d) => d.severity === "error")) throw new ContentError(diagnostics);
  return () => {
    if (memoOut?.record !== undefined) return memoOut.record;
    const record = printHostsRecord(
      made.key(),
      made.rendered.outputs.map((o, i) => ({
        ...o,
        ...(measures[i]!.handlerBytes === undefined
          ? {}
          : { handlerBytes: measures[i]!.handlerBytes, handlerGzipBytes: measures[i]!.handlerGzipBytes! }),
      })),
    );
    if (memoOut !== null) memoOut.record = record;
    return record;
  };
}
