// src/hosts/apache/render.ts
// Route table → one `.htaccess` (mod_rewrite on the raw %{QUERY_STRING}, 400/404 bodies through a scoped
// ErrorDocument, headers by path through mod_headers). Every path is relative to the folder, so the site may live in
// a subfolder of an existing Apache site. A set of values is told by its answer files (`-f`), not by a list, so the
// file keeps its size as the site grows (Apache reads it on every request); only values outside the safe charset
// (their files have escaped names) keep a rule each.

import { HEADER_GROUPS } from "../../php/header-groups.js";
import { SAFE_VALUE_SOURCE, type Predicate, type RouteTable, type Rule } from "../../routes/route-table.js";
import { checkHeader, checkTarget, predicates } from "../shared/checks.js";
import { PAGE_CSP, SVG_CSP } from "../shared/csp.js";
import { chunkMembers } from "../shared/members.js";
import { fileTestedSets, type FileSet } from "./file-sets.js";
import { lastParamPattern, rawLiteralPattern, rawSetPattern } from "../shared/raw-query.js";
import { placeholders } from "../shared/targets.js";
import { INTERNAL_FILES } from "../../routes/internal-files.js";
import type { HostAdapter } from "../types.js";
import { preset } from "./preset.js";

/** Apache reads config lines of up to 8 KiB; long `in` sets are split over several rules. */
const MAX_SET_CHARS = 3000;

const envValue = (param: string): string => `BIS_V_${param}`;
const envLower = (param: string): string => `BIS_LC_${param}`;
const regexPath = (sitePath: string): string => sitePath.slice(1).replace(/\./g, "\\.");

/**
 * The ONLY place a value becomes `.htaccess` text: a RewriteCond pattern built by src/hosts/shared/raw-query.ts, whose
 * patterns never contain whitespace, quotes, `%{`, `$` before a digit, or any other character Apache's config reader
 * or mod_rewrite's expansion would act on.
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

/** api.php, with or without a path after it (PATH_INFO: PHP runs /api.php/x/y as /api.php). */
const API_PATH = "^api\\.php(?:/.*)?$";
/** The variable that holds this folder's path on disk ("/var/www/icons/"), for the file tests. */
const DIR_ENV = "BIS_DIR";

/** The rewrite that answers with the rule's target: the file itself, or its status with the file as ErrorDocument. */
function rewrite(rule: Rule): string[] {
  if (rule.status === 200) return [`RewriteRule ${API_PATH} ${substitution(rule)} [L]`];
  // The base URL (…/ of …/api.php) comes from the last condition; the ErrorDocument below serves the body.
  return [
    "RewriteCond %{REQUEST_URI} ^/(.*?/)?api\\.php(?:/.*)?$",
    `RewriteRule ${API_PATH} - [R=${rule.status},E=BIS_ERR:%1${substitution(rule)},END]`,
  ];
}

/**
 * A set told by its folder's files: the value (lower-cased when the set ignores case) is a safe name, and its file
 * exists. Two conditions whatever the set's size.
 */
function fileTestBlock(rule: Rule, set: FileSet): string[] {
  const env = set.ignoreCase ? envLower(set.param) : envValue(set.param);
  const out = [`# ${rule.id}: its members are the files of ${set.dir}`];
  for (const [param, p] of predicates(rule)) {
    if (param !== set.param) out.push(`RewriteCond %{QUERY_STRING} ${condPattern(param, p)}`);
  }
  out.push(`RewriteCond %{ENV:${env}} ${SAFE_VALUE_SOURCE}`);
  out.push(`RewriteCond %{ENV:${DIR_ENV}}${set.dir}%{ENV:${env}}.json -f`);
  return [...out, ...rewrite(rule)];
}

function ruleBlock(rule: Rule, fileSets: ReadonlyMap<Rule, FileSet>): string[] {
  const set = fileSets.get(rule);
  if (set !== undefined) return fileTestBlock(rule, set);
  const preds = predicates(rule);
  const sets = preds.filter(([, p]) => "in" in p);
  if (sets.length > 1) throw new Error(`Internal: rule ${rule.id} has more than one set; Apache rules take one.`);
  const [setParam, setPred] = sets[0] ?? [];
  const chunks = setPred !== undefined && "in" in setPred ? chunkMembers(setPred.in, MAX_SET_CHARS) : [undefined];
  const out: string[] = [`# ${rule.id}`];
  for (const chunk of chunks) {
    for (const [param, p] of preds) {
      out.push(`RewriteCond %{QUERY_STRING} ${condPattern(param, p, param === setParam ? chunk : undefined)}`);
    }
    out.push(...rewrite(rule));
  }
  return out;
}

/** One SetEnvIfExpr per placeholder parameter: its last value as sent, and lower-cased (mod_rewrite cannot). */
function valueVariables(table: RouteTable): string[] {
  const params = new Set<string>();
  for (const rule of table.rules) for (const p of placeholders(rule.target)) params.add(p);
  return [...params].sort().map((param) => {
    const last = `(?:^|&)${param}(?:=|(?=[&#]|$))(?<r>[^&#]*)(?:&(?!${param}(?:[=&#]|$))[^&#]*)*#`;
    return (
      `SetEnvIfExpr "%{QUERY_STRING} . '#' . tolower(%{QUERY_STRING}) =~ /${last}.*?=(?<lc>(?i:\\k<r>))(?:&|$)/" ` +
      `${envValue(param)}=$1 ${envLower(param)}=$2`
    );
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
  const fileSets = fileTestedSets(table);
  const statuses = [...new Set(table.rules.filter((r) => r.status !== 200).map((r) => r.status))].sort();
  const lines = [
    "# .htaccess: generated by build-index-site from routes.json; do not edit.",
    "# Needs AllowOverride FileInfo (or All) and mod_rewrite, mod_headers, mod_setenvif, mod_mime.",
    `# ${table.entry}?… is answered by the first rule whose conditions all hold, on the last value of each parameter.`,
    "# A known value is one whose answer file exists: upload with deletion (rsync --delete), on a case-sensitive disk.",
    "",
    '<If "%{REQUEST_URI} =~ m#/api\\.php(?:/|$)#">',
    ...statuses.map((s) => `  ErrorDocument ${s} /%{reqenv:BIS_ERR}`),
    "</If>",
    ...valueVariables(table),
    "# SVG files run no script from this origin.",
    '<FilesMatch "\\.(?i:svgz?)$">',
    `  Header always set Content-Security-Policy "${SVG_CSP}"`,
    "</FilesMatch>",
    "# The site's pages (the catalogue) load only the site's own scripts, styles, images and data.",
    '<FilesMatch "\\.(?i:html?)$">',
    `  Header always set Content-Security-Policy "${PAGE_CSP}"`,
    "</FilesMatch>",
    "",
    "RewriteEngine On",
    "# The build's own files (route table, host configs, build records) are not served.",
    `RewriteRule ^(?:${INTERNAL_FILES.map((f) => f.replace(/\./g, "\\.")).join("|")})$ - [R=404,L]`,
    ...headerBlock(),
    "",
    "# This folder on disk, for the file tests below (api.php itself need not exist).",
    "RewriteCond %{REQUEST_FILENAME} ^(.*/)api\\.php$",
    `RewriteRule ${API_PATH} - [E=${DIR_ENV}:%1]`,
    ...table.rules.flatMap((rule) => ruleBlock(rule, fileSets)),
  ];
  return `${lines.join("\n")}\n`;
}

export const apache: HostAdapter = {
  name: preset.name,
  render({ table }) {
    return { files: [{ path: ".htaccess", data: printHtaccess(table) }], docroot: "site" };
  },
};
