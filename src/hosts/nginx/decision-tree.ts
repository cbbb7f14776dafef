// src/hosts/nginx/decision-tree.ts
// The fast path's rule trees: the rule is found by a decision tree of maps over the value classes, built from the
// table's order: each node tests the next parameter the first remaining rule needs. Map values that name a variable
// are evaluated only when chosen, so a request computes only the classes on its path through the tree
// (`action=config` reads `$arg_action` once).

import type { RouteTable, Rule } from "../../routes/route-table.js";
import { predicates } from "../shared/checks.js";
import type { PredicateKeys } from "./predicate-keys.js";
import { classVar, type ParamClasses } from "./value-classes.js";

interface PendingRule {
  rule: Rule;
  /** Its place in the table: rule ids are not unique (each escaped value has a rule of its own, by one id). */
  at: number;
  /** Predicates not decided yet, in the table's order: param → key of the predicate (PredicateKeys). */
  open: Array<[string, string]>;
}

/**
 * A rule tree: one map per node, over the class of the parameter the first remaining rule needs next; a node whose
 * branches all give the same value is left out. `leaf` prints a rule's value; `prefix` names the tree's maps.
 */
export function decisionTree(
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
    const key = JSON.stringify(rules.map((r) => [r.at, r.open]));
    const known = memo.get(key);
    if (known !== undefined) return known;
    const [param] = first.open[0]!;
    const c = classes.get(param)!;
    const children = [...c.accepts].map(([id, accepts]) => {
      const remaining = rules
        .filter((r) => r.open.every(([q, k]) => q !== param || accepts.get(k)!))
        .map((r) => ({ rule: r.rule, at: r.at, open: r.open.filter(([q]) => q !== param) }));
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
  const pending = table.rules.map((rule, at) => ({
    rule,
    at,
    open: predicates(rule).map(([param, p]) => [param, keys.get(p)!] as [string, string]),
  }));
  return { root: node(pending), maps };
}
