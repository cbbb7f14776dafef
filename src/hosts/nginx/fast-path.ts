// src/hosts/nginx/fast-path.ts
// The fast path of nginx-http.conf. The slow path runs up to one long regex per rule over $args, without PCRE JIT
// (nginx's default): most of the time nginx spends on a request. Most queries are "simple", and for those nginx's own
// `$arg_<name>` gives the table's value exactly, so hash lookups decide:
//   - `$arg_x` is the FIRST `x=` parameter, its name compared ignoring case, its value raw (not decoded), and
//     empty both for an absent `x` and for `x=` / a bare `x`.
//   - A query is simple when it holds only [A-Za-z0-9._-], "=" and "&" (so raw == form-decoded: no "%" or "+"),
//     and every parameter name the table uses appears at most once, spelled exactly, with a non-empty value.
//     Then `$arg_x` is the table's (last, decoded, exact-name) value, and empty means absent.
// Every other query takes the slow path, so the fast path only has to agree with it on simple queries. The values'
// classes are value-classes.ts's, the trees over them decision-tree.ts's.

import type { Predicate, RouteTable, Rule } from "../../routes/route-table.js";
import { checkTarget, predicates } from "../shared/checks.js";
import { decisionTree } from "./decision-tree.js";
import type { PredicateKeys } from "./predicate-keys.js";
import { quotedRegex, type IgnoreCaseMembers } from "./slow-path.js";
import { classMaps, FAST_CHARS, fastClasses, fastLiteral, type ParamClasses } from "./value-classes.js";

const foldedVar = (param: string): string => `bis_f_${param}`;

/** For ignoreCase sets: the member named by a value of any case (map string keys compare ignoring case). */
function foldedMaps(members: IgnoreCaseMembers): string[] {
  const out: string[] = [];
  for (const [param, sorted] of members) {
    out.push(`map =$arg_${param} $${foldedVar(param)} {`);
    for (const m of sorted) out.push(`    =${fastLiteral(m)} ${fastLiteral(m)};`);
    out.push("}");
  }
  return out;
}

/**
 * A rule's target on the fast path. A placeholder names an `in` set: for an exact set the member is the value itself
 * (its class says it is spelled exactly like a member, all FAST_LITERALs), for an ignoreCase set the member is found
 * by the folded map.
 */
function fastTarget(rule: Rule): string {
  const target = checkTarget(rule.target).replace(/\{([^}]+)\}/g, (_, param: string) => {
    const p = rule.match[param];
    if (p === undefined || !("in" in p)) throw new Error(`Internal: {${param}} in ${rule.target} does not name a set.`);
    return `\${${p.ignoreCase === true ? foldedVar(param) : `arg_${param}`}}`;
  });
  return `"${target}"`;
}

export function fastPath(table: RouteTable, keys: PredicateKeys, ignoreCase: IgnoreCaseMembers): string[] {
  const byParam = new Map<string, Predicate[]>();
  for (const rule of table.rules)
    for (const [param, p] of predicates(rule)) byParam.set(param, [...(byParam.get(param) ?? []), p]);
  const params = [...byParam.keys()].sort();
  const classes = new Map(params.map((param) => [param, fastClasses(param, byParam.get(param)!, keys)]));
  // Two trees over the same (cached) classes: the target and the status. The status tree is small (most branches
  // answer 200), and two hash lookups cost less than splitting one "status:target" value with regexes.
  const targets = decisionTree(table, classes, keys, "bis_t", fastTarget);
  const statuses = decisionTree(table, classes, keys, "bis_s", (rule) => String(rule.status));
  // The query is simple when "&" + $args is a run of "&" + parameter, all in FAST_CHARS, "=" and "&", each parameter
  // either a table name spelled exactly with a non-empty value and no later "&" + the same name + "=" (for a guarded
  // name, a value that is a listed spelling or no case variant of one), or a name that is no table name in any case.
  // Possessive quantifiers and "&"-delimited steps: one pass without backtracking.
  // A table parameter's value holds no "=": `$arg_x` would be all of "k=v", which no FAST_LITERAL spells, so such a
  // query takes the slow path (its raw-query patterns match it). Other parameters are "name=value" runs.
  const value = `[${FAST_CHARS}]`;
  const other = `[=${FAST_CHARS}]`;
  const tableParam = (c: ParamClasses): string => {
    const later = `(?!(?:&[^&]*+)*?&${c.param}=)`;
    // A spelling without letters has no case variants: the hash lookup is exact for it anyway.
    const cased = c.guarded?.filter((sp) => /[A-Za-z]/.test(sp)) ?? [];
    if (cased.length === 0) return `${c.param}=${value}++${later}`;
    const listed = cased.map((sp) => fastLiteral(sp).replace(/\./g, "\\.")).join("|");
    return `${c.param}=(?:(?=(?:${listed})(?:&|$))|(?!(?i:${listed})(?:&|$)))${value}++${later}`;
  };
  const names = params.join("|");
  const simple =
    params.length === 0
      ? `^[=&${FAST_CHARS}]*$`
      : `^(?:&(?:${[...classes.values()].map(tableParam).join("|")}|(?!(?i:${names})(?:[=&]|$))${other}*+))*+$`;
  return [
    // The path printed is this code's earlier file: kept, so that the config printed stays the same.
    "# Fast path for simple queries (the comments in src/hosts/nginx.ts say why it is exact): 1 = simple.",
    `map "&$args" $bis_simple { ${quotedRegex(simple)} 1; default 0; }`,
    ...[...classes.values()].flatMap(classMaps),
    ...foldedMaps(ignoreCase),
    ...targets.maps,
    ...statuses.maps,
    `map $bis_simple $bis_target { 1 ${targets.root}; default $bis_slow_target; }`,
    `map $bis_simple $bis_status { 1 ${statuses.root}; default $bis_slow_status; }`,
  ];
}
