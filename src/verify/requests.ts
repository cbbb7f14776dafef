// src/verify/requests.ts
// The requests `verify` makes, derived from the build alone: the precomputed domain (every rule with every value of
// its sets, the documented 404s, every plain file, the site's own pages), and a fixed set beyond it derived from the
// content's values (unknown and case-varied values, versions around the manifest's, PHP query quirks, HEAD, OPTIONS).
// Deterministic: the same build gives the same list.

import { INTERNAL_FILES } from "../routes/internal-files.js";
import { API_ENTRY, type Rule, type RouteTable } from "../routes/route-table.js";
import { versionCompare } from "../model/version-compare.js";
import type { Probe } from "./fallbacks.js";
import { isEdgeDataPath } from "../edge/data.js";

export type Method = "GET" | "HEAD" | "OPTIONS";
export type Scope = "precomputed" | "beyond";

export interface VerifyRequest {
  method: Method;
  kind: "api" | "file" | "page" | "missing";
  scope: Scope;
  /** The row of the report it counts in: the action ("findIcon"), "files", "pages" or "404s". */
  group: string;
  /** Site path ("/icons/a.png", "/api.php"). */
  path: string;
  /** The raw query, without "?" ("" for none). */
  query: string;
  /** What a beyond-domain request probes. */
  probe?: Probe;
}

const enc = encodeURIComponent;
const queryOf = (pairs: ReadonlyArray<readonly [string, string]>): string =>
  pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join("&");
const actionOf = (rule: Rule): string => {
  const p = rule.match.action;
  return p !== undefined && "eq" in p ? p.eq : "info";
};
const sitePathOf = (file: string): string => `/${file.split("/").map(enc).join("/")}`;

/**
 * Rules whose answers are approximations on a static host, asked beyond the domain and never in it: a successful
 * answer to "any other value" (a precomputed file cannot echo the value), and findIcon's other case mixes. An error answer
 * to any other value echoes nothing: it is exact (the documented 404s, `icon.unknown`).
 */
const isFallbackRule = (rule: Rule): boolean =>
  (rule.status === 200 && Object.values(rule.match).some((p) => "present" in p)) || rule.id.endsWith(".any-case");

/**
 * A value none of the sets holds: the first member with a prefix, so still of the content's form (an icon name keeps
 * its image extension: an unknown icon, not an invalid name).
 */
