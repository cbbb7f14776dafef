// src/hosts/limits.ts
// What each host accepts per deploy, by plan: each host folder's preset lists its limits, each figure with its source
// and the date it was read, so that one edit updates the check and the docs. Pure: the build measures what each host
// would receive (src/pipeline/measure-hosts.ts) and `planLimitDiagnostics` compares. Limits that make an emitted config fail to load
// (the static fallbacks' rule counts) are not here: their printers refuse them (HostLimitError).

import type { Diagnostic } from "../errors.js";
import { MB, type LimitRow, type Measure } from "./host-preset.js";
import type { HostName } from "./names.js";
import { PRESETS } from "./presets.js";

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
export interface HostMeasures {
  host: HostName;
  files?: number;
  largestFile?: { path: string; bytes: number };
  handlerBytes?: number;
  handlerGzipBytes?: number;
}

const count = (n: number): string => n.toLocaleString("en-US");
const size = (n: number): string => (n >= MB ? `${(n / MB).toFixed(2)} MB` : `${(n / 1000).toFixed(1)} kB`);

const HINTS: Record<Measure, string> = {
  files: "Deploy with fewer files (icons), pick --plan paid if your account has it, or leave the host out of --hosts.",
  "file bytes": "Make the file smaller, or leave the host out of --hosts.",
  "handler gzip bytes":
    "Use fewer icons, extensions or versions, pick --plan paid if your account has it, or leave the host out of --hosts.",
  "handler bytes": "Use fewer icons, extensions or versions, or leave the host out of --hosts.",
};

/** One warning per crossed limit of the plan's row, naming the host, the limit, the measured figure and what to do. */
export function planLimitDiagnostics(measures: readonly HostMeasures[], plan: Plan): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const m of measures) {
    for (const limit of PLAN_LIMITS.filter((l) => l.host === m.host)) {
      const max = limit[plan];
      const value =
        limit.measure === "files"
          ? m.files
          : limit.measure === "file bytes"
            ? m.largestFile?.bytes
            : limit.measure === "handler bytes"
              ? m.handlerBytes
              : m.handlerGzipBytes;
      if (value === undefined || value <= max) continue;
      const shown = limit.measure === "files" ? `${count(value)} files` : size(value);
      const allowed = limit.measure === "files" ? count(max) : size(max);
      const of = limit.measure === "file bytes" && m.largestFile ? ` (${m.largestFile.path})` : "";
      out.push({
        severity: "warning",
        code: "HOST_PLAN_LIMIT",
        file: `--hosts ${m.host}`,
        message: `${m.host}: ${limit.what} is ${allowed} on the ${plan} plan; this build gives ${shown}${of}.`,
        hint: `${HINTS[limit.measure]} Source: ${limit.source} (read ${limit.read}).`,
      });
    }
  }
  return out;
}
