// src/hosts/nginx/value-classes.ts
// The fast path's value classes: per parameter, two values share a class when every predicate on that parameter in
// the table says the same of both. `map` string keys compare ignoring case, so a hash map finds the value's case-fold
// group; when the table's exact (case-sensitive) predicates tell spellings of the group apart, the map's value lists
// them ("other/php:c3/PHP:c4") and one short regex with a backreference picks the entry spelled exactly like the value
// (a backreference compares case-sensitively).

import type { Predicate } from "../../routes/route-table.js";
import type { PredicateKeys } from "./predicate-keys.js";

/** Raw characters a simple query may hold besides "=" and "&": they mean themselves both raw and form-decoded. */
export const FAST_CHARS = "A-Za-z0-9._-";
/** Literals the fast path can meet as a raw value (others never equal a simple query's value: see fastClasses). */
const FAST_LITERAL = new RegExp(`^[${FAST_CHARS}]+$`);

/** The ONLY place a table value becomes fast-path text (map keys and map values): FAST_LITERAL only. */
export function fastLiteral(value: string): string {
  if (!FAST_LITERAL.test(value)) throw new Error(`Internal: ${JSON.stringify(value)} is not a fast-path literal.`);
  return value;
}

const fold = (s: string): string => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

export interface ParamClasses {
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

/** Each literal and member of the predicates once (a "row"), with the predicates it is in. */
interface PredicateRows {
  rows: string[];
  rowOf: Map<string, number>;
  /** rows × predicates: 1 when the row's string is in the predicate (a member, or its literal: folded for ignoreCase). */
  isIn: number[];
}

/**
 * The rows of these predicates: one pass over them, one lookup each (a Set per predicate would take a lookup per
 * predicate per spelling). Numbers in flat arrays: no object per row.
 */
function predicateRows(list: readonly Predicate[]): PredicateRows {
  const n = list.length;
  const rowOf = new Map<string, number>();
  const rows: string[] = [];
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
  return { rows, rowOf, isIn };
}

/** Case-fold groups of the rows: each group's name, and the rows that fold to it (a chain: first row, then each row's
 * next; -1 ends it). */
function foldGroups(rows: readonly string[]): { names: string[]; firstRow: number[]; nextRow: number[] } {
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
  return { names, firstRow, nextRow };
}

/**
 * The classes of one parameter's values on the fast path, i.e. for a raw value made of FAST_CHARS and "=" (or
 * absent). Such a value equals an `eq` literal only when the literal is a FAST_LITERAL: the slow path matches "=" and
 * every other character outside FAST_CHARS only percent-encoded, and a simple query holds none of them raw.
 */
export function fastClasses(param: string, preds: readonly Predicate[], keys: PredicateKeys): ParamClasses {
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
  // Then each case-fold group: the ignoreCase predicates its values hold are those its own string is in (when it is a
  // row), and its spellings are the rows that fold to it and that an exact predicate names.
  const list = [...distinct.values()];
  const n = list.length;
  const caseless = list.map((p) => !("present" in p) && p.ignoreCase === true);
  const { rows, rowOf, isIn } = predicateRows(list);
  const { names, firstRow, nextRow } = foldGroups(rows);
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

export const classVar = (param: string): string => `bis_c_${param}`;

/** `$bis_c_<param>`: the class of `$arg_<param>` (a hash map, plus one regex when spellings must be told apart). */
export function classMaps(c: ParamClasses): string[] {
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
