// src/routes/answer-inputs.ts
// What each answer file is computed from, as short texts ("prints") a rebuild compares with the last build's: an
// answer file of a set whose member's prints are unchanged holds the same bytes, so an in-place update keeps it
// without producing it again (an edited mapping changes a handful of a large site's answer files).
//
// Every per-member answer of build-routes.ts reads the model through exactly one of these keys, besides the global
// print:
//   - `e:<ext>` (the extension lower-cased, as getExtensionSetting and findIcon look it up): its indexing and
//     viewing settings, the icon icons.json maps it to, and that icon's file (or its absence, then text.png's);
//   - `i:<name>`: a file of icons/ (size and time, or its absence);
//   - `v`: versionCheck's answers, which show the build time and config.json's version (the build time changes with
//     every build without SOURCE_DATE_EPOCH: it must not count against every other answer);
//   - none: findIcon for folders, which reads only what the global print holds.
// The global print holds everything else those answers read: the base URL, the folder icon and the text.png fallback.
// A change there, or in the tool's code, produces every answer again.
// The property test (test/pipeline/incremental-property.ts) holds the in-place result to a full build's.

import { changedValues } from "../model/changed-values.js";
import { asciiLower, type FileInfo, type SiteModel } from "../model/types.js";

/** The key of an extension's inputs ("e:" and the extension lower-cased). */
export const extensionKey = (member: string): string => `e:${asciiLower(member)}`;
/** The key of an icon file's inputs. */
export const iconKey = (member: string): string => `i:${member}`;
/** The key of versionCheck's inputs (the same for every version). */
export const versionKey = (): string => VERSION_KEY;
const VERSION_KEY = "v";

export interface AnswerInputs {
  /** What every answer file reads (and the tool that computes it: set by the build, src/pipeline/publish-build.ts). */
  global: string;
  /** Key → its print. */
  keys: Map<string, string>;
}

const fileInfo = (site: SiteModel, name: string): FileInfo | null => site.iconDirFiles.get(name) ?? null;
const filePrint = (info: FileInfo | null): string => (info === null ? "-" : `${info.size} ${info.lastModified}`);

/** The prints of a site's answers, each JSON text (the records hold them as they are: printAnswerInputs). */
export function answerInputs(site: SiteModel, tool: string): AnswerInputs {
  return new AnswerInputsMemo().make(site, tool).inputs;
}

/** One key's line in the records' text (printAnswerInputs), after the first. */
const keyLine = (key: string, print: string): string => `,${JSON.stringify(key)}:${print}`;

/** What the prints were made of, and what they are: a block of lines per kind of key, each line at its key's index. */
interface Made {
  indexing: ReadonlyMap<string, string>;
  viewing: ReadonlyMap<string, string>;
  icons: ReadonlyMap<string, string>;
  files: ReadonlyMap<string, FileInfo>;
  /** Every key's print, "v" first, then the `e:` keys, then the `i:` keys. */
  keys: Map<string, string>;
  extensions: Block;
  iconFiles: Block;
}

/** The lines of one kind of key, their text once joined, and each member's index (made when first needed). */
interface Block {
  members: string[];
  lines: string[];
  text: string | null;
  index: Map<string, number> | null;
}

const block = (members: string[], lines: string[]): Block => ({ members, lines, text: null, index: null });
const blockText = (b: Block): string => (b.text ??= b.lines.join("\n"));
function setLine(b: Block, member: string, line: string): void {
  b.index ??= new Map(b.members.map((m, i) => [m, i]));
  b.lines[b.index.get(member)!] = line;
  b.text = null;
}

/**
 * The prints and their records' text, made again only where what they are made of changed: `dev` keeps one between
 * builds. An edit of one mapping gives a new icon map (src/content/load-content.ts: ModelParts) with the same keys in
 * the same order and one value changed: the prints of the extensions whose settings, icon or icon file changed are
 * made again, and the rest are kept (a large site's prints are slow to make). Keys added, removed or moved make
 * every print again.
 *
 * What `make` returns holds the memo's own map of prints: it is the site's until the next `make`.
 */
export class AnswerInputsMemo {
  private last: Made | null = null;

