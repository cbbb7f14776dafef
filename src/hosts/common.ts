// src/hosts/common.ts
// What several adapters share: checks on the table's names and targets, case variants, and the PCRE patterns that
// find a parameter's last value in a raw (undecoded) query string (Apache and nginx).

import type { Predicate, Rule } from "../routes/route-table.js";

/**
 * Sent with every `image/svg+xml` answer by every host config and both previews: an SVG opened from the site's
 * origin runs no script, loads nothing and is sandboxed (issue 27). A constant: printed into configs as it is.
 */
export const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/**
 * Sent with the site's HTML pages (the catalogue, src/catalogue) by every host config and both previews: scripts,
 * styles, images and data from the site itself only, nothing inline, no frames, no plugins.
 */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
/** The site paths of those pages (URL patterns of Netlify's and Cloudflare's `_headers`): the root and catalogue/. */
export const PAGE_PATHS: readonly string[] = ["/", "/index.html", "/catalogue/*"];
/** The folders whose files may be SVG (the content's published folders: src/content/read-content.ts PUBLISHED_DIRS). */
export const SVG_PATHS: readonly string[] = ["/icons/*", "/style/*", "/favicon/*"];

/**
 * The SVG policy as a `_headers` block (Netlify's and Cloudflare's syntax) on every folder a file may be an SVG in:
 * neither documents a pattern by file extension, and a CSP acts only where a file is opened as a document (an SVG).
 * Then the pages' policy on the pages (the rules match different paths: one policy per answer).
 */
export const SVG_POLICY_HEADERS_BLOCK = `# Files opened from this origin (an SVG) run no script.\n${SVG_PATHS.map(
  (p) => `${p}\n  Content-Security-Policy: ${SVG_CSP}\n`,
).join("")}# The site's pages (the catalogue): scripts, styles and data from the site only.\n${PAGE_PATHS.map(
  (p) => `${p}\n  Content-Security-Policy: ${PAGE_CSP}\n`,
).join("")}`;

/** Parameter names every host syntax accepts unquoted; the table's names come from code, never from content. */
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Target paths: safe characters only, placeholders `{param}`. */
const TARGET = /^\/(?:[A-Za-z0-9._~\/-]|\{[A-Za-z_][A-Za-z0-9_]*\})*$/;
/** Header names and values we are willing to print into any host syntax (they come from code). */
const HEADER_NAME = /^[A-Za-z0-9-]+$/;
const HEADER_VALUE = /^[A-Za-z0-9 ,=*\/._;-]*$/;

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

/** Parameters named by `{param}` in a target. */
export function placeholders(target: string): string[] {
  return [...target.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

/** Fills `{param}` placeholders. */
export function fillTarget(target: string, values: Readonly<Record<string, string>>): string {
  return target.replace(/\{([^}]+)\}/g, (_, p: string) => {
    const v = values[p];
    if (v === undefined) throw new Error(`Internal: no value for {${p}} in ${target}.`);
    return v;
  });
}

const upper = (s: string): string => s.replace(/[a-z]+/g, (m) => m.toUpperCase());
const capitalized = (s: string): string => s.replace(/[a-z]/, (c) => c.toUpperCase());

/** The spellings a host without case-insensitive matching precomputes for a lower-case member: as is, UPPER, Capitalized. */
export function commonCaseVariants(member: string): string[] {
  return [...new Set([member, upper(member), capitalized(member)])];
}

/** Splits members so that no alternation is longer than MAX_SET_CHARS. */
export function chunkMembers(members: readonly string[], max: number): string[][] {
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

/** Every rule's predicates in a fixed order (the table's). */
export function predicates(rule: Rule): Array<[string, Predicate]> {
  return Object.entries(rule.match).map(([param, p]) => [checkParam(param), p]);
}

// ---------------------------------------------------------------------------------------------------------------
// Raw query patterns (PCRE, for Apache's %{QUERY_STRING} and nginx's $args). The ONLY place where a value is turned
// into pattern text for those hosts: the output uses letters, digits, `_~-`, `\.`, `\*`, `\(`, `\)`, `!`, `'`,
// `%`, hex-digit classes and `(?:|)` groups, never a space, quote, `$`, `/`, `#`, `;`, `{`, `}` or control character.

const RAW_PLAIN = /^[A-Za-z0-9_~-]$/;
const RAW_ESCAPED = /^[.*()]$/;
const RAW_AS_IS = /^[!']$/;

const hexClass = (digit: string): string => (/[A-F]/.test(digit) ? `[${digit}${digit.toLowerCase()}]` : digit);
const percentPattern = (byte: number): string => {
  const hex = byte.toString(16).toUpperCase().padStart(2, "0");
  return `%${hexClass(hex[0]!)}${hexClass(hex[1]!)}`;
};

/**
 * A pattern for every raw spelling of one character that form-decodes to it: the character itself where a client
 * may send it unencoded and it is safe in our syntaxes, else only its percent-encoded UTF-8 bytes (any hex case);
 * a space also as "+".
 */
function rawCharPattern(ch: string, ignoreCase: boolean): string {
  if (ignoreCase && /^[A-Za-z]$/.test(ch)) {
    const lower = ch.toLowerCase();
    const up = ch.toUpperCase();
    return `(?:[${up}${lower}]|${percentPattern(up.charCodeAt(0))}|${percentPattern(lower.charCodeAt(0))})`;
  }
  const bytes = [...Buffer.from(ch, "utf8")].map(percentPattern).join("");
  if (ch === " ") return `(?:\\+|${bytes})`;
  if (RAW_PLAIN.test(ch)) return /^[A-Za-z0-9]$/.test(ch) ? ch : `(?:${ch}|${bytes})`;
  if (RAW_ESCAPED.test(ch)) return `(?:\\${ch}|${bytes})`;
  if (RAW_AS_IS.test(ch)) return `(?:${ch}|${bytes})`;
  return bytes;
}

/**
 * A literal value as a raw-query pattern. Letters and digits are matched as sent (a client that percent-encodes a
 * letter, `%70hp`, gets the fallback: a documented difference); every other character in all its safe spellings.
 */
export function rawLiteralPattern(value: string, ignoreCase = false): string {
  return [...value].map((ch) => rawCharPattern(ch, ignoreCase)).join("");
}

/** Members of an `in` set (all in the safe charset) as an alternation, `.` escaped; `(?i:…)` when ignoring case. */
export function rawSetPattern(members: readonly string[], ignoreCase = false): string {
  const alternation = members.join("|").replace(/\./g, "\\.");
  return ignoreCase ? `(?i:${alternation})` : `(?:${alternation})`;
}

/** The value pattern of a predicate, wrapped in a capture group when `capture` names it. */
export function rawValuePattern(p: Predicate): string {
  if ("present" in p) return "[^&]*";
  if ("eq" in p) return rawLiteralPattern(p.eq, p.ignoreCase === true);
  return rawSetPattern(p.in, p.ignoreCase === true);
}

/**
 * Matches a raw query whose LAST parameter named exactly `param` (PHP's $_GET) has a value matching `value`
 * (a bare `param` without "=" has the empty value). `value` may hold one capture group.
 */
export function lastParamPattern(param: string, value: string): string {
  return `(?:^|&)${param}(?:=|(?=&|$))${value}(?=&|$)(?:&(?!${param}(?:[=&]|$))[^&]*)*$`;
}
