// src/routes/route-builder.ts
// How the route table is assembled: rules with one answer or a set of members (each its own answer file, made when
// written), and what `dev` keeps of the member lists between builds (RoutesMemo).

import * as A from "../php/answers.js";
import type { Answer } from "../php/answers.js";
import { caseShape, compareBytes, sortBytes, type SiteModel } from "../model/types.js";
import { AnswerFiles } from "./answer-files.js";
import { SAFE_VALUE, type Predicate, type Rule } from "./route-table.js";

/** File stem for a value outside the safe charset: "~" and the hex of its UTF-8 bytes ("c++" → "~632b2b"). */
export function escapedStem(value: string): string {
  let hex = "";
  for (const byte of new TextEncoder().encode(value)) hex += byte.toString(16).padStart(2, "0");
  return `~${hex}`;
}

/** Which folder a case variant's answer lives in, so that no two files differ only in case. */
const CASE_CLASSES = ["", "-upper", "-capitalized", "-mixed"] as const;
const CASE_FOLDER = { lower: "", upper: "-upper", capitalized: "-capitalized", mixed: "-mixed" } as const;
const caseClass = (value: string): (typeof CASE_CLASSES)[number] => CASE_FOLDER[caseShape(value)];

/**
 * The members distinct and sorted by their UTF-8 bytes: as given when they are so already (checked in one pass), else
 * a sorted copy. The lists buildRoutes passes are sorted once and filtered or split after (filters keep the order),
 * so that large sets are not sorted again.
 */
function sortedUnique(members: Iterable<string>): string[] {
  const list = Array.isArray(members) ? (members as string[]) : [...members];
  let sorted = true;
  for (let i = 1; i < list.length && sorted; i++) sorted = compareBytes(list[i - 1]!, list[i]!) < 0;
  return sorted ? list : sortBytes([...new Set(list)]);
}

/**
 * What buildRoutes keeps between the builds of `dev`: the lists of members it sorted, split and checked. Each depends
 * on the model's keys alone (the extensions of both maps, the icons.json keys, the files of icons/, the versions),
 * never on what they map to, so an edit of a mapping, an icon's bytes or the config keeps them all. The answers are
 * never kept: each build binds its sets to its own model.
 */
export class RoutesMemo {
  private keys: ReadonlyArray<readonly string[]> = [];
  private readonly lists = new Map<string, unknown>();

  /** A build of `site` begins: the lists are kept when its keys are the last build's, in the same order. */
  begin(site: SiteModel): void {
    const keys = [
      [...site.extensionMap.indexing.keys()],
      [...site.extensionMap.viewing.keys()],
      [...site.iconMap.entries.keys()],
      [...site.iconDirFiles.keys()],
      site.versions,
    ];
    if (!sameLists(keys, this.keys)) this.lists.clear();
    this.keys = keys;
  }

  /** The list `name` made of the keys: the last build's when the keys are the same, else `make()`'s. */
  list<T>(name: string, make: () => T): T {
    if (this.lists.has(name)) return this.lists.get(name) as T;
    const made = make();
    this.lists.set(name, made);
    return made;
  }
}

function sameLists(a: ReadonlyArray<readonly string[]>, b: ReadonlyArray<readonly string[]>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.length !== y.length) return false;
    for (let j = 0; j < x.length; j++) if (x[j] !== y[j]) return false;
  }
  return true;
}

/** No memo (a build outside `dev`): every list is made. */
export const NO_MEMO = { list: <T>(_name: string, make: () => T): T => make() };

/** A set of values of one parameter, each member answered by a file of its own (RouteBuilder.set). */
export interface MemberSet {
  /** The rule's id. */
  id: string;
  /** What the rest of the request must be. */
  match: Record<string, Predicate>;
  /** The parameter whose value picks the member. */
  param: string;
  members: Iterable<string>;
  /** The folder of the members' files. */
  dir: string;
  answerFor: (member: string) => Answer;
  /** Whether the parameter's value matches a member in any case. */
  ignoreCase?: boolean;
  /** The key of a member's inputs besides the global ones (src/routes/answer-inputs.ts); none for answers that read
   * only those. */
  inputs?: (member: string) => string;
}

export class RouteBuilder {
  readonly rules: Rule[] = [];
  readonly files = new AnswerFiles();

  constructor(private readonly memo: Pick<RoutesMemo, "list">) {}

  /** A list made of the model's keys alone (RoutesMemo). */
  list<T>(name: string, make: () => T): T {
    return this.memo.list(name, make);
  }

  private push(
    id: string,
    match: Record<string, Predicate>,
    target: string,
    answer: Pick<Answer, "kind" | "status">,
  ): void {
    this.rules.push({ id, match, target, status: answer.status, headers: A.answerHeaders(answer) });
  }

  /** A rule with one fixed answer. */
  one(id: string, match: Record<string, Predicate>, target: string, answer: Answer): void {
    this.files.addOne(target, answer);
    this.push(id, match, target, answer);
  }

  /**
   * A rule for a set of values of `param`: each member gets its own file at `dir/<member>.json`, its answer made
   * only when the file is written. Members outside the safe charset get a rule of their own, with an escaped file
   * name, right before the set.
   */
  set({ id, match, param, members, dir, answerFor, ignoreCase = false, inputs }: MemberSet): void {
    const { safe, escaped } = this.list(`set ${id}`, () => {
      const split = { safe: [] as string[], escaped: [] as string[] };
      for (const member of sortedUnique(members)) (SAFE_VALUE.test(member) ? split.safe : split.escaped).push(member);
      return split;
    });
    for (const member of escaped) {
      const target = `${dir}/${escapedStem(member)}.json`;
      this.one(
        `${id}.escaped`,
        { ...match, [param]: ignoreCase ? { eq: member, ignoreCase: true } : { eq: member } },
        target,
        answerFor(member),
      );
    }
    if (safe.length === 0) return;
    // One member's answer gives the rule its status and headers; every other member's is checked against it when
    // its file is written.
    const sample = answerFor(safe[0]!);
    this.files.addNew(
      dir,
      this.list(`members ${id}`, () => this.files.newMembers(dir, safe)),
      answerFor,
      sample,
      inputs,
    );
    this.push(
      id,
      { ...match, [param]: ignoreCase ? { in: safe, ignoreCase: true } : { in: safe } },
      `${dir}/{${param}}.json`,
      sample,
    );
  }

  /**
   * `set` for values whose case matters (the answer echoes them): one set per case class, each in a folder of its
   * own (`dir`, `dir-upper`, `dir-capitalized`, `dir-mixed`), so that `TXT` and `txt` never share a file name.
   */
  setByCase({ id, match, param, members, dir, answerFor, inputs }: Omit<MemberSet, "ignoreCase">): void {
    const byClass = this.list(`case ${id}`, () => {
      const classes = new Map<string, string[]>();
      for (const m of new Set(members)) {
        const cls = caseClass(m);
        const list = classes.get(cls);
        if (list === undefined) classes.set(cls, [m]);
        else list.push(m); // not a spread copy per member: that would be quadratic
      }
      return classes;
    });
    for (const cls of CASE_CLASSES)
      this.set({
        id: `${id}${cls}`,
        match,
        param,
        members: byClass.get(cls) ?? [],
        dir: `${dir}${cls}`,
        answerFor,
        ...(inputs === undefined ? {} : { inputs }),
      });
  }
}
