// src/diff/render.ts
// A SiteDiff as text: Markdown for a pull-request comment or $GITHUB_STEP_SUMMARY (counts first, long lists folded in
// <details>), plain lines for a terminal, and JSON for tools. Pure.

import type {
  ChangeKind,
  ConfigChange,
  IconChange,
  IconEntry,
  MappingChange,
  SettingChange,
  SiteDiff,
  VersionCheckChange,
} from "./compare-sites.js";
import type { IconFile, ResolvedIcon } from "./site.js";

export const FORMATS = ["text", "md", "json"] as const;
export type Format = (typeof FORMATS)[number];

/** Lists longer than this are folded in <details> (Markdown). */
export const FOLD_AFTER = 10;

/**
 * The report's JSON (`--format json`): the diff with a format number tools can check, and the kinds it could not
 * compare (`notCompared`: their counts are 0 for want of data, not for want of change).
 */
export const renderJson = (diff: SiteDiff): string =>
  JSON.stringify({ diffFormat: 1, ...diff, notCompared: notCompared(diff) }, null, 2);

const LABELS: Record<ChangeKind, string> = {
  "added-icon": "Icons added",
  "removed-icon": "Icons removed",
  "changed-icon": "Icons changed (bytes or dimensions)",
  "changed-mapping": "Extensions and names whose icon changes",
  "changed-setting": "Extension settings changed",
  "added-version": "Versions added",
  "removed-version": "Versions removed",
  "changed-version-check": "Client versions whose versionCheck answer changes",
  "changed-config": "config.json keys changed",
};

export const totalChanges = (diff: SiteDiff): number => Object.values(diff.counts).reduce((a, b) => a + b, 0);

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
const bytes = (n: number): string => `${n.toLocaleString("en-US")} B`;
const dims = (f: IconFile): string => (f.width === null || f.height === null ? "?" : `${f.width}×${f.height}`);
const json = (v: unknown): string => (v === undefined ? "(none)" : JSON.stringify(v));

/** The icon a lookup gets, in words: "a.png", "text.png (b.png is missing)", "none (404)". */
export function iconWords(r: ResolvedIcon, code: (s: string) => string = (s) => s): string {
  const served = r.icon === null ? "no icon (404)" : code(r.icon);
  return r.missing === undefined ? served : `${served} (${code(r.missing)} is missing)`;
}

/** What the versionCheck change means for those clients, as a sentence. */
export function versionSentence(c: VersionCheckChange, code: (s: string) => string = (s) => s): string {
  const on = `Clients on ${code(c.version)}`;
  if (!c.old.updateNeeded && c.new.updateNeeded) return `${on} will now be told to update (to ${code(c.new.latest)}).`;
  if (c.old.updateNeeded && !c.new.updateNeeded) {
    return `${on} will no longer be told to update (they were told to update to ${code(c.old.latest)}).`;
  }
  if (c.old.updateNeeded)
    return `${on} will be told to update to ${code(c.new.latest)} instead of ${code(c.old.latest)}.`;
  return `${on} are still up to date; the latest version they are told of changes from ${code(c.old.latest)} to ${code(c.new.latest)}.`;
}

const settingWords = (s: string | null, code: (s: string) => string): string => (s === null ? "(not mapped)" : code(s));

// ---------------------------------------------------------------------------------------------------- Markdown

