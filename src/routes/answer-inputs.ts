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

/** The prints of a site's answers, each JSON text (the records hold them as they are: printAnswerInputs). */
export function answerInputs(site: SiteModel, tool: string): AnswerInputs {
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
    keys.set(`e:${e}`, JSON.stringify([
      site.extensionMap.indexing.get(e) ?? null, site.extensionMap.viewing.get(e) ?? null,
      icon ?? null, icon === undefined ? "" : filePrint(fileInfo(site, icon)),
    ]));
  }
  // A JSON string: digits, a space and a dash need no escape.
  for (const [name, info] of site.iconDirFiles) keys.set(`i:${name}`, `"${filePrint(info)}"`);
  return { global, keys };
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
