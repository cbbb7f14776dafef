// src/diff/compare-sites.ts
// The pure core of `diff`: two site descriptions → what a client will see change. No I/O; the order of every list
// is fixed (byte order of names, manifest order of versions), so the same two sites always give the same report.

import { versionCompare } from "../model/version-compare.js";
import { asciiLower, isIconName, sortBytes } from "../model/types.js";
import {
  fileIcon,
  folderIcon,
  type IconFile,
  type ResolvedIcon,
  type SiteDescription,
  type SourceKind,
  type VersionAnswer,
} from "./site.js";

export type { VersionAnswer } from "./site.js";

/** The kinds of change `--fail-on` names. */
export const CHANGE_KINDS = [
  "added-icon",
  "removed-icon",
  "changed-icon",
  "changed-mapping",
  "changed-setting",
  "added-version",
  "removed-version",
  "changed-version-check",
  "changed-config",
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface IconEntry extends IconFile {
  name: string;
}

export interface IconChange {
  name: string;
  old: IconFile;
  new: IconFile;
}

/** An extension or file name whose icon changes. */
export interface MappingChange {
  name: string;
  old: ResolvedIcon;
  new: ResolvedIcon;
}

/** An extension whose setting key (extensionMap.json) changes; null: not mapped. */
export interface SettingChange {
  extension: string;
  old: string | null;
  new: string | null;
}

export interface VersionCheckChange {
  version: string;
  old: VersionAnswer;
  new: VersionAnswer;
}

/** One changed place in config.json, by JSON Pointer (RFC 6901). */
export interface ConfigChange {
  pointer: string;
  op: "added" | "removed" | "changed";
  old?: unknown;
  new?: unknown;
}

export interface SiteDiff {
  old: { source: string; kind: SourceKind };
  new: { source: string; kind: SourceKind };
  icons: { added: IconEntry[]; removed: IconEntry[]; changed: IconChange[] };
  /**
   * Extensions and file names whose icon changes (findIcon&type=file), each in the groups it belongs to: `indexing`
   * and `viewing` (extensionMap.json's sections, on either side), `other` (names only icons.json knows). `folder` is
   * type=folder, `unmapped` any extension neither side maps (the default icon).
   */
  mappings: {
    indexing: MappingChange[];
    viewing: MappingChange[];
    other: MappingChange[];
    folder: MappingChange | null;
    unmapped: MappingChange | null;
  };
  settings: { indexing: SettingChange[]; viewing: SettingChange[] };
  versions: {
    /** False when either side cannot list its versions (a URL without catalogue data): added and removed are then empty. */
    listed: boolean;
    /** When not listed: why, for each side that cannot list them (with its source). */
    unknown: Array<{ source: string; reason: string }>;
    added: string[];
    removed: string[];
    latest: { old: string; new: string };
    /** Each client version (listed on either side) whose versionCheck answer changes. */
    checks: VersionCheckChange[];
  };
  config: ConfigChange[];
  counts: Record<ChangeKind, number>;
}

export function diffSites(a: SiteDescription, b: SiteDescription): SiteDiff {
  const icons = diffIcons(a, b);
  const mappings = diffMappings(a, b);
  const settings = { indexing: diffSettings(a.indexing, b.indexing), viewing: diffSettings(a.viewing, b.viewing) };
  const versions = diffVersions(a, b);
  const config = diffJson(a.config, b.config);
  const names = new Set([...mappings.indexing, ...mappings.viewing, ...mappings.other].map((m) => m.name));
  const counts: Record<ChangeKind, number> = {
    "added-icon": icons.added.length,
    "removed-icon": icons.removed.length,
    "changed-icon": icons.changed.length,
    "changed-mapping": names.size + (mappings.folder === null ? 0 : 1) + (mappings.unmapped === null ? 0 : 1),
    "changed-setting": settings.indexing.length + settings.viewing.length,
    "added-version": versions.added.length,
    "removed-version": versions.removed.length,
    "changed-version-check": versions.checks.length,
    "changed-config": config.length,
  };
  return {
    old: { source: a.source, kind: a.kind },
    new: { source: b.source, kind: b.kind },
    icons,
    mappings,
    settings,
    versions,
    config,
    counts,
  };
}

/** Whether the diff has a change of any of these kinds. */
export const hasAny = (diff: SiteDiff, kinds: readonly ChangeKind[]): boolean => kinds.some((k) => diff.counts[k] > 0);

const sortedNames = (names: Iterable<string>): string[] => sortBytes([...new Set(names)]);

function diffIcons(a: SiteDescription, b: SiteDescription): SiteDiff["icons"] {
  const out: SiteDiff["icons"] = { added: [], removed: [], changed: [] };
  for (const name of sortedNames([...a.files.keys(), ...b.files.keys()])) {
    if (!isIconName(name)) continue; // what the icons action lists
    const x = a.files.get(name);
    const y = b.files.get(name);
    if (x === undefined && y !== undefined) out.added.push({ name, ...y });
    else if (x !== undefined && y === undefined) out.removed.push({ name, ...x });
    else if (x !== undefined && y !== undefined && (x.sha1 !== y.sha1 || x.size !== y.size))
      out.changed.push({ name, old: x, new: y });
  }
  return out;
}

const sameIcon = (x: ResolvedIcon, y: ResolvedIcon): boolean => x.icon === y.icon && x.missing === y.missing;

function diffMappings(a: SiteDescription, b: SiteDescription): SiteDiff["mappings"] {
  const lower = (m: ReadonlyMap<string, string>): string[] => [...m.keys()].map(asciiLower);
  const indexing = new Set([...lower(a.indexing), ...lower(b.indexing)]);
  const viewing = new Set([...lower(a.viewing), ...lower(b.viewing)]);
  const out: SiteDiff["mappings"] = { indexing: [], viewing: [], other: [], folder: null, unmapped: null };
  // Every name a client can look up with a mapped answer on either side ("folder" is type=folder's, below).
  for (const name of sortedNames([...lower(a.iconMap), ...lower(b.iconMap), ...indexing, ...viewing])) {
    if (name === "folder") continue;
    const x = fileIcon(a, name);
    const y = fileIcon(b, name);
    if (sameIcon(x, y)) continue;
    const change = { name, old: x, new: y };
    if (indexing.has(name)) out.indexing.push(change);
    if (viewing.has(name)) out.viewing.push(change);
    if (!indexing.has(name) && !viewing.has(name)) out.other.push(change);
  }
  const fa = folderIcon(a);
  const fb = folderIcon(b);
  if (!sameIcon(fa, fb)) out.folder = { name: "folder", old: fa, new: fb };
  const ua = fileIcon(a, null);
  const ub = fileIcon(b, null);
  if (!sameIcon(ua, ub)) out.unmapped = { name: "(unmapped)", old: ua, new: ub };
  return out;
}

function diffSettings(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): SettingChange[] {
  const out: SettingChange[] = [];
  // getExtensionSetting looks the extension up lower-cased: a key with capitals is never found.
  const reachable = (m: ReadonlyMap<string, string>, ext: string): string | null => m.get(ext) ?? null;
  for (const ext of sortedNames([...a.keys(), ...b.keys()].map(asciiLower))) {
    const x = reachable(a, ext);
    const y = reachable(b, ext);
    if (x !== y) out.push({ extension: ext, old: x, new: y });
  }
  return out;
}

/** versionCheck's answer for a client on `version` (PHP's version_compare against the latest). */
export const versionAnswer = (version: string, latest: string): VersionAnswer => ({
  updateNeeded: versionCompare(version, latest) < 0,
  latest,
});

/** The client versions whose versionCheck answers are compared: every version either side lists, and both latest. */
export const clientVersions = (a: SiteDescription, b: SiteDescription): string[] =>
  [...new Set([...(b.versions ?? []), ...(a.versions ?? []), a.latestVersion, b.latestVersion])].filter(
    (v) => v !== "" && v !== "0",
  );

function diffVersions(a: SiteDescription, b: SiteDescription): SiteDiff["versions"] {
  const listed = a.versions !== null && b.versions !== null;
  const olds = new Set(a.versions ?? []);
  const news = new Set(b.versions ?? []);
  // Manifest order: the new site's versions, then those only the old one lists.
  const checks: VersionCheckChange[] = [];
  for (const version of clientVersions(a, b)) {
    const x = a.versionAnswers?.get(version) ?? versionAnswer(version, a.latestVersion);
    const y = b.versionAnswers?.get(version) ?? versionAnswer(version, b.latestVersion);
    if (x.updateNeeded !== y.updateNeeded || x.latest !== y.latest) checks.push({ version, old: x, new: y });
  }
  const unknown = [a, b]
    .filter((s) => s.versions === null)
    .map((s) => ({
      source: s.source,
      reason: s.versionsUnknown ?? `${s.source} does not list the client versions it serves.`,
    }));
  return {
    listed,
    unknown,
    added: listed ? [...news].filter((v) => !olds.has(v)) : [],
    removed: listed ? [...olds].filter((v) => !news.has(v)) : [],
    latest: { old: a.latestVersion, new: b.latestVersion },
    checks,
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const pointerToken = (key: string): string => key.replaceAll("~", "~0").replaceAll("/", "~1");

/** Every place where two JSON values differ, by JSON Pointer: objects key by key (the new key order), anything else whole. */
export function diffJson(a: unknown, b: unknown, pointer = ""): ConfigChange[] {
  if (isObject(a) && isObject(b)) {
    const out: ConfigChange[] = [];
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const key of keys) {
      const p = `${pointer}/${pointerToken(key)}`;
      const has = (o: Record<string, unknown>): boolean => Object.prototype.hasOwnProperty.call(o, key);
      if (!has(a)) out.push({ pointer: p, op: "added", new: b[key] });
      else if (!has(b)) out.push({ pointer: p, op: "removed", old: a[key] });
      else out.push(...diffJson(a[key], b[key], p));
    }
    return out;
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [{ pointer, op: "changed", old: a, new: b }];
}
