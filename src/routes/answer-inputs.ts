// src/routes/answer-inputs.ts
// What each answer file is computed from, as short texts ("prints") a rebuild compares with the last build's: an
// answer file of a set whose member's prints are unchanged holds the same bytes, so an in-place update keeps it
// without producing it again (a ×100 site has 590,000 answer files; an edited mapping changes a handful).
//
// Every per-member answer of build-routes.ts reads the model through exactly one of these keys, besides the global
// print:
//   - `e:<ext>` (the extension lower-cased, as getExtensionSetting and findIcon look it up): its indexing and
//     viewing settings, the icon icons.json maps it to, and that icon's file (or its absence, then text.png's);
//   - `i:<name>`: a file of icons/ (size and time, or its absence);
//   - `v`: versionCheck's answers, which show the build time and config.json's version (the build time changes with
//     every build without SOURCE_DATE_EPOCH: it must not count against the other 590,000 answers);
//   - none: findIcon for folders, which reads only what the global print holds.
// The global print holds everything else those answers read: the base URL, the folder icon and the text.png fallback.
// A change there, or in the tool's code, produces every answer again.
// The property test (test/integration/incremental-property.ts) holds the in-place result to a full build's.

import { asciiLower, type FileInfo, type SiteModel } from "../model/types.js";

/** The key of an extension's inputs ("e:" and the extension lower-cased). */
export const extensionKey = (member: string): string => `e:${asciiLower(member)}`;
/** The key of an icon file's inputs. */
export const iconKey = (member: string): string => `i:${member}`;
/** The key of versionCheck's inputs (the same for every version). */
export const versionKey = (): string => VERSION_KEY;
const VERSION_KEY = "v";

export interface AnswerInputs {
  /** What every answer file reads (and the tool that computes it: set by the build, src/build.ts). */
  global: string;
  /** Key → its print. */
  keys: Map<string, string>;
}

const fileInfo = (site: SiteModel, name: string): FileInfo | null => site.iconDirFiles.get(name) ?? null;
const filePrint = (info: FileInfo | null): string => (info === null ? "-" : `${info.size} ${info.lastModified}`);

/** The prints of a site's answers, each JSON text (the records hold them as they are: printAnswerInputs). `memo`
 * (dev's) keeps each key's print while what it is printed from stays the same. */
export function answerInputs(site: SiteModel, tool: string, memo?: InputsMemo): AnswerInputs {
  const folder = site.iconMap.entries.get("folder") ?? "folder.png";
  const global = JSON.stringify([
    tool, site.baseUrl, folder, filePrint(fileInfo(site, folder)), filePrint(fileInfo(site, "text.png")),
  ]);
  const keys = new Map<string, string>([[VERSION_KEY, JSON.stringify([site.buildTime, site.config.version])]]);
  const extensions = new Set<string>();
  for (const map of [site.extensionMap.indexing, site.extensionMap.viewing, site.iconMap.entries]) {
    for (const e of map.keys()) extensions.add(asciiLower(e));
  }
  for (const e of extensions) {
    const icon = site.iconMap.entries.get(e);
    const info = icon === undefined ? null : fileInfo(site, icon);
    const indexing = site.extensionMap.indexing.get(e);
    const viewing = site.extensionMap.viewing.get(e);
    if (memo === undefined) keys.set(`e:${e}`, extensionPrint(indexing, viewing, icon, info));
    else memo.extension(keys, e, indexing, viewing, icon, info);
  }
  for (const [name, info] of site.iconDirFiles) {
    if (memo === undefined) keys.set(iconKey(name), iconPrint(info));
    else memo.icon(keys, name, info);
  }
  memo?.done();
  return { global, keys };
}

const extensionPrint = (indexing: string | undefined, viewing: string | undefined, icon: string | undefined, info: FileInfo | null): string =>
  JSON.stringify([indexing ?? null, viewing ?? null, icon ?? null, icon === undefined ? "" : filePrint(info)]);
/** A JSON string: digits, a space and a dash need no escape. */
const iconPrint = (info: FileInfo): string => `"${filePrint(info)}"`;

