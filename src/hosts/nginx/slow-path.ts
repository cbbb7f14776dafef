// src/hosts/nginx/slow-path.ts
// The slow path of nginx-http.conf: any query, by one regex per rule over the raw `$args` (map entries tried in the
// table's order), and the maps that lower-case an ignoreCase set's captured member.

import { compileTable, matchRoute, type Predicate, type RouteTable, type Rule } from "../../routes/route-table.js";
import { checkTarget, predicates } from "../shared/checks.js";
import { chunkMembers } from "../shared/members.js";
import { lastParamPattern, rawLiteralPattern, rawSetPattern } from "../shared/raw-query.js";
import { placeholders } from "../shared/targets.js";
import type { PredicateKeys } from "./predicate-keys.js";

const captureName = (param: string): string => `bis_${param}`;
const lowerName = (param: string): string => `bis_lc_${param}`;

/**
 * The ONLY place a value becomes nginx text: a map regex key in double quotes, built from src/hosts/shared/raw-query.ts
 * (no quote, whitespace, `;`, `{`, `}`, `$` except the final anchor, or backslash pair nginx would unescape).
 */
export function quotedRegex(pattern: string): string {
  if (/["\s;{}]|\\\\|\\["'nrt]|\$(?![)|]|$)/.test(pattern))
    throw new Error(`Internal: unsafe nginx pattern ${JSON.stringify(pattern)}.`);
  return `"~${pattern}"`;
}

/** nginx reads tokens of up to 4 KiB; long `in` sets are split over several map entries. */
const MAX_SET_CHARS = 2500;

function predicatePattern(param: string, p: Predicate, capture: boolean, members?: readonly string[]): string {
  let value: string;
  if ("present" in p) value = "[^&]*";
  else if ("eq" in p) value = rawLiteralPattern(p.eq, p.ignoreCase === true);
  else value = rawSetPattern(members ?? p.in, p.ignoreCase === true);
  if (capture) value = `(?<${captureName(param)}>${value})`;
  return `(?=(?:.*&)?${lastParamPattern(param, value).slice("(?:^|&)".length)})`;
}

/** Target as a map value: placeholders become the captured value (lower-cased through a map when ignoring case). */
function targetValue(rule: Rule): string {
  const target = checkTarget(rule.target).replace(/\{([^}]+)\}/g, (_, param: string) => {
    const p = rule.match[param];
    return `\${${p !== undefined && "in" in p && p.ignoreCase ? lowerName(param) : captureName(param)}}`;
  });
  return `"${rule.status}:${target}"`;
}

export function routeMap(table: RouteTable): string[] {
  const out = [
    "# Slow path (any query): the first rule whose lookaheads all hold (maps try regexes in order).",
    "map $args $bis_slow {",
  ];
  for (const rule of table.rules) {
    const used = new Set(placeholders(rule.target));
    const preds = predicates(rule);
    const sets = preds.filter(([, p]) => "in" in p);
    if (sets.length > 1) throw new Error(`Internal: rule ${rule.id} has more than one set; nginx rules take one.`);
    // One entry per chunk of the set's members (or one entry): only the set's lookahead differs between them.
    const lookahead = ([param, p]: [string, Predicate], members?: readonly string[]): string =>
      predicatePattern(param, p, used.has(param), members);
    const set = sets[0];
    const setAt = set === undefined ? preds.length : preds.indexOf(set);
    const before = preds
      .slice(0, setAt)
      .map((pred) => lookahead(pred))
      .join("");
    const after = preds
      .slice(setAt + 1)
      .map((pred) => lookahead(pred))
      .join("");
    const chunks =
      set !== undefined && "in" in set[1]
        ? chunkMembers(set[1].in, MAX_SET_CHARS).map((chunk) => lookahead(set, chunk))
        : [""];
    const target = targetValue(rule);
    out.push(`    # ${rule.id}`);
    for (const chunk of chunks) out.push(`    ${quotedRegex(`^${before}${chunk}${after}`)} ${target};`);
  }
  // nginx never tries regexes on an empty string: an empty query gets the default, the rule the table picks for it.
  // An `in` set never holds for an absent parameter, so the rules with one are left out of the table compiled for it
  // (compiling them would build a set of every member).
  const withoutSets = {
    ...table,
    rules: table.rules.filter((rule) => !Object.values(rule.match).some((p) => "in" in p)),
  };
  const empty = matchRoute(compileTable(withoutSets), new Map()).rule;
  out.push(`    # ${empty.id} (empty query)`, `    default ${targetValue(empty)};`, "}");
  return out;
}

/** Parameter → every member of the ignoreCase sets that name a target file with it: by parameter, members sorted. */
export type IgnoreCaseMembers = ReadonlyArray<readonly [string, readonly string[]]>;

export function ignoreCaseMembers(table: RouteTable, keys: PredicateKeys): IgnoreCaseMembers {
  const members = new Map<string, Set<string>>();
  const added = new Set<string>();
  for (const rule of table.rules) {
    for (const [param, p] of predicates(rule)) {
      // Several rules share a set (getExtensionSetting's five): its members are added once.
      if ("in" in p && p.ignoreCase && rule.target.includes(`{${param}}`) && !added.has(`${param} ${keys.get(p)!}`)) {
        added.add(`${param} ${keys.get(p)!}`);
        const set = members.get(param) ?? new Set<string>();
        for (const m of p.in) set.add(m);
        members.set(param, set);
      }
    }
  }
  return [...members].sort(([a], [b]) => (a < b ? -1 : 1)).map(([param, set]) => [param, [...set].sort()] as const);
}

/** For ignoreCase sets: map string keys compare ignoring ASCII case, so the value is the member's own spelling. */
export function lowerMaps(members: IgnoreCaseMembers): string[] {
  const out: string[] = [];
  for (const [param, sorted] of members) {
    // Keys carry a "=" prefix so that no member can read as a map keyword (default, include, hostnames, volatile).
    out.push(`map =$${captureName(param)} $${lowerName(param)} {`);
    for (const m of sorted) out.push(`    =${m} ${m};`);
    out.push("}");
  }
  return out;
}
