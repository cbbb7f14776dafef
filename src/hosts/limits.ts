// src/hosts/limits.ts
// What each host accepts per deploy, by plan: each host folder's preset lists its limits, each figure with its source
// and the date it was read, so that one edit updates the check and the docs. Pure: the build measures what each host
// would receive (src/pipeline/measure-hosts.ts: files, sizes, and the rule counts its adapter's `measure` finds in its config) and
// `planLimitDiagnostics` compares: a crossed row is a warning, or an error where the host documents a hard limit.
// The CPU row is compared with the handler's costliest request as estimated from its data files (src/edge/cost.ts;
// the bench measures it on workerd: bench/workerd.mjs); the start-up and response-time rows only document the plans.

import type { Diagnostic } from "../errors.js";
import { MB, type LimitRow, type Measure } from "./host-preset.js";
import type { HostName } from "./names.js";
import { PRESETS } from "./presets.js";
import type { ConfigMeasures } from "./types.js";

export type { Measure } from "./host-preset.js";

export const PLANS = ["free", "paid"] as const;
export type Plan = (typeof PLANS)[number];

export interface PlanLimit extends LimitRow {
  host: HostName;
}

/** Every host's limits, in registry order. */
export const PLAN_LIMITS: readonly PlanLimit[] = PRESETS.flatMap((p) =>
  p.limits.map((row: LimitRow): PlanLimit => ({ host: p.name, ...row })),
);

/** What the build measured of one host's upload. */
export interface HostMeasures extends ConfigMeasures {
  host: HostName;
  files?: number;
  largestFile?: { path: string; bytes: number };
  handlerBytes?: number;
  handlerGzipBytes?: number;
  /** The handler's costliest request in CPU ms, estimated from its data files (src/edge/cost.ts). */
  cpuMs?: number;
}

const count = (n: number): string => n.toLocaleString("en-US");
const size = (n: number): string => (n >= MB ? `${(n / MB).toFixed(2)} MB` : `${(n / 1000).toFixed(1)} kB`);

const FEWER = "use fewer icons, extensions or versions";
const HINTS: Record<Measure, string> = {
  files: "Deploy with fewer files (icons), pick --plan paid if your account has it, or leave the host out of --hosts.",
  "file bytes": "Make the file smaller, or leave the host out of --hosts.",
  "handler gzip bytes":
    "Use fewer icons, extensions or versions, pick --plan paid if your account has it, or leave the host out of --hosts.",
  "handler bytes": "Use fewer icons, extensions or versions, or leave the host out of --hosts.",
  "redirect lines": `Deploy the edge function instead (--hosts netlify: no rule per value), or ${FEWER}.`,
  rewrites: `Deploy the edge function instead (--hosts vercel: no rule per value), or ${FEWER}.`,
  "header rules": `Deploy the edge function instead (--hosts vercel), or ${FEWER}.`,
  "cpu ms":
    "The estimate (src/edge/cost.ts) grows with the site's largest whole answer under --base-url request: build with a fixed --base-url, use fewer icons or extensions, or pick --plan paid.",
  "startup ms": "Not measured by the build.",
  "response start ms": "Not measured by the build.",
};

const SIZES: ReadonlySet<Measure> = new Set(["file bytes", "handler bytes", "handler gzip bytes"]);
const UNITS: Partial<Record<Measure, string>> = {
  files: "files",
  "redirect lines": "_redirects lines",
  "cpu ms": "ms (estimated)",
};

/** The measured figure a limit compares, or undefined where the build does not measure it. */
function measured(m: HostMeasures, measure: Measure): number | undefined {
  switch (measure) {
    case "files":
      return m.files;
    case "file bytes":
      return m.largestFile?.bytes;
    case "handler bytes":
      return m.handlerBytes;
    case "handler gzip bytes":
      return m.handlerGzipBytes;
    case "redirect lines":
      return m.redirectLines;
    case "rewrites":
      return m.rewrites;
    case "header rules":
      return m.headerRules;
    case "cpu ms":
      return m.cpuMs;
    default:
      return undefined;
  }
}

/** A measured figure as the messages print it: a size, or a count with its unit. */
const shown = (measure: Measure, n: number): string =>
  SIZES.has(measure) ? size(n) : `${count(n)} ${UNITS[measure] ?? measure}`;

/**
 * One diagnostic per crossed limit of the plan's row, naming the host, the limit, the measured figure, what to do and
 * the limit's source: a warning, or an error for a limit the host enforces.
 */
export function planLimitDiagnostics(measures: readonly HostMeasures[], plan: Plan): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const m of measures) {
    for (const limit of PLAN_LIMITS.filter((l) => l.host === m.host)) {
      const max = limit[plan];
      const value = measured(m, limit.measure);
      if (value === undefined || value <= max) continue;
      const allowed = SIZES.has(limit.measure) ? size(max) : count(max);
      const of = limit.measure === "file bytes" && m.largestFile ? ` (${m.largestFile.path})` : "";
      out.push({
        severity: limit.severity ?? "warning",
        code: "HOST_PLAN_LIMIT",
        file: `--hosts ${m.host}`,
        message: `${m.host}: ${limit.what} is ${allowed} on the ${plan} plan; this build gives ${shown(limit.measure, value)}${of}.`,
        hint: `${HINTS[limit.measure]} Source: ${limit.source} (read ${limit.read}).`,
      });
    }
  }
  return out;
}