function unknownValue(members: readonly string[]): string {
  const taken = new Set(members.map((m) => m.toLowerCase()));
  const seed = members[0] ?? "x";
  for (let i = 0; ; i += 1) {
    const candidate = `zz${i === 0 ? "" : i}${seed}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

/** The precomputed domain of the API: for each rule that answers exactly, each value it knows (generated, not listed). */
function* domainRequests(table: RouteTable): Generator<VerifyRequest> {
  // For a rule that answers "any other value" exactly (an error that echoes nothing), one value no set holds.
  const others = new Map<string, string>();
  const otherValue = (param: string): string => {
    let value = others.get(param);
    if (value === undefined) {
      const members: string[] = [];
      for (const rule of table.rules) {
        const p = rule.match[param];
        if (p !== undefined && "in" in p) for (const m of p.in) members.push(m);
      }
      value = unknownValue(members);
      others.set(param, value);
    }
    return value;
  };
  for (const rule of table.rules) {
    if (isFallbackRule(rule)) continue;
    const params = Object.entries(rule.match).map(
      ([param, p]) => [param, "eq" in p ? [p.eq] : "in" in p ? p.in : [otherValue(param)]] as const,
    );
    const group = actionOf(rule);
    // Every combination of the params' values, in order, one at a time.
    const pairs: Array<readonly [string, string]> = [];
    function* combos(i: number): Generator<VerifyRequest> {
      if (i === params.length) {
        yield { method: "GET", kind: "api", scope: "precomputed", group, path: API_ENTRY, query: queryOf(pairs) };
        return;
      }
      const [param, values] = params[i]!;
      for (const v of values) {
        pairs[i] = [param, v];
        yield* combos(i + 1);
      }
    }
    yield* combos(0);
  }
}

const upper = (s: string): string => s.toUpperCase();
const capitalized = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const mixed = (s: string): string => [...s].map((c, i) => (i % 2 === 1 ? c.toUpperCase() : c.toLowerCase())).join("");
const pick = <T>(list: readonly T[], n: number): T[] => {
  if (list.length <= n) return [...list];
  return Array.from({ length: n }, (_, i) => list[Math.floor((i * list.length) / n)]!);
};
const setOf = (table: RouteTable, id: string, param: string): string[] => {
  const p = table.rules.find((r) => r.id === id)?.match[param];
  return p !== undefined && "in" in p ? p.in : [];
};

/** Versions older and newer than every manifest version, and between two of them (PHP's version_compare order). */
export function versionProbes(versions: readonly string[]): string[] {
  const sorted = [...versions].sort(versionCompare);
  if (sorted.length === 0) return ["0.0.1", "1.0"];
  const known = new Set(sorted);
  const latest = sorted[sorted.length - 1]!;
  const major = Number(/^\d+/.exec(latest)?.[0] ?? "0");
  const probes = ["0.0.1", `${major + 1}.0`, `${major + 1}0.0.0`, `v${latest}`, `${latest}.1`];
  const between: string[] = [];
  for (let i = 0; i + 1 < sorted.length && between.length < 3; i += 1) {
    const candidate = `${sorted[i]!}.1`;
    if (!known.has(candidate) && versionCompare(candidate, sorted[i + 1]!) < 0) between.push(candidate);
  }
  return [...new Set([...probes, ...between])].filter((v) => !known.has(v));
}

/** Adds one request of the set beyond the domain: its group, what it probes, its query (pairs or text), its method. */
type AddRequest = (
  group: string,
  probe: Probe,
  pairs: Array<readonly [string, string]> | string,
  method?: Method,
) => void;

/** The content's values the set beyond the domain is derived from (the route table's sets). */
interface Values {
  exts: string[];
  settingExts: string[];
  icons: string[];
  versions: string[];
  unknownExt: string;
  someExts: string[];
}

/** The fixed set beyond the domain, derived from the content's values. */
function beyondRequests(table: RouteTable): VerifyRequest[] {
  const out: VerifyRequest[] = [];
  const add: AddRequest = (group, probe, pairs, method = "GET") => {
    out.push({
      method,
      kind: "api",
      scope: "beyond",
      group,
      probe,
      path: API_ENTRY,
      query: typeof pairs === "string" ? pairs : queryOf(pairs),
    });
  };
  const exts = setOf(table, "findIcon.file", "extension").filter((e) => /[a-z]/.test(e));
  const values: Values = {
    exts,
    settingExts: setOf(table, "getExtensionSetting.indexing", "extension"),
    icons: setOf(table, "icon.known", "name"),
    versions: setOf(table, "versionCheck.known", "current_version"),
    unknownExt: unknownValue(exts),
    someExts: pick(exts, 3),
  };
  unknownValueRequests(add, values);
  caseRequests(add, values);
  oddQueryRequests(add, values);
  return out;
}

/** Values the content does not hold: unknown extensions, icon names and types. */
function unknownValueRequests(add: AddRequest, { settingExts, icons, unknownExt }: Values): void {
  add("findIcon", "unknown-value", [
    ["action", "findIcon"],
    ["extension", unknownExt],
  ]);
  add("findIcon", "unknown-value", [
    ["action", "findIcon"],
    ["type", "folder"],
    ["extension", unknownExt],
  ]);
  add("findIcon", "unknown-value", [
    ["action", "findIcon"],
    ["type", "file"],
    ["extension", unknownExt],
  ]);
  for (const type of ["indexing", "viewing", "other"]) {
    add("getExtensionSetting", "unknown-value", [
      ["action", "getExtensionSetting"],
      ["type", type],
      ["extension", unknownValue(settingExts)],
    ]);
  }
  add("getExtensionSetting", "unknown-value", [
    ["action", "getExtensionSetting"],
    ["extension", unknownValue(settingExts)],
  ]);
  for (const ext of pick(settingExts, 2))
    add("getExtensionSetting", "unknown-value", [
      ["action", "getExtensionSetting"],
      ["type", "other"],
      ["extension", ext],
    ]);
  add("icon", "unknown-value", [
    ["action", "icon"],
    ["name", unknownValue(icons)],
  ]);
  add("icon", "unknown-value", [
    ["action", "icon"],
    ["name", "../config.json"],
  ]);
  add("extensionMappings", "unknown-value", [
    ["action", "extensionMappings"],
    ["type", "other"],
  ]);
}

/** Values the content holds, in other cases than its own. */
function caseRequests(add: AddRequest, { someExts, icons }: Values): void {
  for (const ext of someExts) {
    for (const variant of new Set([upper(ext), capitalized(ext), mixed(ext)])) {
      if (variant === ext) continue;
      add("findIcon", "case", [
        ["action", "findIcon"],
        ["extension", variant],
      ]);
      add("getExtensionSetting", "case", [
        ["action", "getExtensionSetting"],
        ["extension", variant],
      ]);
    }
  }
  if (icons[0] !== undefined)
    add("icon", "case", [
      ["action", "icon"],
      ["name", upper(icons[0])],
    ]);
  add("info", "case", [["action", "CONFIG"]]);
  add("info", "case", [["action", "Icons"]]);
}

/** Versions around the manifest's, repeated and PHP-named parameters, encoded names, and other methods. */
function oddQueryRequests(add: AddRequest, { versions, unknownExt, someExts }: Values): void {
  for (const version of versionProbes(versions))
    add("versionCheck", "version", [
      ["action", "versionCheck"],
      ["current_version", version],
    ]);

  const ext = someExts[0] ?? "txt";
  add("config", "repeated", "action=icons&action=config");
  add("findIcon", "repeated", `action=findIcon&extension=${enc(unknownExt)}&extension=${enc(ext)}`);
  add("versionCheck", "php-name", `action=versionCheck&current.version=${enc(versions[0] ?? "1.0")}`);
  add("findIcon", "php-name", `action=findIcon&extension[]=${enc(ext)}`);
  add("getExtensionSetting", "php-name", `action=getExtensionSetting&extension=${enc(ext)}&type[]=viewing`);
  add("config", "encoded", "action=%63onfig");
  add("findIcon", "encoded", `action=findIcon&extension=%${ext.charCodeAt(0).toString(16)}${enc(ext.slice(1))}`);
  add("findIcon", "encoded", `action=findIcon&extension=${enc(ext)}+`);

  add("config", "method", "action=config", "HEAD");
  add("info", "method", "", "OPTIONS");
  add("icons", "method", "action=icons", "OPTIONS");
}

/** The site's files that are asked as plain files: not the answers (asked through /api.php), not the handler's data. */
export const isPlainFile = (file: string): boolean => !file.startsWith("api/") && !isEdgeDataPath(file);

/**
 * Every request for a build, one at a time, always in the same order: its route table and the paths of its plain
 * files (`Build.siteFiles(isPlainFile)` keys). Generated, not listed: a large site has very many.
 */
export function* requestsOf(table: RouteTable, siteFiles: Iterable<string>): Generator<VerifyRequest> {
  yield* domainRequests(table);
  const plain = [...siteFiles].filter(isPlainFile).sort();
  for (const file of plain)
    yield { method: "GET", kind: "file", scope: "precomputed", group: "files", path: sitePathOf(file), query: "" };
  if (plain.includes("index.html"))
    yield { method: "GET", kind: "page", scope: "precomputed", group: "pages", path: "/", query: "" };
  for (const f of INTERNAL_FILES)
    yield { method: "GET", kind: "missing", scope: "precomputed", group: "404s", path: sitePathOf(f), query: "" };
  yield* beyondRequests(table);
}

/** Every request for a build, as a list (`requestsOf`). */
export function requestSet(table: RouteTable, siteFiles: Iterable<string>): VerifyRequest[] {
  return [...requestsOf(table, siteFiles)];
}

/**
 * The site's own pages (the root, index.html, the catalogue's pages): for browsers, not the API. Not asked of the PHP
 * service; on a site, a redirect on the same host is followed for them (Cloudflare serves `/index.html` at `/`).
 */
export const isOwnPage = (r: VerifyRequest): boolean =>
  r.kind === "page" || (r.kind === "file" && (r.path === "/index.html" || r.path.startsWith("/catalogue/")));

/** Without --sample, sites with more requests than this are checked on a sample of this size (seed 1). */
export const DEFAULT_LIMIT = 100_000;

/**
 * `--sample N --seed S` over a sequence that can be generated again: N of its items, in their order, without holding
 * the others (the same N as `sample` of the whole list).
 */
export function sampleOf<T>(generate: () => Iterable<T>, n: number, seed: number): T[] {
  let count = 0;
  for (const _ of generate()) count += 1;
  const chosen = chosenIndexes(count, n, seed);
  const out: T[] = [];
  let i = 0;
  let next = 0;
  for (const item of generate()) {
    if (next === chosen.length) break;
    if (i === chosen[next]) {
      out.push(item);
      next += 1;
    }
    i += 1;
  }
  return out;
}

/** `--sample N --seed S`: a deterministic subset of N requests, in their order (mulberry32). */
export function sample<T>(list: readonly T[], n: number, seed: number): T[] {
  if (n >= list.length) return [...list];
  return Array.from(chosenIndexes(list.length, n, seed), (i) => list[i]!);
}

/** Which n of `length` items a sample keeps, ascending (a partial Fisher–Yates shuffle driven by mulberry32). */
function chosenIndexes(length: number, n: number, seed: number): Int32Array {
  const index = Int32Array.from({ length }, (_, i) => i);
  if (n >= length) return index;
  let state = seed >>> 0;
  const random = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = 0; i < n; i += 1) {
    const j = i + Math.floor(random() * (length - i));
    const swap = index[i]!;
    index[i] = index[j]!;
    index[j] = swap;
  }
  return index.slice(0, n).sort();
}

/** The full URL of a request on the target (the target may live under a path: https://host/indexer/). */
export function urlOf(target: URL, request: VerifyRequest): URL {
  const base = target.href.endsWith("/") ? target.href : `${target.href}/`;
  return new URL(`${request.path.slice(1)}${request.query === "" ? "" : `?${request.query}`}`, base);
}
