// src/hosts/apache.ts
// Route table → one `.htaccess` (mod_rewrite on the raw %{QUERY_STRING}, 400/404 bodies through a scoped
// ErrorDocument, headers by path through mod_headers). Every path is relative to the folder, so the site may live in
// a subfolder of an existing Apache site.

import { HEADER_GROUPS } from "../api/header-groups.js";
import type { Predicate, RouteTable, Rule } from "../routes/route-table.js";
import {
  checkHeader, checkTarget, lastParamPattern, placeholders, predicates, rawLiteralPattern, rawSetPattern,
} from "./common.js";
import type { HostAdapter, HostFile } from "./types.js";

/** Apache reads config lines of up to 8 KiB; long `in` sets are split over several rules. */
const MAX_SET_CHARS = 3000;

const envValue = (param: string): string => `BIS_V_${param}`;
const envLower = (param: string): string => `BIS_LC_${param}`;
const regexPath = (sitePath: string): string => sitePath.slice(1).replace(/\./g, "\\.");

/** Splits members so that no alternation is longer than MAX_SET_CHARS. */
export function chunkMembers(members: readonly string[], max = MAX_SET_CHARS): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const m of members) {
    if (current.length > 0 && size + m.length + 1 > max) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(m);
    size += m.length + 1;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/**
 * The ONLY place a value becomes `.htaccess` text: a RewriteCond pattern built by common.ts's raw patterns, which
 * never contain whitespace, quotes, `%{`, `$` before a digit, or any other character Apache's config reader or
 * mod_rewrite's expansion would act on.
 */
function condPattern(param: string, p: Predicate, members?: readonly string[]): string {
  let value: string;
  if ("present" in p) value = "[^&]*";
  else if ("eq" in p) value = rawLiteralPattern(p.eq, p.ignoreCase === true);
  else value = rawSetPattern(members ?? p.in, p.ignoreCase === true);
  const pattern = lastParamPattern(param, value);
  if (/[\s"]|%\{|\$\d/.test(pattern)) throw new Error(`Internal: unsafe Apache pattern ${JSON.stringify(pattern)}.`);
  return pattern;
}

/** Site path → rewrite substitution: relative to this folder, placeholders from the SetEnvIfExpr variables. */
function substitution(rule: Rule): string {
  const target = checkTarget(rule.target);
  return target.slice(1).replace(/\{([^}]+)\}/g, (_, param: string) => {
    const p = rule.match[param];
    return `%{ENV:${p !== undefined && "in" in p && p.ignoreCase ? envLower(param) : envValue(param)}}`;
  });
}

function ruleBlock(rule: Rule): string[] {
  const preds = predicates(rule);
  const sets = preds.filter(([, p]) => "in" in p);
  if (sets.length > 1) throw new Error(`Internal: rule ${rule.id} has more than one set; Apache rules take one.`);
  const [setParam, setPred] = sets[0] ?? [];
  const chunks = setPred !== undefined && "in" in setPred ? chunkMembers(setPred.in) : [undefined];
  const out: string[] = [`# ${rule.id}`];
  for (const chunk of chunks) {
    for (const [param, p] of preds) {
      out.push(`RewriteCond %{QUERY_STRING} ${condPattern(param, p, param === setParam ? chunk : undefined)}`);
    }
    if (rule.status === 200) {
      out.push(`RewriteRule ^api\\.php$ ${substitution(rule)} [L]`);
    } else {
      // The base URL (…/ of …/api.php) comes from the last condition; the ErrorDocument below serves the body.
      out.push("RewriteCond %{REQUEST_URI} ^/(.*/)?api\\.php$");
      out.push(`RewriteRule ^api\\.php$ - [R=${rule.status},E=BIS_ERR:%1${substitution(rule)},END]`);
    }
  }
  return out;
}

/** One SetEnvIfExpr per placeholder parameter: its last value as sent, and lower-cased (mod_rewrite cannot). */
function valueVariables(table: RouteTable): string[] {
  const params = new Set<string>();
  for (const rule of table.rules) for (const p of placeholders(rule.target)) params.add(p);
  return [...params].sort().map((param) => {
    const last = `(?:^|&)${param}(?:=|(?=[&#]|$))(?<r>[^&#]*)(?:&(?!${param}(?:[=&#]|$))[^&#]*)*#`;
    return `SetEnvIfExpr "%{QUERY_STRING} . '#' . tolower(%{QUERY_STRING}) =~ /${last}.*?=(?<lc>(?i:\\k<r>))(?:&|$)/" `
      + `${envValue(param)}=$1 ${envLower(param)}=$2`;
  });
}

function headerBlock(): string[] {
  const out: string[] = ["# The API's headers by file path (relative to this folder), also on 400/404 answers."];
  const directives: string[] = [];
  HEADER_GROUPS.forEach((group, i) => {
    for (const p of group.paths) {
      const pattern = p.endsWith("/") ? `^${regexPath(p)}` : `^${regexPath(p)}$`;
      out.push(`RewriteRule ${pattern} - [E=BIS_H${i}:1]`);
    }
    for (const [name, value] of Object.entries(group.headers)) {
      const [n, v] = checkHeader(name, value);
      directives.push(`Header always set ${n} "${v}" env=BIS_H${i}`);
    }
  });
  return [...out, ...directives];
}

export function printHtaccess(table: RouteTable): string {
  const statuses = [...new Set(table.rules.filter((r) => r.status !== 200).map((r) => r.status))].sort();
  const lines = [
    "# .htaccess: generated by build-index-site from routes.json; do not edit.",
    "# Needs AllowOverride FileInfo (or All) and mod_rewrite, mod_headers, mod_setenvif, mod_mime.",
    `# ${table.entry}?… is answered by the first rule whose conditions all hold, on the last value of each parameter.`,
    "",
    '<Files "api.php">',
    ...statuses.map((s) => `  ErrorDocument ${s} /%{reqenv:BIS_ERR}`),
    "</Files>",
    ...valueVariables(table),
    "",
    "RewriteEngine On",
    ...headerBlock(),
    "",
    ...table.rules.flatMap(ruleBlock),
  ];
  return `${lines.join("\n")}\n`;
}

export const apache: HostAdapter = {
  name: "apache",
  render(table): HostFile[] {
    return [{ path: ".htaccess", data: printHtaccess(table) }];
  },
};
