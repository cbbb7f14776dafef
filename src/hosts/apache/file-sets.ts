// src/hosts/apache/file-sets.ts
// Which `in` sets Apache tells by the files of their folder rather than by a list of members: a set whose target is
// `<dir>/{param}.json` and whose folder holds no file of a safe name outside the set. For those, "the value's file
// exists" (`RewriteCond … -f`) holds exactly for the set's members, so the rule does not grow with the site.

import { SAFE_VALUE, type RouteTable, type Rule } from "../../routes/route-table.js";

export interface FileSet {
  /** The parameter whose value names the file. */
  param: string;
  /** The folder of the members' files, relative to the site, with a trailing "/": "api/findIcon/file/". */
  dir: string;
  /** Members are lower case and the value is lower-cased before the test. */
  ignoreCase: boolean;
}

interface Folder {
  /** The member lists of the sets whose files lie in it. */
  sets: Array<readonly string[]>;
  /** The stems of the single answers in it ("file" for file.json). */
  singles: string[];
  /** A target with placeholders that is not one set member's file: what the folder holds is not known. */
  unknown: boolean;
}

const hasUpper = (s: string): boolean => /[A-Z]/.test(s);

/** The rule's set, when its target is its member's file in one folder. */
function fileSet(rule: Rule): (FileSet & { members: readonly string[] }) | null {
  const sets = Object.entries(rule.match).filter(([, p]) => "in" in p);
  if (sets.length !== 1) return null;
  const [param, p] = sets[0]!;
  if (!("in" in p)) return null;
  const suffix = `/{${param}}.json`;
  const dir = rule.target.slice(0, -suffix.length);
  if (!rule.target.endsWith(suffix) || !dir.startsWith("/") || dir.includes("{")) return null;
  return { param, dir: `${dir.slice(1)}/`, ignoreCase: p.ignoreCase === true, members: p.in };
}

/** What each folder of answers holds, by the table's targets (a set's whole list: a superset of its files). */
function folders(table: RouteTable): Map<string, Folder> {
  const out = new Map<string, Folder>();
  const folder = (dir: string): Folder => {
    let f = out.get(dir);
    if (f === undefined) out.set(dir, (f = { sets: [], singles: [], unknown: false }));
    return f;
  };
  for (const rule of table.rules) {
    const set = fileSet(rule);
    if (set !== null) {
      folder(set.dir).sets.push(set.members);
      continue;
    }
    const slash = rule.target.lastIndexOf("/");
    const dir = `${rule.target.slice(1, slash)}/`;
    const name = rule.target.slice(slash + 1);
    if (rule.target.includes("{")) folder(dir).unknown = true;
    else if (name.endsWith(".json")) folder(dir).singles.push(name.slice(0, -".json".length));
  }
  return out;
}

/** Whether every file a value can name in the folder is a member: names outside the safe charset never are tested,
 * nor, for a set that ignores case, names with an upper-case letter (the value is lower-cased). */
function onlyMembers(folder: Folder, set: FileSet & { members: readonly string[] }): boolean {
  if (folder.unknown) return false;
  let members: Set<string> | undefined;
  const isMember = (name: string): boolean => (members ??= new Set(set.members)).has(name);
  const reachable = (name: string): boolean => SAFE_VALUE.test(name) && !(set.ignoreCase && hasUpper(name));
  for (const other of folder.sets) {
    if (other === set.members) continue;
    for (const name of other) if (reachable(name) && !isMember(name)) return false;
  }
  return folder.singles.every((name) => !reachable(name) || isMember(name));
}

/** The rules Apache routes by a file test, with their set's folder. */
export function fileTestedSets(table: RouteTable): Map<Rule, FileSet> {
  const byDir = folders(table);
  const out = new Map<Rule, FileSet>();
  for (const rule of table.rules) {
    const set = fileSet(rule);
    if (set === null || !onlyMembers(byDir.get(set.dir)!, set)) continue;
    out.set(rule, { param: set.param, dir: set.dir, ignoreCase: set.ignoreCase });
  }
  return out;
}
