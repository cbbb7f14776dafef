// src/hosts/vercel-static/render.ts
// The `vercel-static` fallback (the default Vercel output is the Build Output API, src/hosts/vercel/).
// Route table → `vercel.json`: one rewrite per rule (per chunk of a long set) with anchored `has` query regexes in
// table order, the status as `statusCode`; headers by path for the static answers, and for `/api.php` by the same
// query conditions (Vercel matches headers on the incoming path, never on the rewrite target).

import { HEADER_GROUPS, pathHeaders } from "../../php/header-groups.js";
import type { Predicate, RouteTable, Rule } from "../../routes/route-table.js";
import { checkHeader, checkTarget, predicates } from "../shared/checks.js";
import { PAGE_CSP, SVG_CSP } from "../shared/csp.js";
import { chunkMembers } from "../shared/members.js";
import type { HostAdapter } from "../types.js";
import { preset } from "./preset.js";
import { HostLimitError } from "../../errors.js";

/** Per rewrite: `has` items, and the length of one value (the counts of rewrites and headers are preset.ts rows). */
export const VERCEL_LIMITS = { has: 16, value: 4096 } as const;
/** Members per `has` value, so that the anchored alternation stays below 4096 characters. */
const MAX_SET_CHARS = 3500;

export interface VercelHas {
  type: "query";
  key: string;
  value?: string;
}
export interface VercelRewrite {
  source: string;
  destination: string;
  has?: VercelHas[];
  missing?: VercelHas[];
  statusCode?: number;
}
export interface VercelHeaderRule {
  source: string;
  has?: VercelHas[];
  missing?: VercelHas[];
  headers: Array<{ key: string; value: string }>;
}
export interface VercelJson {
  rewrites: VercelRewrite[];
  headers: VercelHeaderRule[];
}

/**
 * The ONLY place a value becomes a Vercel regex: ASCII punctuation is backslash-escaped (a literal in PCRE and in
 * JavaScript alike), every other character stands for itself; JSON.stringify then writes the file, so no value can
 * change the pattern or the JSON. ignoreCase letters become [Aa].
 */
