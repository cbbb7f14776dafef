// src/verify/fallbacks.ts
// The documented static fallbacks: where a static host (answering from the route table) may differ from the exact
// answer (the reference service, the edge handler) outside the precomputed domain. One data table: `verify`
// classifies every beyond-domain difference by it, and docs/verify.md renders it (renderFallbackTable).

/** What a beyond-domain request probes. */
export type Probe =
  | "unknown-value" // an extension, icon or type the build does not know
  | "version" // a version older or newer than every manifest version, or between two
  | "case" // a case variant of a known value or action
  | "repeated" // a parameter given twice (the last counts)
  | "php-name" // a parameter name PHP rewrites: `a.b` → `a_b`, `a[]` → an array
  | "encoded" // percent escapes and `+` in values
  | "method"; // HEAD and OPTIONS

export interface StaticFallback {
  id: string;
  /** The probes it may explain. */
  probes: readonly Probe[];
  /**
   * How the static host answers: `table` = the route table's answer for the query as PHP decodes it; `raw-query` =
   * the table's answer for the query as sent, percent escapes not decoded (nginx and Apache match the raw query).
   */
  answeredBy: "table" | "raw-query";
  /** The rules whose answer it may be (`*` matches any run of characters). */
  rules: readonly string[];
  /** The hosts it concerns, as docs/verify.md says it. */
  hosts: string;
  why: string;
}

export const STATIC_FALLBACKS: readonly StaticFallback[] = [
  {
    id: "unknown-value",
    probes: ["unknown-value", "case", "version", "encoded", "php-name"],
    answeredBy: "table",
    rules: ["*.unknown", "*.other", "*.other-type"],
    hosts: "every static host",
    why:
      "A value the build does not know (an extension, icon, type or version) gets its rule's one precomputed " +
      'fallback: the value is echoed as "", ' +
      'every unknown version is answered "update available" (PHP compares it with version_compare), and an icon ' +
      "name not in icons/ is answered 404 (PHP answers 400 for a name without an image extension, and takes a " +
      "path's last part: `../php.png` is php.png).",
  },
  {
    id: "case-folded",
    probes: ["case"],
    answeredBy: "table",
    rules: ["*.any-case"],
    hosts: "every static host",
    why:
      "Other spellings of a known extension (`pHp`) get the lower-case answer, its echo lower-cased, where PHP " +
      "echoes the spelling sent (findIcon's UPPER and Capitalized spellings are precomputed and exact).",
  },
  {
    id: "php-names",
    probes: ["php-name"],
    answeredBy: "table",
    rules: ["*"],
    hosts: "every static host",
    why:
      "PHP turns `.` and spaces in a parameter name into `_`, and `a[]=…` into an array; a static host reads " +
      "the name as sent, so the parameter counts as absent.",
  },
  {
    id: "raw-query",
    probes: ["encoded"],
    answeredBy: "raw-query",
    rules: ["*"],
    hosts: "nginx, apache",
    why:
      "The raw query is matched, not decoded: a value sent with percent-encoded letters or digits (`%70hp`) " +
      "counts as an unknown value. Clients send these characters unencoded.",
  },
];

const globRegExp = (glob: string): RegExp =>
  new RegExp(
    `^${glob
      .split("*")
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*")}$`,
  );

/** Whether `fallback` may explain an answer of `rule` to a request probing `probe`. */
export function fallbackCovers(fallback: StaticFallback, probe: Probe, rule: string): boolean {
  return fallback.probes.includes(probe) && fallback.rules.some((g) => globRegExp(g).test(rule));
}

/** The table as Markdown (docs/verify.md holds this text). */
export function renderFallbackTable(): string {
  const lines = ["| fallback | probes | hosts | why |", "|---|---|---|---|"];
  for (const f of STATIC_FALLBACKS) lines.push(`| \`${f.id}\` | ${f.probes.join(", ")} | ${f.hosts} | ${f.why} |`);
  return lines.join("\n");
}

/**
 * Fields the build sends by design that the PHP service does not (docs/behaviour.md): against the PHP service, their
 * absence is no difference. Top-level fields of an action's answers.
 */
export const REFERENCE_OMITS: ReadonlyArray<{ action: string; fields: readonly string[]; why: string }> = [
  {
    action: "extensionMappings",
    fields: ["indexing_count", "viewing_count"],
    why: "type=indexing (viewing) also sends indexing_count (viewing_count), the name the spec gives, beside the reference's count.",
  },
];
