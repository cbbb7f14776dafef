// src/hosts/shared/checks.ts
// Checks on what the route table gives a host config to print: parameter names, target paths, header names and
// values (they come from code, never from content), and a rule's predicates with their names checked.

import type { Predicate, Rule } from "../../routes/route-table.js";

/** Parameter names every host syntax accepts unquoted; the table's names come from code, never from content. */
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Target paths: safe characters only, placeholders `{param}`. */
const TARGET = /^\/(?:[A-Za-z0-9._~/-]|\{[A-Za-z_][A-Za-z0-9_]*\})*$/;
/** Header names and values we are willing to print into any host syntax (they come from code). */
const HEADER_NAME = /^[A-Za-z0-9-]+$/;
const HEADER_VALUE = /^[A-Za-z0-9 ,=*/._;-]*$/;

export function checkParam(name: string): string {
  if (!PARAM_NAME.test(name))
    throw new Error(`Internal: parameter name ${JSON.stringify(name)} is not printable in host configs.`);
  return name;
}

export function checkTarget(target: string): string {
  if (!TARGET.test(target) || target.includes(".."))
    throw new Error(`Internal: target ${JSON.stringify(target)} is not a safe site path.`);
  return target;
}

export function checkHeader(name: string, value: string): [string, string] {
  if (!HEADER_NAME.test(name) || !HEADER_VALUE.test(value)) {
    throw new Error(
      `Internal: header ${JSON.stringify(name)}: ${JSON.stringify(value)} is not printable in host configs.`,
    );
  }
  return [name, value];
}

/** Every rule's predicates in a fixed order (the table's). */
export function predicates(rule: Rule): Array<[string, Predicate]> {
  return Object.entries(rule.match).map(([param, p]) => [checkParam(param), p]);
}