/** Inline code that survives backticks and table pipes in the value. */
export function mdCode(s: string): string {
  const ticks = Math.max(0, ...[...s.matchAll(/`+/g)].map((m) => m[0].length)) + 1;
  const fence = "`".repeat(ticks);
  const pad = s.startsWith("`") || s.endsWith("`") ? " " : "";
  return `${fence}${pad}${s.replaceAll("|", "\\|")}${pad}${fence}`;
}

/** HTML text (in <summary>). */
const html = (s: string): string => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/** A list under a heading line: shown as it is when short, folded in <details> when long. */
function mdBlock(summary: string, body: string[], count: number): string[] {
  if (count === 0) return [];
  if (count <= FOLD_AFTER) return [`**${summary}**`, "", ...body, ""];
  return [`<details><summary>${html(summary)}</summary>`, "", ...body, "", "</details>", ""];
}

const mdIconRows = (list: IconEntry[]): string[] => [
  "| icon | bytes | dimensions |",
  "|---|--:|---|",
  ...list.map((i) => `| ${mdCode(i.name)} | ${bytes(i.size)} | ${dims(i)} |`),
];

const mdChangedRows = (list: IconChange[]): string[] => [
  "| icon | bytes | dimensions |",
  "|---|--:|---|",
  ...list.map((c) => {
    const size =
      c.old.size === c.new.size
        ? `${bytes(c.new.size)} (same size, other bytes)`
        : `${bytes(c.old.size)} → ${bytes(c.new.size)}`;
    const d = dims(c.old) === dims(c.new) ? dims(c.new) : `${dims(c.old)} → ${dims(c.new)}`;
    return `| ${mdCode(c.name)} | ${size} | ${d} |`;
  }),
];

const mdMapping = (m: MappingChange): string =>
  `- ${mdCode(m.name)}: ${iconWords(m.old, mdCode)} → ${iconWords(m.new, mdCode)}`;
const mdSetting = (s: SettingChange): string =>
  `- ${mdCode(s.extension)}: ${settingWords(s.old, mdCode)} → ${settingWords(s.new, mdCode)}`;

function configLines(list: ConfigChange[]): string[] {
  const lines: string[] = [];
  for (const c of list) {
    if (c.op !== "added") lines.push(`- ${c.pointer}: ${json(c.old)}`);
    if (c.op !== "removed") lines.push(`+ ${c.pointer}: ${json(c.new)}`);
  }
  return lines;
}

/** The kinds a diff could not compare (versions added and removed, when a side does not list its versions). */
export const notCompared = (diff: SiteDiff): ChangeKind[] =>
  diff.versions.listed ? [] : ["added-version", "removed-version"];

/** Why versions were not compared, in sentences (empty when they were). */
export function versionsNotComparedLines(diff: SiteDiff): string[] {
  if (diff.versions.listed) return [];
  return [
    ...new Set(diff.versions.unknown.map((u) => u.reason)),
    "Versions added and removed could not be compared; versionCheck answers are compared only for the versions the other side lists and both latest versions.",
  ];
}

export function renderMarkdown(diff: SiteDiff): string {
  const out: string[] = [
    `## What clients will see change: ${mdCode(diff.old.source)} → ${mdCode(diff.new.source)}`,
    "",
  ];
  const total = totalChanges(diff);
  const unknown = versionsNotComparedLines(diff);
  const unknownNote = unknown.length === 0 ? [] : [`**Versions could not be compared.** ${unknown.join(" ")}`, ""];
  if (total === 0) {
    out.push("No change a client can see.", "", ...unknownNote);
    while (out.at(-1) === "") out.pop();
    return `${out.join("\n")}\n`;
  }
  out.push("| change | count |", "|---|--:|");
  const skipped = notCompared(diff);
  for (const [kind, label] of Object.entries(LABELS) as Array<[ChangeKind, string]>) {
    out.push(`| ${label} | ${skipped.includes(kind) ? "not compared" : diff.counts[kind]} |`);
  }
  out.push("", ...unknownNote);
  out.push(...mdIcons(diff), ...mdMappings(diff), ...mdSettings(diff), ...mdVersions(diff));
  if (diff.config.length > 0) {
    out.push("### config.json", "");
    const body = ["```diff", ...configLines(diff.config), "```"];
    out.push(...mdBlock(`${plural(diff.config.length, "key")} changed`, body, diff.config.length));
  }
  while (out.at(-1) === "") out.pop();
  return `${out.join("\n")}\n`;
}

function mdIcons({ icons }: SiteDiff): string[] {
  const out: string[] = [];
  if (icons.added.length + icons.removed.length + icons.changed.length > 0) {
    out.push("### Icons", "");
    out.push(...mdBlock(`${plural(icons.added.length, "icon")} added`, mdIconRows(icons.added), icons.added.length));
    out.push(
      ...mdBlock(`${plural(icons.removed.length, "icon")} removed`, mdIconRows(icons.removed), icons.removed.length),
    );
    out.push(
      ...mdBlock(`${plural(icons.changed.length, "icon")} changed`, mdChangedRows(icons.changed), icons.changed.length),
    );
  }

  return out;
}

function mdMappings(diff: SiteDiff): string[] {
  const out: string[] = [];
  const { mappings } = diff;
  if (diff.counts["changed-mapping"] > 0) {
    out.push("### The icon each extension gets (findIcon)", "");
    if (mappings.folder !== null)
      out.push(`- Folders: ${iconWords(mappings.folder.old, mdCode)} → ${iconWords(mappings.folder.new, mdCode)}`);
    if (mappings.unmapped !== null)
      out.push(
        `- Any unmapped extension: ${iconWords(mappings.unmapped.old, mdCode)} → ${iconWords(mappings.unmapped.new, mdCode)}`,
      );
    if (mappings.folder !== null || mappings.unmapped !== null) out.push("");
    const groups: Array<[string, MappingChange[]]> = [
      ["extensions indexed", mappings.indexing],
      ["extensions viewed", mappings.viewing],
      ["other extensions and file names (icons.json only)", mappings.other],
    ];
    for (const [label, list] of groups) {
      out.push(...mdBlock(`${plural(list.length, "change")} for ${label}`, list.map(mdMapping), list.length));
    }
  }

  return out;
}

function mdSettings({ settings }: SiteDiff): string[] {
  const out: string[] = [];
  if (settings.indexing.length + settings.viewing.length > 0) {
    out.push("### Extension settings (extensionMap.json)", "");
    out.push(
      ...mdBlock(
        `indexing: ${plural(settings.indexing.length, "extension")}`,
        settings.indexing.map(mdSetting),
        settings.indexing.length,
      ),
    );
    out.push(
      ...mdBlock(
        `viewing: ${plural(settings.viewing.length, "extension")}`,
        settings.viewing.map(mdSetting),
        settings.viewing.length,
      ),
    );
  }

  return out;
}

function mdVersions({ versions }: SiteDiff): string[] {
  const out: string[] = [];
  if (
    versions.added.length + versions.removed.length + versions.checks.length > 0 ||
    versions.latest.old !== versions.latest.new
  ) {
    out.push("### Versions", "");
    if (versions.latest.old !== versions.latest.new)
      out.push(`Latest version: ${mdCode(versions.latest.old)} → ${mdCode(versions.latest.new)}`, "");
    if (versions.added.length > 0) out.push(`Added: ${versions.added.map(mdCode).join(", ")}`, "");
    if (versions.removed.length > 0) out.push(`Removed: ${versions.removed.map(mdCode).join(", ")}`, "");
    out.push(
      ...mdBlock(
        `versionCheck changes for ${plural(versions.checks.length, "client version")}`,
        versions.checks.map((c) => `- ${versionSentence(c, mdCode)}`),
        versions.checks.length,
      ),
    );
  }

  return out;
}

// ---------------------------------------------------------------------------------------------------- plain text

export type Paint = (style: "red" | "green" | "yellow" | "bold" | "dim", text: string) => string;

export function renderText(diff: SiteDiff, paint: Paint = (_s, t) => t): string {
  const out: string[] = [`${diff.old.source} → ${diff.new.source}`];
  const reasons = versionsNotComparedLines(diff);
  const unknown =
    reasons.length === 0
      ? []
      : [paint("yellow", "  Versions could not be compared:"), ...reasons.map((l) => `    ${l}`)];
  if (totalChanges(diff) === 0) {
    out.push("No change a client can see.", ...unknown);
    return `${out.join("\n")}\n`;
  }
  const skipped = notCompared(diff);
  const width = Math.max(...Object.values(diff.counts).map((n) => String(n).length));
  for (const [kind, label] of Object.entries(LABELS) as Array<[ChangeKind, string]>) {
    const n = diff.counts[kind];
    if (skipped.includes(kind)) out.push(`  ${"-".padStart(width)}  ${label}: not compared`);
    else out.push(`  ${String(n).padStart(width)}  ${n === 0 ? paint("dim", label) : label}`);
  }
  out.push(...unknown);
  const section = (title: string, lines: string[]): void => {
    if (lines.length === 0) return;
    out.push("", paint("bold", title), ...lines.map((l) => `  ${l}`));
  };
  const { icons, mappings, settings, versions } = diff;
  section(
    `Icons added (${icons.added.length})`,
    icons.added.map((i) => paint("green", `+ ${i.name}  ${bytes(i.size)}  ${dims(i)}`)),
  );
  section(
    `Icons removed (${icons.removed.length})`,
    icons.removed.map((i) => paint("red", `- ${i.name}  ${bytes(i.size)}  ${dims(i)}`)),
  );
  section(
    `Icons changed (${icons.changed.length})`,
    icons.changed.map(
      (c) => `~ ${c.name}  ${bytes(c.old.size)} → ${bytes(c.new.size)}  ${dims(c.old)} → ${dims(c.new)}`,
    ),
  );
  const mapping = (m: MappingChange): string => `${m.name}: ${iconWords(m.old)} → ${iconWords(m.new)}`;
  section("Icons clients get", [
    ...(mappings.folder === null
      ? []
      : [`folders: ${iconWords(mappings.folder.old)} → ${iconWords(mappings.folder.new)}`]),
    ...(mappings.unmapped === null
      ? []
      : [`any unmapped extension: ${iconWords(mappings.unmapped.old)} → ${iconWords(mappings.unmapped.new)}`]),
  ]);
  section(`Icon changes for extensions indexed (${mappings.indexing.length})`, mappings.indexing.map(mapping));
  section(`Icon changes for extensions viewed (${mappings.viewing.length})`, mappings.viewing.map(mapping));
  section(`Icon changes for other extensions and file names (${mappings.other.length})`, mappings.other.map(mapping));
  const setting = (s: SettingChange): string =>
    `${s.extension}: ${settingWords(s.old, (x) => x)} → ${settingWords(s.new, (x) => x)}`;
  section(`Extension settings, indexing (${settings.indexing.length})`, settings.indexing.map(setting));
  section(`Extension settings, viewing (${settings.viewing.length})`, settings.viewing.map(setting));
  section("Versions", [
    ...(versions.latest.old === versions.latest.new ? [] : [`latest: ${versions.latest.old} → ${versions.latest.new}`]),
    ...versions.added.map((v) => paint("green", `+ ${v}`)),
    ...versions.removed.map((v) => paint("red", `- ${v}`)),
    ...versions.checks.map((c) => versionSentence(c)),
  ]);
  section(
    `config.json (${diff.config.length})`,
    configLines(diff.config).map((l) => paint(l.startsWith("+") ? "green" : "red", l)),
  );
  return `${out.join("\n")}\n`;
}
