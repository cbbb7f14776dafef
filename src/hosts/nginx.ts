// src/hosts/nginx.ts
// Route table → two nginx snippets: `nginx-http.conf` (maps, included in `http {}`) picks the rule from the raw
// `$args` exactly as the table does (exact names, last value wins): simple queries by hash lookups on `$arg_*`
// (the fast path, below), any other by one regex per rule (the slow path); `nginx.conf` (included in the site's
// `server {}`) serves the target with its status and the API's headers by path.

import { HEADER_GROUPS, pathHeaders } from "../php/header-groups.js";
import { compileTable, matchRoute, type Predicate, type RouteTable, type Rule } from "../routes/route-table.js";
import {
  checkHeader,
  checkTarget,
  chunkMembers,
  lastParamPattern,
  placeholders,
  predicates,
  rawLiteralPattern,
  rawSetPattern,
  PAGE_CSP,
  SVG_CSP,
} from "./common.js";
import { INTERNAL_FILES } from "../routes/internal-files.js";
import type { HostAdapter } from "./types.js";

export const NGINX_HTTP_FILE = "nginx-http.conf";
export const NGINX_SERVER_FILE = "nginx.conf";

/** The CORS headers of an OPTIONS answer (reference-behaviour.md §1 and §9); its Content-Type is the location's. */
const OPTIONS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type, Authorization",
};

const captureName = (param: string): string => `bis_${param}`;
const lowerName = (param: string): string => `bis_lc_${param}`;

/**
 * The ONLY place a value becomes nginx text: a map regex key in double quotes, built from common.ts's raw patterns
 * (no quote, whitespace, `;`, `{`, `}`, `$` except the final anchor, or backslash pair nginx would unescape).
 */