  /** The prints of `site`'s answers, and their records' text (printAnswerInputs of them). */
  make(site: SiteModel, tool: string): { inputs: AnswerInputs; text: string } {
    const folder = site.iconMap.entries.get("folder") ?? "folder.png";
    const global = JSON.stringify([
      tool,
      site.baseUrl,
      folder,
      filePrint(fileInfo(site, folder)),
      filePrint(fileInfo(site, "text.png")),
    ]);
    const versionPrint = JSON.stringify([site.buildTime, site.config.version]);
    const made = (this.last === null ? null : patched(this.last, site)) ?? fresh(site);
    this.last = made;
    made.keys.set(VERSION_KEY, versionPrint); // the first key: set again, it keeps its place
    const blocks = [
      `{"format":${FORMAT},"global":${JSON.stringify(global)},"keys":{`,
      `${JSON.stringify(VERSION_KEY)}:${versionPrint}`,
    ];
    for (const b of [made.extensions, made.iconFiles]) if (b.lines.length > 0) blocks.push(blockText(b));
    blocks.push("}}\n");
    return { inputs: { global, keys: made.keys }, text: blocks.join("\n") };
  }
}

/** An extension's print: its settings, its icon and that icon's file. */
function extensionPrint(site: SiteModel, e: string): string {
  const icon = site.iconMap.entries.get(e);
  return JSON.stringify([
    site.extensionMap.indexing.get(e) ?? null,
    site.extensionMap.viewing.get(e) ?? null,
    icon ?? null,
    icon === undefined ? "" : filePrint(fileInfo(site, icon)),
  ]);
}

/** A JSON string: digits, a space and a dash need no escape. */
const iconFilePrint = (info: FileInfo): string => `"${filePrint(info)}"`;

function fresh(site: SiteModel): Made {
  const keys = new Map<string, string>([[VERSION_KEY, ""]]);
  const extensions = new Set<string>();
  for (const map of [site.extensionMap.indexing, site.extensionMap.viewing, site.iconMap.entries]) {
    for (const e of map.keys()) extensions.add(asciiLower(e));
  }
  const lines: string[] = [];
  for (const e of extensions) {
    const key = extensionKey(e);
    const print = extensionPrint(site, e);
    keys.set(key, print);
    lines.push(keyLine(key, print));
  }
  const iconLines: string[] = [];
  for (const [name, info] of site.iconDirFiles) {
    const key = iconKey(name);
    const print = iconFilePrint(info);
    keys.set(key, print);
    iconLines.push(keyLine(key, print));
  }
  return {
    indexing: site.extensionMap.indexing,
    viewing: site.extensionMap.viewing,
    icons: site.iconMap.entries,
    files: site.iconDirFiles,
    keys,
    extensions: block([...extensions], lines),
    iconFiles: block([...site.iconDirFiles.keys()], iconLines),
  };
}

const sameFilePrint = (a: FileInfo, b: FileInfo): boolean => filePrint(a) === filePrint(b);

/** `last` made again for `site` where its inputs changed, or null when a map's keys changed (then all is made anew). */
function patched(last: Made, site: SiteModel): Made | null {
  const files = changedValues(last.files, site.iconDirFiles, sameFilePrint);
  const changed = [
    changedValues(last.indexing, site.extensionMap.indexing),
    changedValues(last.viewing, site.extensionMap.viewing),
    changedValues(last.icons, site.iconMap.entries),
  ];
  if (files === null || changed.some((keys) => keys === null)) return null;
  // The extensions whose print may have changed: each is looked up by its key lower-cased.
  const extensions = new Set<string>();
  for (const keys of changed) for (const key of keys!) extensions.add(asciiLower(key));
  if (files.length > 0) {
    const names = new Set(files);
    for (const [key, icon] of site.iconMap.entries) if (names.has(icon)) extensions.add(asciiLower(key));
  }
  for (const e of extensions) {
    const key = extensionKey(e);
    const print = extensionPrint(site, e);
    if (last.keys.get(key) === print) continue;
    last.keys.set(key, print);
    setLine(last.extensions, e, keyLine(key, print));
  }
  for (const name of files) {
    const key = iconKey(name);
    const print = iconFilePrint(site.iconDirFiles.get(name)!);
    last.keys.set(key, print);
    setLine(last.iconFiles, name, keyLine(key, print));
  }
  return {
    ...last,
    indexing: site.extensionMap.indexing,
    viewing: site.extensionMap.viewing,
    icons: site.iconMap.entries,
    files: site.iconDirFiles,
  };
}

/** The records' text of the prints (src/layout/paths.ts: ANSWER_INPUTS_FILE): JSON, one key per line, each print as
 * the JSON it is (not quoted again: no escaping of its quotes). */
export function printAnswerInputs(inputs: AnswerInputs): string {
  const lines = [`{"format":${FORMAT},"global":${JSON.stringify(inputs.global)},"keys":{`];
  let first = true;
  for (const [key, print] of inputs.keys) {
    lines.push(first ? `${JSON.stringify(key)}:${print}` : keyLine(key, print));
    first = false;
  }
  lines.push("}}\n");
  return lines.join("\n");
}

/** The records' format of the prints; a record of another is not read (every answer is produced again). */
const FORMAT = 2;

