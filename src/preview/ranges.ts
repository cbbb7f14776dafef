// src/preview/ranges.ts
// What a Range header asks of a file of `size` bytes, as each server reads it: RFC 9110 §14 (range-parser, the
// default), nginx 1.22 (ngx_http_range_parse: spaces skipped, any other stray byte is 416, ranges never merged, a
// sum larger than the file is the whole file) and Apache 2.4 (ap_set_byterange: digits only, any malformed spec
// ignores the header, overlapping and adjacent ranges merged in its own way, `0-` is the whole file as one range).

import parseRange from "range-parser";

export type RangeFlavour = "rfc" | "nginx" | "apache";

/** Ranges are inclusive ([start, end]); "ignore": answer the whole file (200); "unsatisfiable": 416. */
export type RangeAnswer = "ignore" | "unsatisfiable" | Array<{ start: number; end: number }>;

/** Whether a Range header names the bytes unit, as each server checks it (nginx: "bytes=" and at least one more). */
export function isBytesRange(header: string, flavour: RangeFlavour): boolean {
  if (flavour === "rfc") return true; // range-parser reads the unit itself
  return header.slice(0, 6).toLowerCase() === "bytes=" && (flavour !== "nginx" || header.length >= 7);
}

export function rangesOf(header: string, size: number, flavour: RangeFlavour): RangeAnswer {
  if (!isBytesRange(header, flavour)) return "ignore";
  if (flavour === "nginx") return nginxRanges(header.slice(6), size);
  if (flavour === "apache") return apacheRanges(header.slice(6), size);
  const ranges = parseRange(size, wholeSuffixes(header, size), { combine: true });
  if (ranges === -1) return "unsatisfiable";
  if (ranges === -2 || ranges.type.toLowerCase() !== "bytes") return "ignore";
  return ranges.map(({ start, end }) => ({ start, end }));
}

/**
 * RFC 9110 §14.1.3: a suffix range longer than the file is the whole file (range-parser counts it unsatisfiable), so
 * `-N` with N > size is passed on as `0-`.
 */
const wholeSuffixes = (range: string, size: number): string =>
  range.replace(/([=,]\s*)-(\d+)/g, (m, before: string, n: string) => (Number(n) > size ? `${before}0-` : m));

/** ngx_http_range_parse, byte for byte (max_ranges unlimited, as by default). */
function nginxRanges(spec: string, size: number): RangeAnswer {
  const ranges: Array<{ start: number; end: number }> = [];
  let at = 0;
  let total = 0;
  const skipSpaces = (): void => {
    while (spec[at] === " ") at += 1;
  };
  const digits = (): number | null => {
    const m = /^[0-9]+/.exec(spec.slice(at));
    if (m === null) return null;
    at += m[0].length;
    return Number(m[0]);
  };
  for (;;) {
    let start = 0;
    let end = 0;
    skipSpaces();
    const suffix = spec[at] === "-";
    if (suffix) at += 1;
    else {
      const n = digits();
      if (n === null) return "unsatisfiable";
      start = n;
      skipSpaces();
      if (spec[at++] !== "-") return "unsatisfiable";
      skipSpaces();
    }
    if (!suffix && (spec[at] === "," || at >= spec.length)) end = size;
    else {
      const n = digits();
      if (n === null) return "unsatisfiable";
      skipSpaces();
      if (spec[at] !== "," && at < spec.length) return "unsatisfiable";
      end = n;
      if (suffix) {
        start = end < size ? size - end : 0;
        end = size - 1;
      }
      end = end >= size ? size : end + 1;
    }
    if (start < end) {
      ranges.push({ start, end: end - 1 });
      total += end - start;
    } else if (start === 0) return "ignore";
    if (spec[at++] !== ",") break;
  }
  if (ranges.length === 0) return "unsatisfiable";
  return total > size ? "ignore" : ranges;
}

/** One Apache byte-range-spec: [start, end] clamped to the file, "skip" (starts past the end), or null (malformed). */
function apacheSpec(spec: string, size: number): { start: number; end: number; whole?: true } | "skip" | null {
  const dash = spec.indexOf("-");
  if (dash === -1) return null;
  const number = (s: string): number | null => (/^[0-9]+$/.test(s) ? Number(s) : null);
  let start: number;
  let end: number;
  if (dash === 0) {
    const n = number(spec.slice(1));
    if (n === null || n < 1) return null;
    start = Math.max(0, size - n);
    end = size - 1;
  } else {
    const s = number(spec.slice(0, dash));
    if (s === null) return null;
    start = s;
    if (dash + 1 < spec.length) {
      const e = number(spec.slice(dash + 1));
      if (e === null || start > e) return null;
      end = e;
    } else {
      end = size - 1;
      if (start === 0) return { start: 0, end, whole: true };
    }
  }
  if (start >= size) return "skip";
  return { start, end: Math.min(end, size - 1) };
}

/** Apache's defaults (MaxRanges, MaxRangeOverlaps, MaxRangeReversals): past one, the whole file. */
const APACHE_MAX = { ranges: 200, overlaps: 20, reversals: 20 };

/** ap_set_byterange: specs split on runs of ","; an empty one ends the list; merged as Apache merges them. */
function apacheRanges(header: string, size: number): RangeAnswer {
  if (size <= 0) return "ignore";
  const merged: Array<{ start: number; end: number }> = [];
  let open: { start: number; end: number } | null = null;
  let unsatisfiable = false;
  let overlaps = 0;
  let reversals = 0;
  for (const spec of header.split(/,+/)) {
    if (spec === "") break;
    const r = apacheSpec(spec, size);
    if (r === null) return "ignore";
    if (r === "skip") {
      unsatisfiable = true;
      continue;
    }
    if (r.whole === true) {
      merged.length = 0;
      open = { start: 0, end: r.end };
      break;
    }
    if (open === null) {
      open = { ...r };
      continue;
    }
    let merging = r.start >= open.start && r.end <= open.end;
    if (r.start < open.start && r.end >= open.start - 1) {
      open.start = r.start;
      reversals += 1;
      merging = true;
    }
    if (r.end >= open.end && r.start <= open.end + 1) {
      open.end = r.end;
      merging = true;
    }
    if (merging) overlaps += 1;
    else {
      merged.push(open);
      open = { ...r };
    }
  }
  if (open !== null) merged.push(open);
  else return unsatisfiable ? "unsatisfiable" : "ignore";
  const total = merged.reduce((sum, r) => sum + r.end - r.start + 1, 0);
  const limited =
    merged.length > APACHE_MAX.ranges || overlaps > APACHE_MAX.overlaps || reversals > APACHE_MAX.reversals;
  return total > size || limited ? "ignore" : merged;
}