function quotedRegex(pattern: string): string {
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

function routeMap(table: RouteTable): string[] {
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
  // (compiling them builds a set of every member: a quarter of a second at ×100).
  const withoutSets = {
    ...table,
    rules: table.rules.filter((rule) => !Object.values(rule.match).some((p) => "in" in p)),
  };
  const empty = matchRoute(compileTable(withoutSets), new Map()).rule;
  out.push(`    # ${empty.id} (empty query)`, `    default ${targetValue(empty)};`, "}");
  return out;
}

/** Parameter → every member of the ignoreCase sets that name a target file with it: by parameter, members sorted. */
type IgnoreCaseMembers = ReadonlyArray<readonly [string, readonly string[]]>;

function ignoreCaseMembers(table: RouteTable, keys: PredicateKeys): IgnoreCaseMembers {
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
function lowerMaps(members: IgnoreCaseMembers): string[] {
  const out: string[] = [];
  for (const [param, sorted] of members) {
    // Keys carry a "=" prefix so that no member can read as a map keyword (default, include, hostnames, volatile).
    out.push(`map =$${captureName(param)} $${lowerName(param)} {`);
    for (const m of sorted) out.push(`    =${m} ${m};`);
    out.push("}");
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Fast path. The slow path runs up to one long regex per rule over $args, without PCRE JIT (nginx's default):
// most of the time nginx spends on a request. Most queries are "simple", and for those nginx's own `$arg_<name>`
// gives the table's value exactly, so hash lookups decide:
//   - `$arg_x` is the FIRST `x=` parameter, its name compared ignoring case, its value raw (not decoded), and
//     empty both for an absent `x` and for `x=` / a bare `x`.
//   - A query is simple when it holds only [A-Za-z0-9._-], "=" and "&" (so raw == form-decoded: no "%" or "+"),
//     and every parameter name the table uses appears at most once, spelled exactly, with a non-empty value.
//     Then `$arg_x` is the table's (last, decoded, exact-name) value, and empty means absent.
// Every other query takes the slow path, so the fast path only has to agree with it on simple queries.
//
// Values are classified per parameter: two values share a class when every predicate on that parameter in the
// table says the same of both. `map` string keys compare ignoring case, so a hash map finds the value's case-fold
// group; when the table's exact (case-sensitive) predicates tell spellings of the group apart, the map's value
// lists them ("other/php:c3/PHP:c4") and one short regex with a backreference picks the entry spelled exactly like
// the value (a backreference compares case-sensitively). The rule is then found by a decision tree of maps over
// those classes, built from the table's order: each node tests the next parameter the first remaining rule needs.
// Map values that name a variable are evaluated only when chosen, so a request computes only the classes on its
// path through the tree (`action=config` reads `$arg_action` once).

/** Raw characters a simple query may hold besides "=" and "&": they mean themselves both raw and form-decoded. */
const FAST_CHARS = "A-Za-z0-9._-";
/** Literals the fast path can meet as a raw value (others never equal a simple query's value: see fastClasses). */
const FAST_LITERAL = new RegExp(`^[${FAST_CHARS}]+$`);

/** The ONLY place a table value becomes fast-path text (map keys and map values): FAST_LITERAL only. */
function fastLiteral(value: string): string {
  if (!FAST_LITERAL.test(value)) throw new Error(`Internal: ${JSON.stringify(value)} is not a fast-path literal.`);
  return value;
}

const fold = (s: string): string => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

interface ParamClasses {
  param: string;
  /** Class id → for each distinct predicate (by its PredicateKeys key), whether values of the class satisfy it. */
  accepts: Map<string, Map<string, boolean>>;
  absent: string;
  unknown: string;
  /** Case-fold group → the class of spellings not listed, and the listed spellings with their own class. */
  groups: Map<string, { other: string; exact: Array<[string, string]> }>;
  /**
   * When every group lists at most one spelling and they are few: those spellings. The simple-query check then
   * also requires the value to be one of them exactly or no case variant of any, and a hash lookup is exact.
   */
  guarded: string[] | null;
}

/** Most characters of listed spellings the simple-query check takes over for one parameter (it runs on every query). */
const MAX_GUARDED_CHARS = 400;

/**
 * The classes of one parameter's values on the fast path, i.e. for a raw value made of FAST_CHARS and "=" (or
 * absent). Such a value equals an `eq` literal only when the literal is a FAST_LITERAL: the slow path matches "=" and
 * every other character outside FAST_CHARS only percent-encoded, and a simple query holds none of them raw.
 */
function fastClasses(param: string, preds: readonly Predicate[], keys: PredicateKeys): ParamClasses {
  const distinct = new Map<string, Predicate>();
  for (const p of preds) if (!distinct.has(keys.get(p)!)) distinct.set(keys.get(p)!, p);
  const ids = new Map<string, string>();
  const accepts = new Map<string, Map<string, boolean>>();
  /** The class of a signature: for each distinct predicate, "1" when the values hold it, else "0". */
  const classOf = (sig: string): string => {
    let id = ids.get(sig);
    if (id === undefined) {
      id = `c${ids.size}`;
      ids.set(sig, id);
      accepts.set(id, new Map([...distinct.keys()].map((k, i) => [k, sig[i] === "1"])));
    }
    return id;
  };
  const absent = classOf([...distinct.values()].map(() => "0").join(""));
  const present = [...distinct.values()].map((p) => ("present" in p ? "1" : "0"));
  const unknown = classOf(present.join(""));
  // Each literal and member of the predicates once (a "row"), with the predicates it is in: one pass over them, one
  // lookup each. Then each case-fold group: the ignoreCase predicates its values hold are those its own string is in
  // (when it is a row), and its spellings are the rows that fold to it and that an exact predicate names. At ×100
  // that is 270,000 lookups for 160,000 rows; a Set per predicate took a lookup per predicate per spelling (2 million,
  // in sets too large for the CPU's caches). Numbers in flat arrays: no object per row.
  const list = [...distinct.values()];
  const n = list.length;
  const caseless = list.map((p) => !("present" in p) && p.ignoreCase === true);
  const rowOf = new Map<string, number>();
  const rows: string[] = [];
  /** rows × predicates: 1 when the row's string is in the predicate (a member, or its literal: folded for ignoreCase). */
  const isIn: number[] = [];
  list.forEach((p, i) => {
    if ("present" in p) return;
    const values = "eq" in p ? (FAST_LITERAL.test(p.eq) ? [p.ignoreCase ? fold(p.eq) : p.eq] : []) : p.in;
    for (const v of values) {
      let row = rowOf.get(v);
      if (row === undefined) {
        row = rows.length;
        rowOf.set(v, row);
        rows.push(v);
        for (let k = 0; k < n; k++) isIn.push(0);
      }
      isIn[row * n + i] = 1;
    }
  });
  /** Group → its name, and the rows that fold to it (a chain: first row, then each row's next; -1 ends it). */
  const groupOf = new Map<string, number>();
  const names: string[] = [];
  const firstRow: number[] = [];
  const nextRow: number[] = [];
  rows.forEach((v, row) => {
    const g = fold(v);
    let group = groupOf.get(g);
    if (group === undefined) {
      group = names.length;
      groupOf.set(g, group);
      names.push(g);
      firstRow.push(-1);
    }
    nextRow.push(firstRow[group]!);
    firstRow[group] = row;
  });
  const named = (row: number): boolean => list.some((_, i) => !caseless[i] && isIn[row * n + i] === 1);
  /** The signature of a value of the group whose own row is `own`, spelled like `spelling` (undefined: like no row). */
  const signature = (own: number | undefined, spelling: number | undefined): string => {
    let sig = "";
    for (let i = 0; i < n; i++) {
      const row = caseless[i] ? own : spelling;
      sig += present[i] === "1" || (row !== undefined && isIn[row * n + i] === 1) ? "1" : "0";
    }
    return sig;
  };
  const groups = new Map<string, { other: string; exact: Array<[string, string]> }>();
  for (const group of [...names.keys()].sort((a, b) => (names[a]! < names[b]! ? -1 : 1))) {
    const g = names[group]!;
    const own = rowOf.get(g);
    const spellings: number[] = [];
    for (let row = firstRow[group]!; row !== -1; row = nextRow[row]!) if (named(row)) spellings.push(row);
    const other = classOf(signature(own, undefined));
    const exact: Array<[string, string]> = [];
    for (const row of spellings.sort((a, b) => (rows[a]! < rows[b]! ? -1 : 1))) {
      const c = classOf(signature(own, row));
      if (c !== other) exact.push([rows[row]!, c]);
    }
    groups.set(g, { other, exact });
  }
  const listed = [...groups.values()].flatMap((g) => g.exact.map(([spelling]) => spelling));
  const guarded =
    [...groups.values()].every((g) => g.exact.length <= 1) && listed.join("|").length <= MAX_GUARDED_CHARS
      ? listed
      : null;
  return { param, accepts, absent, unknown, groups, guarded };
}

/**
 * A short key per predicate of the table, the same for equal predicates (same kind, case rule and values): what the
 * classes and the decision tree compare (the tree's memo keys list the open predicates of its rules). Compared
 * member by member, not as JSON: a set's JSON is half a megabyte at ×100.
 */
type PredicateKeys = ReadonlyMap<Predicate, string>;

function predicateKeys(table: RouteTable): PredicateKeys {
  const distinct: Predicate[] = [];
  const keys = new Map<Predicate, string>();
  for (const rule of table.rules) {
    for (const [, p] of predicates(rule)) {
      if (keys.has(p)) continue;
      let at = distinct.findIndex((q) => samePredicate(p, q));
      if (at === -1) at = distinct.push(p) - 1;
      keys.set(p, `p${at}`);
    }
  }
  return keys;
}

function samePredicate(a: Predicate, b: Predicate): boolean {
  if ("present" in a || "present" in b) return "present" in a && "present" in b;
  if (a.ignoreCase !== b.ignoreCase) return false;
  if ("eq" in a || "eq" in b) return "eq" in a && "eq" in b && a.eq === b.eq;
  return a.in.length === b.in.length && a.in.every((m, i) => m === b.in[i]);
}

const classVar = (param: string): string => `bis_c_${param}`;
const foldedVar = (param: string): string => `bis_f_${param}`;

/** `$bis_c_<param>`: the class of `$arg_<param>` (a hash map, plus one regex when spellings must be told apart). */
function classMaps(c: ParamClasses): string[] {
  const verify = c.guarded === null;
  const hashVar = verify ? `bis_h_${c.param}` : classVar(c.param);
  const out = [`map =$arg_${c.param} $${hashVar} {`, `    default ${c.unknown};`, `    = ${c.absent};`];
  for (const [g, { other, exact }] of c.groups) {
    // Guarded: the value is the listed spelling (or the group lists none), so the group's one class is exact.
    const value = verify
      ? [other, ...exact.map(([sp, id]) => `${fastLiteral(sp)}:${id}`)].join("/")
      : (exact[0]?.[1] ?? other);
    out.push(`    =${fastLiteral(g)} ${value};`);
  }
  out.push("}");
  if (verify) {
    // "value&other/Spelling:class/…": the class listed after the spelling equal to the value, else the first.
    out.push(
      `map "$arg_${c.param}&$${hashVar}" $${classVar(c.param)} {`,
      `    "~^([^&]*)&[^/]*/(?:[^/]*/)*?\\1:(?<bis_x_${c.param}>[^/]*)" $bis_x_${c.param};`,
      `    "~&(?<bis_d_${c.param}>[^/]*)" $bis_d_${c.param};`,
      "}",
    );
  }
  return out;
}

interface PendingRule {
  rule: Rule;
  /** Predicates not decided yet, in the table's order: param → key of the predicate (PredicateKeys). */
  open: Array<[string, string]>;
}

/**
 * A rule tree: one map per node, over the class of the parameter the first remaining rule needs next; a node whose
 * branches all give the same value is left out. `leaf` prints a rule's value; `prefix` names the tree's maps.
 */
function decisionTree(
  table: RouteTable,
  classes: Map<string, ParamClasses>,
  keys: PredicateKeys,
  prefix: string,
  leaf: (rule: Rule) => string,
): { root: string; maps: string[] } {
  const maps: string[] = [];
  const memo = new Map<string, string>();
  /** Map bodies already printed (the status tree has many alike): same body, same map. */
  const bodies = new Map<string, string>();
  const node = (rules: PendingRule[]): string => {
    const first = rules[0]!;
    if (first.open.length === 0) return leaf(first.rule);
    const key = JSON.stringify(rules.map((r) => [r.rule.id, r.open]));
    const known = memo.get(key);
    if (known !== undefined) return known;
    const [param] = first.open[0]!;
    const c = classes.get(param)!;
    const children = [...c.accepts].map(([id, accepts]) => {
      const remaining = rules
        .filter((r) => r.open.every(([q, k]) => q !== param || accepts.get(k)!))
        .map((r) => ({ rule: r.rule, open: r.open.filter(([q]) => q !== param) }));
      return [id, node(remaining)] as const;
    });
    let value = children[0]![1];
    if (children.some(([, v]) => v !== value)) {
      const body = [
        `    default ${children.find(([id]) => id === c.unknown)![1]};`,
        ...children.filter(([id]) => id !== c.unknown).map(([id, v]) => `    ${id} ${v};`),
      ];
      const same = `${classVar(param)}\n${body.join("\n")}`;
      let name = bodies.get(same);
      if (name === undefined) {
        name = `${prefix}${bodies.size}`;
        bodies.set(same, name);
        maps.push(
          `# ${rules
            .slice(0, 3)
            .map((r) => r.rule.id)
            .join(", ")}${rules.length > 3 ? ", …" : ""}: by ${param}`,
        );
        maps.push(`map $${classVar(param)} $${name} {`, ...body, "}");
      }
      value = `$${name}`;
    }
    memo.set(key, value);
    return value;
  };
  const pending = table.rules.map((rule) => ({
    rule,
    open: predicates(rule).map(([param, p]) => [param, keys.get(p)!] as [string, string]),
  }));
  return { root: node(pending), maps };
}

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

function fastPath(table: RouteTable, keys: PredicateKeys, ignoreCase: IgnoreCaseMembers): string[] {
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
  const value = `[=${FAST_CHARS}]`;
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
      : `^(?:&(?:${[...classes.values()].map(tableParam).join("|")}|(?!(?i:${names})(?:[=&]|$))${value}*+))*+$`;
  return [
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

/** nginx's defaults: map_hash_bucket_size is the CPU's cache line (64 bytes on most), map_hash_max_size 2048. */
const DEFAULT_BUCKET = 64;
const DEFAULT_MAX_SIZE = 2048;

/**
 * The map hash sizing the printed maps need, as http-level directives (none when nginx's defaults do). nginx refuses
 * the whole config ("could not build map_hash, you should increase map_hash_bucket_size") when one key does not fit a
 * bucket: an entry takes a pointer plus its key and 2 bytes rounded up to a pointer (ngx_hash.c, NGX_HASH_ELT_SIZE),
 * and a bucket also ends with a pointer. Too small a max_size only costs a warning, but we size it too.
 */
export function mapHashSizing(mapLines: readonly string[]): string[] {
  let longest = 0;
  let most = 0;
  let inMap = false;
  let count = 0;
  for (const line of mapLines) {
    if (line.startsWith("map ") && /^map .*\{$/.test(line)) {
      inMap = true;
      count = 0;
      continue;
    }
    if (!inMap || line.startsWith('    "~')) continue; // a regex entry (the slow path's run to 2,500 characters): no hash key
    if (line === "}") {
      inMap = false;
      most = Math.max(most, count);
      continue;
    }
    // A hash key: any entry but comments, regexes (quoted "~…" or ~…) and the default.
    const key = /^\s+(\S*?)\s/.exec(line)?.[1];
    if (key === undefined || key.startsWith("#") || key.startsWith("~") || key.startsWith('"~') || key === "default")
      continue;
    longest = Math.max(longest, Buffer.byteLength(key));
    count += 1;
  }
  const pointer = 8;
  const entry = pointer + Math.ceil((longest + 2) / pointer) * pointer;
  const align = (n: number): number => Math.ceil(n / DEFAULT_BUCKET) * DEFAULT_BUCKET;
  // nginx's defaults do when one longest entry fits a bucket and the maps are small; otherwise buckets get room for a
  // few of the longest entries, so that a hash table not much larger than the key count fits.
  if (align(entry + pointer) <= DEFAULT_BUCKET && 4 * most <= DEFAULT_MAX_SIZE) return [];
  const out = [
    `map_hash_bucket_size ${Math.max(DEFAULT_BUCKET, align(4 * entry + pointer))};`,
    `map_hash_max_size ${2 ** Math.ceil(Math.log2(Math.max(DEFAULT_MAX_SIZE, 4 * most)))};`,
  ];
  return [
    "# Map hash sizing these maps need (longest key, most keys): nginx refuses the config with smaller buckets.",
    "# If your http { } sets these too, keep the larger value of each and remove the other line.",
    ...out,
  ];
}

export function printNginxHttp(table: RouteTable): string {
  const keys = predicateKeys(table);
  const ignoreCase = ignoreCaseMembers(table, keys);
  const maps = [
    ...routeMap(table),
    ...lowerMaps(ignoreCase),
    ...fastPath(table, keys, ignoreCase),
    'map $bis_slow $bis_slow_status { "~^(?<bis_s>[0-9]+):" $bis_s; }',
    'map $bis_slow $bis_slow_target { "~^[0-9]+:(?<bis_t>.*)$" $bis_t; }',
    "# The SVG policy (nginx.conf sends it; an empty value sends no header).",
    `map $sent_http_content_type $bis_svg_csp { default ""; "~*^image/svg\\+xml" "${SVG_CSP}"; "~*^text/html" "${PAGE_CSP}"; }`,
  ];
  return `${[
    "# nginx-http.conf: generated by build-index-site from routes.json; do not edit.",
    "# Include inside http { } (maps must live there); nginx.conf goes inside the site's server { }.",
    ...mapHashSizing(maps),
    ...maps,
  ].join("\n")}\n`;
}

function locationBody(sitePath: string): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(pathHeaders(sitePath))) {
    const [n, v] = checkHeader(name, value);
    if (n.toLowerCase() === "content-type") out.push("types { }", `default_type ${v};`);
    else out.push(`add_header ${n} "${v}" always;`);
  }
  return out;
}

export function printNginxServer(table: RouteTable): string {
  const statuses = [...new Set(table.rules.filter((r) => r.status !== 200).map((r) => r.status))].sort();
  const out = [
    "# nginx.conf: generated by build-index-site from routes.json; do not edit.",
    "# Include inside the site's server { } (root = the output folder, dist/); nginx-http.conf must be included in http { }.",
    "# RFC 9110's If-Modified-Since (not modified since the date), not nginx's default exact-date match.",
    "if_modified_since before;",
    "# SVG files run no script from this origin; the site's pages (text/html: the catalogue) load only the site's own files",
    "# (a location of yours with add_header of its own must repeat this).",
    "add_header Content-Security-Policy $bis_svg_csp always;",
    "# /api.php/… is PHP's PATH_INFO: the same answer as /api.php.",
    `location ^~ ${table.entry}/ {`,
    `    rewrite ^ ${table.entry} last;`,
    "}",
    `location = ${table.entry} {`,
    "    # OPTIONS gets 200, an empty body and the CORS headers, as from the reference.",
    "    types { }",
    "    default_type application/json;",
    "    if ($request_method = OPTIONS) {",
    ...Object.entries(OPTIONS_HEADERS).map(([name, value]) => `        add_header ${name} "${value}" always;`),
    "        return 200;",
    "    }",
    ...(statuses.length > 0 ? [`    error_page ${statuses.join(" ")} $bis_target;`] : []),
    ...statuses.map((s) => `    if ($bis_status = ${s}) { return ${s}; }`),
    "    rewrite ^ $bis_target? last;",
    "}",
  ];
  // The build's internal files are no part of the API (src/routes/internal-files.ts).
  out.push("# The build's own files (route table, host configs, build records) are not served.");
  for (const file of INTERNAL_FILES) out.push(`location = /${file} { return 404; }`);
  const paths = [...new Set(HEADER_GROUPS.flatMap((g) => g.paths))].sort();
  for (const p of paths) {
    out.push(`location ${p.endsWith("/") ? "^~" : "="} ${p} {`, ...locationBody(p).map((l) => `    ${l}`), "}");
  }
  return `${out.join("\n")}\n`;
}

export const nginx: HostAdapter = {
  name: "nginx",
  render({ table }) {
    return {
      files: [
        { path: NGINX_HTTP_FILE, data: printNginxHttp(table) },
        { path: NGINX_SERVER_FILE, data: printNginxServer(table) },
      ],
    };
  },
};
