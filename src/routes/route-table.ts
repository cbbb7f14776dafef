// src/routes/route-table.ts
// The canonical route table (dist/routes.json): its format, and the evaluator every runtime shares.
// Format, version 1 (see docs/route-table.md):
//   rules are tried in order and the first whose every predicate holds wins; parameters a rule does not name are
//   ignored; a parameter's value is the last one in the query (PHP's $_GET), form-decoded, compared case-sensitively
//   unless the predicate says ignoreCase. "Absent" and "any other value" are expressed only by rule order.

export const ROUTE_TABLE_VERSION = 1;
export const API_ENTRY = "/api.php";
/** Values that may appear in `in` sets and so in file names: letters, digits, '_', '-', '.', not starting with '.'. */
export const SAFE_VALUE_SOURCE = "^[A-Za-z0-9_-][A-Za-z0-9._-]*$";
export const SAFE_VALUE = new RegExp(SAFE_VALUE_SOURCE);

export type Predicate =
  /** The value equals the literal ("" matches an empty value, never an absent one). */
  | { eq: string; ignoreCase?: true }
  /** The value is one of the members (all safe values; lower case when ignoreCase). The member names the target. */
  | { in: string[]; ignoreCase?: true }
  /** The parameter is in the query, with any value (empty included). */
  | { present: true };

export type RouteStatus = 200 | 400 | 404;

export interface Rule {
  /** Stable, readable name: `<action>.<case>`. */
  id: string;
  match: Record<string, Predicate>;
  /** Site path of the body. `{param}` stands for the member of that parameter's `in` set that matched. */
  target: string;
  status: RouteStatus;
  /** Response headers besides those of the file itself (Content-Length, Last-Modified, ...). */
  headers: Record<string, string>;
}

export interface RouteTable {
  version: typeof ROUTE_TABLE_VERSION;
  entry: typeof API_ENTRY;
  duplicateKeys: "last";
  valueCharset: string;
  rules: Rule[];
}

/** The query as the reference service sees it: form-decoded, the last value of a repeated parameter wins. */
export function parseQuery(search: string): Map<string, string> {
  const query = new Map<string, string>();
  for (const [key, value] of new URLSearchParams(search)) query.set(key, value);
  return query;
}

interface CompiledPredicate {
  param: string;
  test(value: string | undefined): string | null; // the member (or literal) it matched, or null
}

export interface CompiledTable {
  table: RouteTable;
  rules: ReadonlyArray<{ rule: Rule; predicates: CompiledPredicate[] }>;
}

const lowerAscii = (s: string): string => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

function compilePredicate(param: string, p: Predicate): CompiledPredicate {
  if ("present" in p) return { param, test: (v) => (v === undefined ? null : v) };
  const fold = p.ignoreCase ? lowerAscii : (v: string) => v;
  if ("eq" in p) {
    const literal = fold(p.eq);
    return { param, test: (v) => (v !== undefined && fold(v) === literal ? p.eq : null) };
  }
  const members = new Set(p.in);
  return {
    param,
    test: (v) => {
      if (v === undefined) return null;
      const key = fold(v);
      return members.has(key) ? key : null;
    },
  };
}

export function compileTable(table: RouteTable): CompiledTable {
  if (table.version !== ROUTE_TABLE_VERSION)
    throw new Error(`Unsupported route table version ${String(table.version)}.`);
  return {
    table,
    rules: table.rules.map((rule) => ({
      rule,
      predicates: Object.entries(rule.match).map(([param, p]) => compilePredicate(param, p)),
    })),
  };
}

export interface RouteMatch {
  rule: Rule;
  /** The site path to serve, placeholders filled in. */
  target: string;
}

/** The first rule whose predicates all hold; the table's last rule matches everything, so there always is one. */
export function matchRoute(compiled: CompiledTable, query: ReadonlyMap<string, string>): RouteMatch {
  for (const { rule, predicates } of compiled.rules) {
    let target = rule.target;
    let matched = true;
    for (const predicate of predicates) {
      const member = predicate.test(query.get(predicate.param));
      if (member === null) {
        matched = false;
        break;
      }
      target = target.replace(`{${predicate.param}}`, member);
    }
    if (matched) return { rule, target };
  }
  throw new Error("The route table has no catch-all rule.");
}
