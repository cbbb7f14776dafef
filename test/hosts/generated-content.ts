// test/hosts/generated-content.ts
// Random content within what the reference PHP service and the build both accept, from a seed: extension keys, icon
// file names and versions with reserved, non-ASCII and control-adjacent characters; config.json with PHP list-like
// objects ({"0":…,"1":…}, {}), number literals of every form, control characters in keys and values, and nesting at
// PHP's limit (511 levels); odd versions. Also the requests to ask about it: the API actions over the generated
// values, sent raw (as fetch sends them) and percent-encoded, with what each probes beyond the precomputed domain.

import { prng } from "../../scripts/prng.mjs";
import { parsePhpQuery } from "../../src/php/php-request.js";
import type { Probe } from "../../src/verify/fallbacks.js";
import { GIF, PNG, SVG } from "../helpers/base-content.js";

/** The base URL the reference service writes into its answers (it is hard-coded in api.php). */
export const REFERENCE_BASE_URL = "https://api.indexer.ccls.icu";
/** json_decode's default depth (512) admits this many nested arrays and objects. */
export const PHP_NESTING = 511;

const PLAIN = [..."abcdefghijklmnopqrstuvwxyz0123456789"];
const UPPER = [..."ABCQXZ"];
// Every printable ASCII character that is not a letter or digit, the space included.
const RESERVED = [..." !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"];
const NON_ASCII = ["é", "ü", "ß", "Ä", "İ", "ı", "中", "文", "😀", "Ω", "ﬁ", "K"];
// Next to the control characters, and accepted everywhere: C1 controls, NBSP, separators, BOM, specials.
const CONTROL_ADJACENT = ["\u0080", "\u0085", "\u009f", "\u00a0", "\u200b", "\u2028", "\u2029", "\ufeff", "\ufffd"];
// Only config.json may hold these: no URL, file name or host config can carry them (the build refuses such keys).
const CONTROLS = ["\u0000", "\u0001", "\t", "\n", "\r", "\u001b", "\u001f", "\u007f"];
// Number literals as written, each read by PHP as an int or a float and printed back its own way.
const NUMBERS = [
  "0", "-0", "1", "-1", "1.0", "-0.0", "2.50", "0.1", "1e2", "1E2", "1.5e300", "1e-7", "1E-7", "0.0001", "0.00001",
  "1e15", "1e16", "1e17", "100000000000000000000.0", "123.456", "9007199254740991", "-9007199254740991",
  "5e-324", "1.7976931348623157e308", "0.1e1", "12345.6789e-3",
]; // prettier-ignore
// Always among the keys (and in both extensionMap sections unless a section is {} or a list), whatever the seed:
// raw, each reaches PHP as itself ("%" alone, "%z") or as another value; two with a leading dot, which the answer
// files' names escape although nginx's fast path takes them.
const FIXED_KEYS = ["100%", "%zz", "%41x", "a+b", "x&y", "c#", "k=v", "a;b", "é", "İx", "sp ace", "0", "00", ".gq", ".Z",
  "__proto__", "constructor"]; // prettier-ignore
const VERSION_TOKENS = ["1.2.0-r2", "01.1", "2.0.0+build", "1.0_rc1", "v3", "1..5", "0", "1.2.0-R2", "10.0a", "1.0pl1"];

export interface Generated {
  /** Content files by path ("icons/a.png"). */
  files: Map<string, string | Buffer>;
  /** The choices this seed made that few seeds make ("icons.json list-like", "deep 511"), for the run's summary. */
  features: string[];
  requests: GeneratedRequest[];
}

export interface GeneratedRequest {
  method: string;
  /** The query as it is put into the URL (fetch then encodes what WHATWG's URL parser encodes). */
  query: string;
  /** What it probes beyond the precomputed domain, when it does (a documented static fallback may answer it). */
  probe?: Probe;
}