/** The prints a build's records hold, or null when they hold none this tool reads. */
export function parseAnswerInputs(text: string): AnswerInputs | null {
  try {
    const parsed = JSON.parse(text) as { format?: unknown; global?: unknown; keys?: unknown };
    if (
      parsed.format !== FORMAT ||
      typeof parsed.global !== "string" ||
      typeof parsed.keys !== "object" ||
      parsed.keys === null
    )
      return null;
    const keys = new Map<string, string>();
    // Each print is JSON text as answerInputs made it (JSON.stringify's, or a string of digits, a space and a dash):
    // JSON.stringify prints its value again alike.
    for (const [key, print] of Object.entries(parsed.keys as Record<string, unknown>))
      keys.set(key, JSON.stringify(print));
    return { global: parsed.global, keys };
  } catch {
    return null;
  }
}

/**
 * The keys whose print changed since the build whose prints are `last` (a key only one of them has counts as
 * changed), or null when every answer must be produced: there is no last build, or the global print changed. An
 * answer file of a set holds the same bytes as in the last build when its key ("" for the global print alone) is not
 * among them.
 */
export function changedInputs(last: AnswerInputs | null, now: AnswerInputs): ReadonlySet<string> | null {
  if (last === null || last.global !== now.global) return null;
  const changed = new Set<string>();
  for (const [key, print] of now.keys) if (last.keys.get(key) !== print) changed.add(key);
  for (const key of last.keys.keys()) if (!now.keys.has(key)) changed.add(key);
  return changed;
}

/**
 * changedInputs of two builds from their records' texts (printAnswerInputs): the keys of the lines that differ, when
 * both list the same keys in the same order (an edit of a mapping or an icon's bytes keeps them), without parsing
 * either (a large site's prints are slow to parse into a map); otherwise through the parsed prints. `now` is the object `nowText` prints.
 */
export function changedPrints(lastText: string | null, nowText: string, now: AnswerInputs): ReadonlySet<string> | null {
  if (lastText === null) return null;
  const slow = (): ReadonlySet<string> | null => changedInputs(parseAnswerInputs(lastText), now);
  let i = lastText.indexOf("\n") + 1;
  let j = nowText.indexOf("\n") + 1;
  // The first line holds the format and the global print.
  if (i === 0 || i !== j || !lastText.startsWith(nowText.slice(0, j))) return slow();
  const changed = new Set<string>();
  while (i < lastText.length && j < nowText.length) {
    const a = lastText.indexOf("\n", i);
    const b = nowText.indexOf("\n", j);
    if (a < 0 || b < 0) return slow();
    if (a - i !== b - j || lastText.slice(i, a) !== nowText.slice(j, b)) {
      const key = keyOfLine(nowText.slice(j, b));
      if (key === null || key !== keyOfLine(lastText.slice(i, a))) return slow();
      changed.add(key);
    }
    i = a + 1;
    j = b + 1;
  }
  return i === lastText.length && j === nowText.length ? changed : slow();
}

/** The key of one line of the printed prints (`,"e:php":"[…]"`), or null for a line that holds none. */
function keyOfLine(line: string): string | null {
  try {
    const keys = Object.keys(JSON.parse(`{${line.startsWith(",") ? line.slice(1) : line}}`) as object);
    return keys.length === 1 ? keys[0]! : null;
  } catch {
    return null;
  }
}

/** Key functions whose key is a two-character prefix and a text as long as the member (lower-cased or not). */
const PREFIXED = new Set<(member: string) => string>([extensionKey, iconKey]);

/**
 * Whether a set member's key (by the set's key function, none for the global print alone) is among `changed`. An
 * edit changes a few keys of very many members: a member whose length rules out every changed key is answered
 * without making its key.
 */
export function memberChanged(
  inputs: ((member: string) => string) | undefined,
  changed: ReadonlySet<string>,
): (member: string) => boolean {
  return changedMembers(inputs, changed) ?? (() => false);
}

/** memberChanged, or null when no member's key can be among `changed` (none changed, or the set has no key). */
export function changedMembers(
  inputs: ((member: string) => string) | undefined,
  changed: ReadonlySet<string>,
): ((member: string) => boolean) | null {
  if (inputs === undefined || changed.size === 0) return null;
  if (!PREFIXED.has(inputs)) return (member) => changed.has(inputs(member));
  // By length, in a table (cheaper than a Set's lookup asked of every member).
  let longest = 0;
  for (const key of changed) longest = Math.max(longest, key.length - 2);
  const lengths = new Uint8Array(longest + 1);
  for (const key of changed) if (key.length >= 2) lengths[key.length - 2] = 1;
  return (member) => lengths[member.length] === 1 && changed.has(inputs(member));
}
