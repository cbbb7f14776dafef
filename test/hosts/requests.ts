// test/hosts/requests.ts
// Requests generated from the route table for the parity suite: every rule's own values, then the variants clients
// send (extra, reordered and repeated parameters, unknown, empty and bare values, case variants, encodings).

import type { Predicate, RouteTable } from "../../src/routes/route-table.js";

export const CATEGORIES = [
  "own",
  "extra",
  "reordered",
  "repeated",
  "unknown",
  "empty",
  "bare",
  "case",
  "mixed-case",
  "key-case",
  "encoded",
  /** A value as a browser's fetch sends it (WHATWG URL): reserved characters such as `;$/?=|^\[]{}` and the backtick raw. */
  "raw",
  /** Not generated: any request made from a rule the host's file had to leave out. */
  "left-out",
] as const;
export type Category = (typeof CATEGORIES)[number];

export interface HostRequest {
  /** Raw query string (without "?"). */
  query: string;
  category: Category;
  /** The rule the request was made from. */
  rule: string;
}

export interface RequestOptions {
  /** How many members of each `in` set become own requests (all when the set is smaller). */
  membersPerSet: number;
}

type Pair = [string, string];

const enc = (s: string): string => encodeURIComponent(s);
const serialize = (pairs: readonly Pair[]): string => pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join("&");
/**
 * A value as WHATWG's URL serializer leaves it in a query (what fetch and browsers send): only C0 controls, space,
 * `"#<>'` and non-ASCII are percent-encoded; `&`, `+` and `%` are too, so that the value still means itself.
 */
const browserEnc = (s: string): string =>
  [...s].map((c) => (/^[\x21-\x7e]$/.test(c) && !`"#<>'&+%`.includes(c) ? c : enc(c))).join("");
const upper = (s: string): string => s.replace(/[a-z]/g, (c) => c.toUpperCase());
const capitalized = (s: string): string => s.replace(/[a-z]/, (c) => c.toUpperCase());
const mixed = (s: string): string => [...s].map((c, i) => (i % 2 === 1 ? c.toUpperCase() : c.toLowerCase())).join("");
const percentAll = (s: string): string =>
  [...Buffer.from(s, "utf8")].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("");

/** Evenly spread, deterministic sample that always includes the first and last member. */
export function sample<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(items[Math.round((i * (items.length - 1)) / (n - 1))]!);
  return [...new Set(out)];
}

function values(p: Predicate, n: number): string[] {
  if ("present" in p) return ["zz-unknown"];
  if ("eq" in p) return [p.eq];
  return sample(p.in, n);
}

export function generateRequests(table: RouteTable, options: RequestOptions): HostRequest[] {
  const out: HostRequest[] = [];
  const seen = new Set<string>();
  const add = (rule: string, category: Category, query: string): void => {
    if (seen.has(query)) return;
    seen.add(query);
    out.push({ rule, category, query });
  };
  add("(none)", "own", "");
  add("(none)", "unknown", "action=zz-unknown");
  add("(none)", "case", "action=CONFIG");
  add("(none)", "empty", "action=");

  for (const rule of table.rules) {
    const entries = Object.entries(rule.match);
    // Own: the cartesian product would explode with sets, so one set is varied and the rest take their first value.
    const own: Pair[][] = [[]];
    for (const [param, p] of entries) {
      const vs = values(p, options.membersPerSet);
      const next: Pair[][] = [];
      for (const base of own) for (const v of next.length === 0 ? vs : vs.slice(0, 1)) next.push([...base, [param, v]]);
      own.splice(0, own.length, ...next);
    }
    for (const pairs of own) {
      add(rule.id, "own", serialize(pairs));
      const raw = pairs.map(([k, v]) => `${enc(k)}=${browserEnc(v)}`).join("&");
      if (raw !== serialize(pairs)) add(rule.id, "raw", raw);
    }

    const base = own[0]!;
    if (base.length === 0) continue;
    add(rule.id, "extra", `${serialize(base)}&_=1700000000&foo=bar`);
    add(rule.id, "extra", `foo=1&${serialize(base)}`);
    add(rule.id, "reordered", serialize([...base].reverse()));
    for (const [i, [param, v]] of base.entries()) {
      const others = base.filter((_, j) => j !== i);
      add(rule.id, "repeated", serialize([[param, "zz-first"], ...base])); // last value counts: v
      add(rule.id, "repeated", serialize([...base, [param, "zz-last"]])); // last value counts: zz-last
      add(rule.id, "bare", `${serialize(base)}&${enc(param)}`); // last is a bare key: ""
      add(rule.id, "unknown", serialize([...others, [param, "zz-unknown"]]));
      add(rule.id, "empty", serialize([...others, [param, ""]]));
      add(rule.id, "bare", [serialize(others), enc(param)].filter((s) => s !== "").join("&"));
      add(rule.id, "empty", serialize([...others, [param, "0"]]));
      for (const variant of [upper(v), capitalized(v)])
        if (variant !== v) add(rule.id, "case", serialize([...others, [param, variant]]));
      const m = mixed(v);
      if (m !== v && m !== upper(v) && m !== capitalized(v))
        add(rule.id, "mixed-case", serialize([...others, [param, m]]));
      if (param !== upper(param)) add(rule.id, "key-case", serialize([...others, [upper(param), v]]));
      if (v !== "")
        add(
          rule.id,
          "encoded",
          [serialize(others), `${enc(param)}=${percentAll(v)}`].filter((s) => s !== "").join("&"),
        );
    }
  }
  return out;
}