export function regexLiteral(value: string, ignoreCase = false): string {
  return [...value]
    .map((ch) => {
      if (/^[A-Za-z]$/.test(ch) && ignoreCase) return `[${ch.toUpperCase()}${ch.toLowerCase()}]`;
      if (/^[!-/:-@[-`{-~]$/.test(ch)) return `\\${ch}`;
      return ch;
    })
    .join("");
}

const setAlternation = (members: readonly string[]): string => members.map((m) => m.replace(/\./g, "\\.")).join("|");

function hasItem(param: string, p: Predicate, capture: boolean, members?: readonly string[]): VercelHas {
  if ("present" in p) return { type: "query", key: param };
  if ("eq" in p) return { type: "query", key: param, value: `^${regexLiteral(p.eq, p.ignoreCase === true)}$` };
  // ignoreCase sets: lower-case members only (a capture cannot be lower-cased); other spellings take a later rule.
  const alternation = setAlternation(members ?? p.in);
  return { type: "query", key: param, value: capture ? `^(?<${param}>${alternation})$` : `^(?:${alternation})$` };
}

function rewritesFor(table: RouteTable, rule: Rule): VercelRewrite[] {
  const target = checkTarget(rule.target);
  const preds = predicates(rule);
  if (preds.length > VERCEL_LIMITS.has)
    throw new HostLimitError(
      "vercel-static",
      `${rule.id} needs ${preds.length} conditions; a Vercel rewrite takes at most ${VERCEL_LIMITS.has}.`,
    );
  const sets = preds.filter(([, p]) => "in" in p);
  if (sets.length > 1) throw new Error(`Internal: rule ${rule.id} has more than one set; Vercel rewrites take one.`);
  const [setParam, setPred] = sets[0] ?? [];
  const chunks = setPred !== undefined && "in" in setPred ? chunkMembers(setPred.in, MAX_SET_CHARS) : [undefined];
  return chunks.map((chunk) => {
    const has = preds.map(([param, p]) =>
      hasItem(param, p, target.includes(`{${param}}`), param === setParam ? chunk : undefined),
    );
    return {
      source: table.entry,
      destination: target.replace(/\{([^}]+)\}/g, ":$1"),
      ...(has.length > 0 ? { has } : {}),
      ...(rule.status !== 200 ? { statusCode: rule.status } : {}),
    };
  });
}

const samePredicate = (a: Predicate | undefined, b: Predicate | undefined): boolean =>
  JSON.stringify(a) === JSON.stringify(b);

/**
 * Cache-Control for `/api.php`: one header rule per rule that sends it, later rules first so that an earlier rule's
 * value wins. An earlier rule with another (or no) Cache-Control that differs only by an `eq` value of one
 * parameter is carved out with a negative lookahead (e.g. findIcon.file.unknown excludes extension "" and "0").
 */
function apiCacheHeaders(table: RouteTable): VercelHeaderRule[] {
  const out: VercelHeaderRule[] = [];
  const cc = (rule: Rule): string | undefined => rule.headers["Cache-Control"];
  table.rules.forEach((rule, index) => {
    const value = cc(rule);
    if (value === undefined) return;
    checkHeader("Cache-Control", value);
    const excluded = new Map<string, string[]>();
    for (const earlier of table.rules.slice(0, index)) {
      if (cc(earlier) === value) continue;
      const diff = Object.keys(earlier.match).filter((k) => !samePredicate(earlier.match[k], rule.match[k]));
      const [param] = diff;
      const p = param === undefined ? undefined : earlier.match[param];
      if (diff.length !== 1 || p === undefined || !("eq" in p) || p.ignoreCase) continue;
      const mine = rule.match[param!];
      if (mine !== undefined && !("present" in mine)) continue;
      excluded.set(param!, [...(excluded.get(param!) ?? []), p.eq]);
    }
    const base = predicates(rule).map(([param, p]) => hasItem(param, p, false));
    const variants: Array<{ has: VercelHas[]; missing: VercelHas[] }> = [{ has: base, missing: [] }];
    for (const [param, values] of excluded) {
      const not: VercelHas = {
        type: "query",
        key: param,
        value: `^(?!(?:${values.map((v) => regexLiteral(v)).join("|")})$)`,
      };
      for (const v of variants.splice(0)) {
        const named = v.has.some((h) => h.key === param);
        variants.push({ has: [...v.has.filter((h) => h.key !== param), not], missing: v.missing });
        if (!named) variants.push({ has: v.has, missing: [...v.missing, { type: "query", key: param }] });
      }
    }
    for (const v of variants) {
      out.push({
        source: table.entry,
        ...(v.has.length > 0 ? { has: v.has } : {}),
        ...(v.missing.length > 0 ? { missing: v.missing } : {}),
        headers: [{ key: "Cache-Control", value }],
      });
    }
  });
  return out.reverse();
}

export function toVercelJson(table: RouteTable): VercelJson {
  const rewrites = table.rules.flatMap((rule) => rewritesFor(table, rule));
  const headers: VercelHeaderRule[] = [];
  for (const group of HEADER_GROUPS) {
    const list = Object.entries(group.headers).map(([key, value]) => {
      const [k, v] = checkHeader(key, value);
      return { key: k, value: v };
    });
    for (const p of group.paths) headers.push({ source: p.endsWith("/") ? `${p}(.*)` : p, headers: list });
  }
  // Every /api.php answer is JSON for any origin; Cache-Control depends on the rule.
  const always = Object.entries(pathHeaders("/api/")).map(([key, value]) => ({ key, value }));
  headers.push({ source: table.entry, headers: always }, ...apiCacheHeaders(table));
  // SVG files run no script from this origin.
  headers.push({ source: "/(.*)\\.svg", headers: [{ key: "Content-Security-Policy", value: SVG_CSP }] });
  // The site's pages (the catalogue): scripts, styles and data from the site only.
  for (const source of ["/", "/index.html", "/catalogue/(.*)"])
    headers.push({ source, headers: [{ key: "Content-Security-Policy", value: PAGE_CSP }] });
  return { rewrites, headers };
}

/** The fallback for Vercel deployments of the output folder alone, without functions (`--hosts vercel-static`). */
export const vercelStatic: HostAdapter = {
  name: preset.name,
  render({ table }) {
    return {
      files: [{ path: "vercel.json", data: `${JSON.stringify(toVercelJson(table), null, 2)}\n` }],
      docroot: "site",
    };
  },
  measure(files) {
    const file = files.find((f) => f.path === "vercel.json");
    if (file === undefined) return {};
    const json = JSON.parse(file.data) as Partial<VercelJson>;
    return { rewrites: json.rewrites?.length ?? 0, headerRules: json.headers?.length ?? 0 };
  },
};