/** A key's print, and what it was printed from: an extension's settings and icon, and a file's size and time (-1:
 * no file). */
interface Printed {
  readonly key: string;
  readonly print: string;
  readonly indexing?: string | undefined;
  readonly viewing?: string | undefined;
  readonly icon?: string | undefined;
  readonly size: number;
  readonly time: number;
}

/**
 * The prints of the last build's keys, by what each was printed from (`dev` keeps it: src/build.ts, BuildMemo): a ×100
 * site has 103,000 keys, and printing each again (JSON.stringify of four values) took 0.2 s of a rebuild that
 * changes a few. A key whose values are the last build's gets the same text; any other is printed, as without it.
 */
export class InputsMemo {
  private extensions = new Map<string, Printed>();
  private icons = new Map<string, Printed>();
  private next = { extensions: new Map<string, Printed>(), icons: new Map<string, Printed>() };

  /** `e:<ext>`'s print into `keys`: its settings, its icon, and that icon's file (none: missing). */
  extension(keys: Map<string, string>, e: string, indexing: string | undefined, viewing: string | undefined, icon: string | undefined, info: FileInfo | null): void {
    const size = info?.size ?? -1;
    const time = info?.lastModified ?? -1;
    let p = this.extensions.get(e);
    if (p === undefined || p.indexing !== indexing || p.viewing !== viewing || p.icon !== icon || p.size !== size || p.time !== time) {
      p = { key: `e:${e}`, print: extensionPrint(indexing, viewing, icon, info), indexing, viewing, icon, size, time };
    }
    this.next.extensions.set(e, p);
    keys.set(p.key, p.print);
  }

  /** `i:<name>`'s print into `keys`: the file's size and time. */
  icon(keys: Map<string, string>, name: string, info: FileInfo): void {
    let p = this.icons.get(name);
    if (p === undefined || p.size !== info.size || p.time !== info.lastModified) {
      p = { key: iconKey(name), print: iconPrint(info), size: info.size, time: info.lastModified };
    }
    this.next.icons.set(name, p);
    keys.set(p.key, p.print);
  }

  /** The build's prints are made: the next build compares with them (a key no longer printed is let go). */
  done(): void {
    this.extensions = this.next.extensions;
    this.icons = this.next.icons;
    this.next = { extensions: new Map(), icons: new Map() };
  }
}

/** The records' text of the prints (src/layout/paths.ts: ANSWER_INPUTS_FILE): JSON, one key per line, each print as
 * the JSON it is (not quoted again: no escaping of its quotes). */
export function printAnswerInputs(inputs: AnswerInputs): string {
  const lines = [`{"format":${FORMAT},"global":${JSON.stringify(inputs.global)},"keys":{`];
  let first = true;
  for (const [key, print] of inputs.keys) {
    lines.push(`${first ? "" : ","}${JSON.stringify(key)}:${print}`);
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
    if (parsed.format !== FORMAT || typeof parsed.global !== "string" || typeof parsed.keys !== "object" || parsed.keys === null) return null;
    const keys = new Map<string, string>();
    // Each print is JSON text as answerInputs made it (JSON.stringify's, or a string of digits, a space and a dash):
    // JSON.stringify prints its value again alike.
    for (const [key, print] of Object.entries(parsed.keys as Record<string, unknown>)) keys.set(key, JSON.stringify(print));
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
 * either (a ×100 site's prints are 100,000 lines: parsing them into a map took 0.2 s); otherwise through the parsed
 * prints. `now` is the object `nowText` prints.
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
 * edit changes a few keys, and a ×100 site has 590,000 members: a member whose length rules out every changed key is
 * answered without making its key.
 */
export function memberChanged(inputs: ((member: string) => string) | undefined, changed: ReadonlySet<string>): (member: string) => boolean {
  if (inputs === undefined || changed.size === 0) return () => false;
  if (!PREFIXED.has(inputs)) return (member) => changed.has(inputs(member));
  const lengths = new Set<number>();
  for (const key of changed) lengths.add(key.length - 2);
  return (member) => lengths.has(member.length) && changed.has(inputs(member));
}
