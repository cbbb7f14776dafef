// src/hosts/shared/raw-query.ts
// The PCRE patterns that find a parameter's last value in a raw (undecoded) query string: Apache's
// %{QUERY_STRING} and nginx's $args. The ONLY place where a value is turned into pattern text for those hosts: the
// output uses letters, digits, `_~-`, `\.`, `\*`, `\(`, `\)`, `!`, `'`, `%`, `\xHH` escapes, hex-digit classes,
// `(?:|)` groups and `(?!…)` lookaheads, never a space, quote, `$`, `/`, `#`, `;`, `{`, `}` or control character.

import type { Predicate } from "../../routes/route-table.js";

const RAW_PLAIN = /^[A-Za-z0-9_~-]$/;
const RAW_ESCAPED = /^[.*()]$/;
const RAW_AS_IS = /^[!']$/;
/** Printable ASCII a client may send raw in a value; not `&` (the separator), `+` (a space), `#` or `%`. */
const RAW_HEX = /^(?![&+#%])[\x21-\x7e]$/;

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
  // A letter in either case, as sent: percent-encoded it counts as an unknown value, as in an exact or a set pattern.
  if (ignoreCase && /^[A-Za-z]$/.test(ch)) return `[${ch.toUpperCase()}${ch.toLowerCase()}]`;
  const bytes = [...Buffer.from(ch, "utf8")].map(percentPattern).join("");
  if (ch === " ") return `(?:\\+|${bytes})`;
  // PHP decodes "%" and two hex digits; any other "%" is itself (browsers send it raw).
  if (ch === "%") return `(?:${bytes}|%(?![0-9A-Fa-f][0-9A-Fa-f]))`;
  if (RAW_PLAIN.test(ch)) return /^[A-Za-z0-9]$/.test(ch) ? ch : `(?:${ch}|${bytes})`;
  if (RAW_ESCAPED.test(ch)) return `(?:\\${ch}|${bytes})`;
  if (RAW_AS_IS.test(ch)) return `(?:${ch}|${bytes})`;
  // Reserved characters that browsers send unencoded (`;$/?=|^\[]{}` and the backtick, also `:@,`): matched raw by
  // their PCRE hex escape, so that no config syntax ever sees the character itself.
  if (RAW_HEX.test(ch)) return `(?:\\x${ch.charCodeAt(0).toString(16).padStart(2, "0")}|${bytes})`;
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
