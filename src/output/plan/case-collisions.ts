// src/output/plan/case-collisions.ts
// The paths of a plan that would land on one file on a case-insensitive file system (macOS, Windows).

import { caseShape } from "../../model/types.js";
import { AnswerOutput } from "../../routes/answer-files.js";
import { folderOf, type OutputFile } from "./files.js";

/**
 * Paths that would land on the same file on a case-insensitive file system (macOS, Windows), each group in the order
 * of the files, the groups in the order of their first path. Only a folder that can hold two such paths is looked at
 * path by path: one spelt two ways (`Icons/` and `icons/`), one holding another file whose name lower case may
 * change, or one whose answers' names lower case could make alike. Most of a large site's paths are
 * answers in sets that keep one case each (`findIcon/file-upper/PHP.json`): their names are not made.
 */
export function caseCollisions(files: readonly OutputFile[]): string[][] {
  /** Folder in lower case → the spelling first met, and the shapes of the names in it (NameShape bits). */
  const spelt = new Map<string, string>();
  const shapes = new Map<string, number>();
  const suspect = new Set<string>();
  let folder: string | undefined;
  let lower = "";
  let bits = 0;
  const endRun = (): void => {
    if (folder !== undefined) shapes.set(lower, (shapes.get(lower) ?? 0) | bits);
  };
  for (let i = 0; i < files.length; i++) {
    const f = files[i]!;
    const d = folderOf(f);
    if (d !== folder) {
      endRun();
      folder = d;
      lower = d.toLowerCase();
      bits = 0;
      const seen = spelt.get(lower);
      if (seen === undefined) spelt.set(lower, d);
      else if (seen !== d) suspect.add(lower);
    }
    const set = f instanceof AnswerOutput ? f.startsSet() : null;
    const last = set === null ? undefined : files[i + set.members.length - 1];
    if (set !== null && last instanceof AnswerOutput && last.isMember(set, set.members.length - 1)) {
      // A set's answers, one after another as planned: their members' shapes, found once for the list.
      bits |= memberShapes(set.members);
      i += set.members.length - 1;
      continue;
    }
    const member = f instanceof AnswerOutput ? f.member : null;
    if (member !== null) bits |= SHAPE[caseShape(member)];
    else {
      const p = f.path;
      bits |=
        Shape.Other |
        (/[A-Z\u0080-\uffff]/.test(d.length === 0 ? p : p.slice(d.length + 1)) ? Shape.OtherMayChange : 0);
    }
  }
  endRun();
  for (const [name, b] of shapes) if (mayCollide(b)) suspect.add(name);
  if (suspect.size === 0) return [];
  /** Path in lower case → the indexes of the paths that are it, in the suspect folders only. */
  const groups = new Map<string, number[]>();
  folder = undefined;
  for (let i = 0; i < files.length; i++) {
    const d = folderOf(files[i]!);
    if (d !== folder) {
      folder = d;
      lower = d.toLowerCase();
    }
    if (!suspect.has(lower)) continue;
    const key = files[i]!.path.toLowerCase();
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [i]);
    else group.push(i);
  }
  return [...groups.values()].filter((group) => group.length > 1).map((group) => group.map((i) => files[i]!.path));
}

/**
 * What the names in a folder are like (bits). An answer of a set is named `<member>.json`, its member an ASCII safe
 * value (src/routes/route-table.ts: SAFE_VALUE; build-routes.ts gives any other value a single answer of its own):
 * two members lower case makes alike are of one shape only if it is mixed, since lower case maps the members of one
 * other shape one to one (caseShape). Any other file's name counts by whether lower case may change it, as it is.
 */
const enum Shape {
  Lower = 1,
  Upper = 2,
  Capitalized = 4,
  Mixed = 8,
  Other = 16,
  OtherMayChange = 32,
}
const SHAPE = { lower: Shape.Lower, upper: Shape.Upper, capitalized: Shape.Capitalized, mixed: Shape.Mixed } as const;

/** The shapes of a set's members (bits), kept by the list: `dev`'s route table keeps its lists while the model's
 * keys are the same (src/routes/build-routes.ts: RoutesMemo), and a large site's sets have many members. */
function memberShapes(members: readonly string[]): number {
  let bits = shapesOfMembers.get(members);
  if (bits === undefined) {
    bits = 0;
    for (const member of members) bits |= SHAPE[caseShape(member)];
    shapesOfMembers.set(members, bits);
  }
  return bits;
}
const shapesOfMembers = new WeakMap<readonly string[], number>();

/** Whether a folder whose names have these shapes can hold two that lower case makes alike. */
function mayCollide(bits: number): boolean {
  if ((bits & (Shape.Mixed | Shape.OtherMayChange)) !== 0) return true;
  const members = bits & (Shape.Lower | Shape.Upper | Shape.Capitalized);
  // Two shapes of answers; or other files beside answers that lower case changes.
  if ((members & (members - 1)) !== 0) return true;
  return (bits & Shape.Other) !== 0 && (members & (Shape.Upper | Shape.Capitalized)) !== 0;
}
