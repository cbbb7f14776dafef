// src/preview/api-route.ts
// How each static host picks the answer file of an /api.php query, from the rules the build emits for it:
//   - route-table: the table's own evaluator (form-decoded values, exact);
//   - raw-query (nginx, Apache): the raw query as sent, each parameter's LAST part named exactly so, its value matched
//     raw by the configs' own literal patterns (src/hosts/shared/raw-query.ts) or spelled exactly like a set's member
//     (any ASCII case for an ignoreCase set), as the emitted lookaheads and RewriteConds match it;
//   - netlify-redirects: `_redirects` as printed, first line whose parameters all hold: names as sent, values
//     form-decoded, both compared exactly, a parameter without "=" absent (netlify-redirector, the engine Netlify's
//     CLI runs, answers so);
//   - vercel-json: `vercel.json` as printed, its `has`/`missing` regexes on the last value (URLSearchParams), its
//     header rules for /api.php.

import { pathHeaders } from "../php/header-groups.js";
import { rawLiteralPattern } from "../hosts/shared/raw-query.js";
import { printRedirects } from "../hosts/netlify-static/render.js";
import { toVercelJson, type VercelHas } from "../hosts/vercel-static/render.js";
import type { Build } from "../layout/read-build.js";
import type { Predicate, RouteTable } from "../routes/route-table.js";
import type { HostBehaviour } from "./hosts.js";

/** What the host serves for an /api.php query: the body's site path, the status, and the answer's headers. */
export interface Routed {
  target: string;
  status: number;
  headers: Record<string, string>;
}

export type ApiRouter = (query: string) => Promise<Routed>;

/** The router of a static host's rules (built once per build: the table is read and compiled here). */
export async function apiRouter(build: Build, api: Exclude<HostBehaviour["api"], "handler">): Promise<ApiRouter> {
  if (api === "route-table") return (query) => build.answer(query);
  const table = await build.table();
  const route =
    api === "raw-query"
      ? rawQueryRouter(table)
      : api === "netlify-redirects"
        ? netlifyRouter(table)
        : vercelRouter(table);
  return async (query) => route(query);
}

const lowerAscii = (s: string): string => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

/** The raw value of each parameter's last part named exactly so (a bare `x` has the value ""). */
function lastRawValues(query: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const part of query.split("&")) {
    const eq = part.indexOf("=");
    values.set(eq === -1 ? part : part.slice(0, eq), eq === -1 ? "" : part.slice(eq + 1));
  }
  return values;
}

/** A predicate on a raw value, as the emitted patterns match it: the member (or literal) it stands for, or null. */
function rawTest(p: Predicate): (raw: string) => string | null {
  if ("present" in p) return (raw) => raw;
  if ("eq" in p) {
    const re = new RegExp(`^(?:${rawLiteralPattern(p.eq, p.ignoreCase === true)})$`);
    return (raw) => (re.test(raw) ? p.eq : null);
  }
  const members = new Set(p.in);
  const fold = p.ignoreCase === true ? lowerAscii : (s: string): string => s;
  return (raw) => (members.has(fold(raw)) ? fold(raw) : null);
}

function rawQueryRouter(table: RouteTable): (query: string) => Routed {
  const rules = table.rules.map((rule) => ({
    rule,
    tests: Object.entries(rule.match).map(([param, p]) => ({ param, test: rawTest(p) })),
  }));
  return (query) => {
    const values = lastRawValues(query);
    for (const { rule, tests } of rules) {
      let target: string | null = rule.target;
      for (const { param, test } of tests) {
        const raw = values.get(param);
        const member = raw === undefined ? null : test(raw);
        if (member === null) {
          target = null;
          break;
        }
        target = target.replace(`{${param}}`, member);
      }
      if (target !== null) return { target, status: rule.status, headers: rule.headers };
    }
    throw new Error("The route table has no catch-all rule.");
  };
}

/** application/x-www-form-urlencoded decoding of one name or value ("+" a space; bytes as UTF-8). */
function formDecode(s: string): string {
  return new URLSearchParams(`x=${s.replace(/[&=#]/g, encodeURIComponent)}`).get("x") ?? "";
}

function netlifyRouter(table: RouteTable): (query: string) => Routed {
  const lines: Array<{ params: Array<[string, string]>; to: string; status: number }> = [];
  for (const line of printRedirects(table).text.split("\n")) {
    if (!line.startsWith("/")) continue;
    const tokens = line.split(/\s+/);
    const params = tokens
      .slice(1, -2)
      .map((t): [string, string] => [t.slice(0, t.indexOf("=")), t.slice(t.indexOf("=") + 1)]);
    lines.push({ params, to: tokens.at(-2)!, status: Number(tokens.at(-1)) });
  }
  return (query) => {
    const values = new Map<string, string>();
    for (const part of query.split("&")) {
      const eq = part.indexOf("=");
      if (eq !== -1) values.set(part.slice(0, eq), formDecode(part.slice(eq + 1)));
    }
    const hit = lines.find((l) =>
      l.params.every(([k, v]) => values.has(k) && (v.startsWith(":") || values.get(k) === v)),
    );
    if (hit === undefined) return { target: "", status: 404, headers: {} };
    return { target: hit.to, status: hit.status, headers: pathHeaders(hit.to) };
  };
}

function vercelRouter(table: RouteTable): (query: string) => Routed {
  const config = toVercelJson(table);
  const compile = (items: readonly VercelHas[] | undefined) =>
    (items ?? []).map((h) => ({ key: h.key, re: h.value === undefined ? null : new RegExp(h.value) }));
  type Compiled = ReturnType<typeof compile>;
  const holds = (items: Compiled, params: URLSearchParams, groups: Record<string, string>): boolean =>
    items.every(({ key, re }) => {
      const all = params.getAll(key);
      if (all.length === 0) return false;
      const m = re === null ? [] : re.exec(all.at(-1)!);
      if (m === null) return false;
      Object.assign(groups, (m as RegExpExecArray).groups ?? {});
      return true;
    });
  const misses = (items: Compiled, params: URLSearchParams): boolean => items.every((i) => !holds([i], params, {}));
  const rewrites = config.rewrites
    .filter((r) => r.source === table.entry)
    .map((r) => ({ ...r, has: compile(r.has), missing: compile(r.missing) }));
  const headerRules = config.headers
    .filter((r) => r.source === table.entry)
    .map((r) => ({ headers: r.headers, has: compile(r.has), missing: compile(r.missing) }));
  return (query) => {
    const params = new URLSearchParams(query);
    const headers: Record<string, string> = {};
    for (const r of headerRules)
      if (holds(r.has, params, {}) && misses(r.missing, params))
        for (const { key, value } of r.headers) headers[key] = value;
    for (const r of rewrites) {
      const groups: Record<string, string> = {};
      if (!holds(r.has, params, groups) || !misses(r.missing, params)) continue;
      const to = r.destination.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, n: string) => groups[n] ?? "");
      return { target: to, status: r.statusCode ?? 200, headers };
    }
    return { target: "", status: 404, headers: {} };
  };
}