type Next = () => number;
const pick = <T>(next: Next, list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
const asciiLower = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** A key of `length` characters, most plain, some from the hostile pools. */
function randomText(next: Next, length: number, pools: ReadonlyArray<readonly string[]>): string {
  let text = "";
  for (let i = 0; i < length; i++) text += pick(next, next() < 0.45 ? PLAIN : pick(next, pools));
  return text;
}

/** `count` texts, distinct in ASCII lower case (the build refuses case twins), none empty. */
function distinct(next: Next, count: number, make: () => string, taken = new Set<string>()): string[] {
  const out: string[] = [];
  for (let tries = 0; out.length < count && tries < count * 20; tries++) {
    const text = make();
    if (text === "" || taken.has(asciiLower(text))) continue;
    taken.add(asciiLower(text));
    out.push(text);
  }
  return out;
}

const LOOKUP_POOLS = [RESERVED, RESERVED, NON_ASCII, CONTROL_ADJACENT, UPPER];

/** A JSON text writer that keeps number literals as written (JSON.stringify would print them its own way). */
type Tree = string | boolean | null | { num: string } | Tree[] | { obj: Array<[string, Tree]> };
function jsonText(tree: Tree, indent = ""): string {
  if (tree === null || typeof tree === "boolean" || typeof tree === "string") return JSON.stringify(tree);
  if (!Array.isArray(tree) && "num" in tree) return tree.num;
  const inner = `${indent}  `;
  if (!Array.isArray(tree)) {
    if (tree.obj.length === 0) return "{}";
    const lines = tree.obj.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${jsonText(v, inner)}`);
    return `{\n${lines.join(",\n")}\n${indent}}`;
  }
  if (tree.length === 0) return "[]";
  return `[\n${tree.map((v) => `${inner}${jsonText(v, inner)}`).join(",\n")}\n${indent}]`;
}
const obj = (entries: Array<[string, Tree]>): Tree => ({ obj: entries });

/** A chain of containers whose innermost is at nesting level `levels` (counted from this value, 1). */
function deepChain(next: Next, levels: number): Tree {
  let tree: Tree = obj([["bottom", { num: pick(next, NUMBERS) }]]);
  for (let level = levels - 1; level >= 1; level--) {
    const r = next();
    tree = r < 0.4 ? [tree] : r < 0.7 ? obj([["0", tree]]) : obj([[randomText(next, 2, [RESERVED, NON_ASCII]), tree]]);
  }
  return tree;
}

/** config.json: the required sections with odd keys and values, PHP list-like objects, and the deep chain. */
function configTree(next: Next, version: string, count: number, settings: string[], features: string[]): Tree {
  const configKey = (): string => randomText(next, 1 + Math.floor(next() * 6), [...LOOKUP_POOLS, CONTROLS]);
  const value = (): Tree => {
    const r = next();
    if (r < 0.35) return { num: pick(next, NUMBERS) };
    if (r < 0.5) return next() < 0.5;
    return randomText(next, Math.floor(next() * 8), [...LOOKUP_POOLS, CONTROLS]);
  };
  const main = distinct(next, count, configKey).map((k): [string, Tree] => [k, value()]);
  const exclusions = settings.filter((s) => s.startsWith("index_")).map((k): [string, Tree] => [k, next() < 0.5]);
  const viewable = settings.filter((s) => s.startsWith("view_")).map((k): [string, Tree] => [k, next() < 0.5]);
  const numbers = NUMBERS.map((n): Tree => ({ num: n }));
  // The top level is level 1 and "deep" level 2: its innermost container is at PHP's limit, or just under it.
  const deepest = PHP_NESTING - 1 - (next() < 0.6 ? 0 : Math.floor(next() * 3));
  features.push(`nesting ${deepest + 1}`);
  return obj([
    ["version", version],
    ["main", obj(main)],
    ["exclusions", next() < 0.15 ? obj([]) : obj(exclusions)],
    ["viewable_files", obj(viewable)],
    [
      "seq",
      obj([
        ["0", "a"],
        ["1", { num: "1.0" }],
        ["2", obj([])],
      ]),
    ],
    ["empty", obj([])],
    [
      "not_seq",
      obj([
        ["1", "a"],
        ["0", "b"],
      ]),
    ],
    [
      "gap",
      obj([
        ["0", "a"],
        ["2", "b"],
      ]),
    ],
    ["zero_pad", obj([["00", "a"]])],
    ["nested", obj([["0", obj([["0", obj([])]])]])],
    ["list", [obj([]), obj([["0", null]]), [], numbers]],
    ["numbers", numbers],
    ["deep", deepChain(next, deepest)],
    ...distinct(next, Math.ceil(count / 2), configKey).map((k): [string, Tree] => [k, value()]),
  ]);
}

/** An icon file's name: a random stem with an image extension (any case), or another kind of file. */
function iconName(next: Next): string {
  const stem = randomText(next, 1 + Math.floor(next() * 6), [RESERVED.filter((c) => c !== "/"), NON_ASCII, UPPER]);
  const ext = pick(next, ["png", "png", "svg", "gif", "PNG", "Svg", "txt"]);
  // Left out: dot files, which the build does not publish although PHP lists them (docs/deploy.md says so).
  const name = `${stem}.${ext}`;
  return name.startsWith(".") ? `x${name}` : name;
}

const imageOf = (name: string): string | Buffer =>
  /\.svg$/i.test(name) ? SVG : /\.gif$/i.test(name) ? GIF : /\.png$/i.test(name) ? PNG : "not an image\n";

/** The values the requests are made of, and what the content holds (the reference's lookups). */
interface Parts {
  extensions: string[];
  unknown: string[];
  icons: string[];
  versions: string[];
  oddVersions: string[];
  /** icons.json's keys, extensionMap's sections' keys, icons/'s top-level file names. */
  known: { icons: Set<string>; indexing: Set<string>; viewing: Set<string>; files: Set<string> };
}

function contentFiles(
  next: Next,
  count: number,
): { files: Map<string, string | Buffer>; features: string[]; parts: Parts } {
  const lookupKey = (): string => randomText(next, 1 + Math.floor(next() * 7), LOOKUP_POOLS);
  const taken = new Set(["folder", "file", ...FIXED_KEYS.map(asciiLower)]);
  const extensions = [...distinct(next, count, lookupKey, taken), ...FIXED_KEYS, "folder", "file"];
  const unknown = distinct(next, Math.ceil(count / 3), lookupKey, new Set(taken));
  const icons = distinct(next, Math.ceil(count / 2), () => iconName(next), new Set(["text.png", "folder.png"]));
  const versionOf = (): string => randomText(next, 1 + Math.floor(next() * 6), [[..."0123456789.-"], ...LOOKUP_POOLS]);
  const versions = distinct(next, Math.ceil(count / 3), versionOf);
  const oddVersions = distinct(next, Math.ceil(count / 3), versionOf, new Set(versions.map(asciiLower)));
  const configVersion = pick(next, VERSION_TOKENS);
  if (next() < 0.8 && !versions.includes(configVersion)) versions.push(configVersion);
  // icons.json may name only plain file names: the build refuses "\\" (a folder on Windows) and hidden files there.
  const images = [...icons, "text.png", "folder.png"].filter((n) => /\.(png|svg|gif)$/i.test(n) && !/^\.|\\/.test(n));
  const iconOf = (): string => (next() < 0.85 ? pick(next, images) : `missing-${Math.floor(next() * 100)}.png`);
  // Now and then a PHP list: keys 0…n-1 in order, which PHP prints as a list (iconMappings, extensionMappings).
  const listLike = (n: number): string[] => Array.from({ length: n }, (_, i) => String(i));
  const features: string[] = [];
  const shape = next();
  if (shape < 0.25) features.push(shape < 0.05 ? "icons.json {}" : "icons.json list-like");
  const iconKeys = shape < 0.05 ? [] : shape < 0.25 ? listLike(count) : extensions;
  const iconMap = iconKeys.map((e): [string, Tree] => [e, iconOf()]);
  const settings = new Set<string>();
  const known = { icons: new Set(iconMap.map(([k]) => k)), indexing: new Set<string>(), viewing: new Set<string>() };
  const section = (prefix: string, keys: Set<string>): Tree => {
    const r = next();
    if (r < 0.3) features.push(`${prefix}* ${r < 0.1 ? "{}" : "list-like"}`);
    const chosen =
      r < 0.1 ? [] : r < 0.3 ? listLike(count) : extensions.filter((e) => FIXED_KEYS.includes(e) || next() < 0.7);
    for (const k of chosen) keys.add(k);
    return obj(chosen.map((e): [string, Tree] => [e, settingOf(next, prefix, settings)]));
  };
  const files = new Map<string, string | Buffer>();
  files.set("manifest.json", manifestText(next, versions));
  files.set(
    "extensionMap.json",
    jsonText(
      obj([
        ["indexing", section("index_", known.indexing)],
        ["viewing", section("view_", known.viewing)],
      ]),
    ),
  );
  files.set("icons.json", jsonText(obj(iconMap)));
  files.set("config.json", jsonText(configTree(next, configVersion, count, [...settings], features)));
  if (!versions.includes(configVersion)) features.push("config's version not in the manifest");
  files.set("config-reference.txt", `Reference\r\n${randomText(next, 40, [NON_ASCII, RESERVED, ["\t"]])}\r\n`);
  for (const name of [...icons, "text.png", "folder.png"]) files.set(`icons/${name}`, imageOf(name));
  files.set("icons/sub/deep.png", PNG);
  const iconFiles = new Set([...icons, "text.png", "folder.png"]);
  return {
    files,
    features,
    parts: { extensions, unknown, icons, versions, oddVersions, known: { ...known, files: iconFiles } },
  };
}

/** An extensionMap value: `index_` or `view_` and a key of the form the schema asks, shared with config.json. */
function settingOf(next: Next, prefix: string, settings: Set<string>): string {
  const value = `${prefix}${pick(next, PLAIN)}${randomText(next, Math.floor(next() * 4), [[..."._+-"], UPPER])}`;
  settings.add(value);
  return value;
}

function manifestText(next: Next, versions: string[]): string {
  return `${JSON.stringify(
    {
      base_url: REFERENCE_BASE_URL,
      service: "Indexer API",
      service_version: pick(next, VERSION_TOKENS),
      description: "API for the custom indexer project",
      versions,
    },
    null,
    2,
  )}\n`;
}

/** Generates the content for `seed`, `count` values of each kind (a few more of the fixed cases). */
export function generate(seed: number, count: number): Generated {
  const next = prng(seed);
  const { files, features, parts } = contentFiles(next, count);
  return { files, features, requests: requestsOf(next, parts) };
}

const enc = encodeURIComponent;
/** Every UTF-8 byte percent-encoded, letters and digits too (`%70hp`): nginx and Apache match the raw query. */
const overEncoded = (s: string): string =>
  [...Buffer.from(s, "utf8")].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("");
/** A variant in other ASCII case, or null when it has no letter to change. */
const otherCase = (s: string): string | null => {
  const up = s.replace(/[a-z]/g, (c) => c.toUpperCase());
  return up !== s ? up : s !== asciiLower(s) ? asciiLower(s) : null;
};

/**
 * What a request probes beyond the precomputed domain, judged by what PHP reads from the query as fetch sends it
 * (WHATWG's URL parser encodes some characters; raw, a value with `+ & # %` reaches PHP as another value) and what
 * the content holds: a value none of the reference's lookups finds, a case variant of one it finds, a version the
 * manifest does not list. Undefined: every host must answer it exactly.
 */
function probeOf(query: string, parts: Parts): Probe | undefined {
  const q = parsePhpQuery(new URL(`http://h/api.php?${query}`).search.slice(1));
  const seen = (name: string): string | undefined => {
    const v = q.get(name);
    return typeof v === "string" ? v : undefined;
  };
  const lookup = (keys: Set<string>, value: string | undefined): Probe | undefined => {
    if (value === undefined || value === "" || value === "0") return undefined; // PHP's empty(): an exact 400
    if (!keys.has(asciiLower(value))) return "unknown-value";
    return value === asciiLower(value) ? undefined : "case";
  };
  const { known } = parts;
  switch (seen("action")) {
    case "findIcon":
      return lookup(known.icons, seen("extension"));
    case "getExtensionSetting": {
      const type = seen("type") ?? "indexing";
      if (type !== "indexing" && type !== "viewing") return "unknown-value";
      return lookup(type === "indexing" ? known.indexing : known.viewing, seen("extension"));
    }
    case "icon": {
      const name = seen("name");
      return name === undefined || name === "" || name === "0" || known.files.has(name) ? undefined : "unknown-value";
    }
    case "versionCheck": {
      const v = seen("current_version");
      return v === undefined || v === "" || v === "0" || parts.versions.includes(v) ? undefined : "version";
    }
    default:
      return undefined;
  }
}

/** The whole-site answers, in a few methods and with PHP's query quirks. */
const WHOLE = [
  "",
  "action=config",
  "action=icons",
  "action=iconMappings",
  "action=extensionMappings",
  "action=extensionMappings&type=indexing",
  "action=extensionMappings&type=viewing",
  "action=extensionMappings&type=bogus",
  "action=status",
  "action=configReference",
  "action=Config",
  "action=config&action=status",
  "action=versionCheck",
  "action=icon",
  "action=findIcon&type=folder",
  "action=getExtensionSetting",
];

/** The requests over the generated values: raw and encoded, their other case, and values the content lacks. */
function requestsOf(next: Next, parts: Parts): GeneratedRequest[] {
  const out: GeneratedRequest[] = [];
  const add = (query: string, method = "GET", probe = probeOf(query, parts)): void => {
    out.push({ method, query, ...(probe === undefined ? {} : { probe }) });
  };
  for (const q of WHOLE) add(q);
  // Letters or digits percent-encoded: nginx and Apache match the raw query (the raw-query fallback).
  add("action=%63onfig", "GET", "encoded");
  // Names PHP rewrites (`.` and a space become `_`, `[]` makes an array): a static host reads them as sent.
  const v = enc(parts.versions[0] ?? "1.0");
  for (const q of [`current.version=${v}`, `current%20version=${v}`, `current_version[]=${v}`])
    add(`action=versionCheck&${q}`, "GET", "php-name");
  add(`action=findIcon&extension[]=${enc(parts.extensions[0]!)}`, "GET", "php-name");
  for (const q of ["action=config", "action=icons", `action=findIcon&extension=${enc(parts.extensions[0]!)}`]) {
    add(q, "POST");
    add(q, "HEAD");
  }
  const lookups = (value: string): void => {
    const type = next() < 0.5 ? "indexing" : "viewing";
    for (const v of [value, enc(value)]) {
      add(`action=findIcon&extension=${v}`);
      add(`action=getExtensionSetting&type=${type}&extension=${v}`);
    }
    if (next() < 0.3) add(`action=findIcon&type=folder&extension=${enc(value)}`);
    if (next() < 0.3) add(`action=getExtensionSetting&extension=${enc(value)}`);
  };
  for (const e of [...parts.extensions, ...parts.unknown]) {
    lookups(e);
    const other = otherCase(e);
    if (other !== null) add(`action=findIcon&extension=${enc(other)}`);
    if (/[A-Za-z0-9]/.test(e) && next() < 0.5) add(`action=findIcon&extension=${overEncoded(e)}`, "GET", "encoded");
  }
  for (const name of [...parts.icons, "sub/deep.png", "../text.png", "nope.png", "x.txt"]) {
    add(`action=icon&name=${name}`);
    add(`action=icon&name=${enc(name)}`);
    const other = otherCase(name);
    if (other !== null && next() < 0.5) add(`action=icon&name=${enc(other)}`);
  }
  for (const v of parts.versions) {
    add(`action=versionCheck&current_version=${v}`);
    add(`action=versionCheck&current_version=${enc(v)}`);
  }
  for (const v of [...parts.oddVersions, "1.0%00", "%00zz", "9".repeat(30), "1.2.0-r2 ", "+", "00", "1.0#x"])
    add(`action=versionCheck&current_version=${v}`);
  return out;
}
