// src/hosts/host-preset.ts
// What a host folder's `preset.ts` declares: the host's name, its kind, whether `--hosts` picks it by default, and
// what it accepts per deploy by plan. Light (no imports): the command reads every preset before it parses `--hosts`.

/** What a plan limit measures of a host's upload (src/hosts/limits.ts compares). */
export type Measure =
  | "files"
  | "file bytes"
  | "handler gzip bytes"
  | "handler bytes"
  /** Lines of `_redirects`, rewrites and header rules of `vercel.json`: counted in the host's config. */
  | "redirect lines"
  | "rewrites"
  | "header rules"
  /** A request's CPU time, a Worker's start-up, the time to begin the response: never measured by the build. */
  | "cpu ms"
  | "startup ms"
  | "response start ms";

/** One published limit of a host, by plan. */
export interface LimitRow {
  measure: Measure;
  /** The limit on each plan row: Free (Hobby) and the first paid plan. */
  free: number;
  paid: number;
  /** What the limit applies to, as the host's documentation names it. */
  what: string;
  source: string;
  /** When the figure was read (YYYY-MM-DD). */
  read: string;
  /** "error": the host refuses a deploy past it (a documented hard limit). Otherwise the crossing is a warning
   * (guidance, or a limit the plan may lift), an error with --strict. */
  severity?: "error";
}

export interface HostPreset {
  /** The name `--hosts` takes, the folder's name, and the name of the host's folder in the records. */
  name: string;
  /** "edge": /api.php is the request-time handler (the folder has an entry.ts, bundled into
   * lib/edge/bundles/<name>.js), which reads the data files; "static": rewrite rules to the answer files. */
  kind: "edge" | "static";
  /** Whether `--hosts` picks it when the flag is left out, or "default" is asked for. */
  default: boolean;
  /** Its plan limits; an empty list when it publishes none that a build can cross. */
  limits: readonly LimitRow[];
}

export const MiB = 2 ** 20;
export const MB = 1000 * 1000;
