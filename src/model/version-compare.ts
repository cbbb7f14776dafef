// src/model/version-compare.ts
// PHP's version_compare(), ported from ext/standard/versioning.c: the reference service decides `update_needed` with it.

/** Rank of a word part; `#` (the stand-in for "a number") sits between rc and pl. Matching is by prefix, as in PHP. */
const SPECIAL_FORMS: ReadonlyArray<readonly [string, number]> = [
  ["dev", 0],
  ["alpha", 1],
  ["a", 1],
  ["beta", 2],
  ["b", 2],
  ["RC", 3],
  ["rc", 3],
  ["#", 4],
  ["pl", 5],
  ["p", 5],
];
const NUMBER = "#N#";
const LONG_MAX = 2n ** 63n - 1n;

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= "0" && c <= "9";
const isAlnum = (c: string): boolean => /^[A-Za-z0-9]$/.test(c);
const isDig = (c: string): boolean => isDigit(c); // PHP: isdigit(x) && x != '.'
const isNdig = (c: string): boolean => !isDigit(c) && c !== ".";

/** `s/[-_+]/./g`, other non-alphanumerics to `.`, and a `.` between a digit and a non-digit; the first character is kept as is. */
export function canonicalizeVersion(version: string): string {
  if (version.length === 0) return "";
  let out = version[0]!;
  let lp = version[0]!;
  for (let i = 1; i < version.length; i++) {
    const c = version[i]!;
    const lq = out[out.length - 1]!;
    if (c === "-" || c === "_" || c === "+") {
      if (lq !== ".") out += ".";
    } else if ((isNdig(lp) && isDig(c)) || (isDig(lp) && isNdig(c))) {
      if (lq !== ".") out += ".";
      out += c;
    } else if (!isAlnum(c)) {
      if (lq !== ".") out += ".";
    } else {
      out += c;
    }
    lp = c;
  }
  return out;
}

function specialFormRank(form: string): number {
  for (const [name, order] of SPECIAL_FORMS) if (form.startsWith(name)) return order;
  return -1;
}

const sign = (n: number | bigint): -1 | 0 | 1 => (n > 0 ? 1 : n < 0 ? -1 : 0);

/** PHP strtol on a part that starts with a digit: leading digits, saturating at LONG_MAX. */
function strtol(part: string): bigint {
  const digits = /^[0-9]+/.exec(part)![0];
  const n = BigInt(digits);
  return n > LONG_MAX ? LONG_MAX : n;
}

const beforeNul = (s: string): string => {
  const nul = s.indexOf("\0");
  return nul === -1 ? s : s.slice(0, nul);
};

const UTF8 = new TextEncoder();
/** The UTF-8 bytes of `s`, one character each: PHP reads a version byte by byte, and no byte above 0x7F is alphanumeric. */
function bytesOf(s: string): string {
  let out = "";
  for (const byte of UTF8.encode(s)) out += String.fromCharCode(byte);
  return out;
}

/** Returns -1, 0 or 1 exactly as PHP's version_compare($a, $b), which compares the versions' bytes. */
export function versionCompare(a: string, b: string): -1 | 0 | 1 {
  // PHP compares C strings: a NUL byte ends the version.
  return compareBytes(bytesOf(beforeNul(a)), bytesOf(beforeNul(b)));
}

/** versionCompare on versions given as bytes (bytesOf): a line-by-line port of php_version_compare(). */
function compareBytes(a: string, b: string): -1 | 0 | 1 {
  if (a === "" || b === "") {
    if (a === "" && b === "") return 0;
    return a !== "" ? 1 : -1;
  }
  const v1 = a[0] === "#" ? a : canonicalizeVersion(a);
  const v2 = b[0] === "#" ? b : canonicalizeVersion(b);
  // p = start of the current part; n = index of the '.' that ends it, or null for the last part (PHP's strchr()).
  let p1 = 0;
  let p2 = 0;
  let n1: number | null = 0;
  let n2: number | null = 0;
  let compare: -1 | 0 | 1 = 0;
  while (p1 < v1.length && p2 < v2.length && n1 !== null && n2 !== null) {
    const dot1 = v1.indexOf(".", p1);
    const dot2 = v2.indexOf(".", p2);
    n1 = dot1 === -1 ? null : dot1;
    n2 = dot2 === -1 ? null : dot2;
    const part1 = v1.slice(p1, n1 ?? v1.length);
    const part2 = v2.slice(p2, n2 ?? v2.length);
    if (isDigit(part1[0]) && isDigit(part2[0])) compare = sign(strtol(part1) - strtol(part2));
    else if (!isDigit(part1[0]) && !isDigit(part2[0])) compare = sign(specialFormRank(part1) - specialFormRank(part2));
    else if (isDigit(part1[0])) compare = sign(specialFormRank(NUMBER) - specialFormRank(part2));
    else compare = sign(specialFormRank(part1) - specialFormRank(NUMBER));
    if (compare !== 0) break;
    if (n1 !== null) p1 = n1 + 1;
    if (n2 !== null) p2 = n2 + 1;
  }
  if (compare === 0) {
    if (n1 !== null) {
      const rest = v1.slice(p1);
      compare = isDigit(rest[0]) ? 1 : compareBytes(rest, NUMBER);
    } else if (n2 !== null) {
      const rest = v2.slice(p2);
      compare = isDigit(rest[0]) ? -1 : compareBytes(NUMBER, rest);
    }
  }
  return compare;
}
