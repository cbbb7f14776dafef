// src/hosts/nginx/predicate-keys.ts
// A short key per distinct predicate of the table: what the fast path's value classes and decision trees compare.

import type { Predicate, RouteTable } from "../../routes/route-table.js";
import { predicates } from "../shared/checks.js";

/**
 * A short key per predicate of the table, the same for equal predicates (same kind, case rule and values): what the
 * classes and the decision tree compare (the tree's memo keys list the open predicates of its rules). Compared
 * member by member, not as JSON (a large set's JSON is long to print).
 */
export type PredicateKeys = ReadonlyMap<Predicate, string>;

export function predicateKeys(table: RouteTable): PredicateKeys {
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
