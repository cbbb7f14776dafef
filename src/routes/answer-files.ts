// src/routes/answer-files.ts
// The answers of a build by site path. Most come in sets (one file per known extension, icon or version): a set
// keeps its members and the function that answers one, and computes an answer only when it is asked for. The writer
// asks once per file and drops it, so a large site's answers are never held as answer objects.

import { answerText, type Answer, type AnswerKind, type Status } from "../php/answers.js";
import { sameText } from "../model/json.js";
import { compareBytes } from "../model/types.js";
import { memberChanged } from "./answer-inputs.js";

/** One folder of answers: member `m` is stored at `${dir}/${m}.json`. */
export interface AnswerSet {
  /** Site folder, "/api/findIcon/file". */
  readonly dir: string;
  /** Its members' paths in the output folder begin with this ("api/findIcon/file/"): made once, not per path. */
  readonly prefix: string;
  /** The folder of its members' files in the output folder ("api/findIcon/file"): one string for all of them. */
  readonly folder: string;
  /** Distinct members, sorted by compareBytes; without those another set or file already holds at the same path. */
  readonly members: readonly string[];
  /** The kind and status of every member's answer: one rule serves the set, with one status and one set of headers. */
  readonly kind: AnswerKind;
  readonly status: Status;
  answerFor(member: string): Answer;
  /** The key of a member's inputs besides the global ones (src/routes/answer-inputs.ts); none when it reads only
   * those. */
  readonly inputs?: (member: string) => string;
}

/**
 * One answer file: its path in the output folder (no leading "/"), its answer and its text, made when asked for (the
 * writer asks once). A set member holds two references and nothing else: a large site has very many of them.
 */
export class AnswerOutput {
  constructor(
    private readonly set: AnswerSet | null,
    private readonly value: string | Answer,
    private readonly single?: string,
  ) {}
  /** Made each time it is asked for: a large site's paths are never held at once. */
  get path(): string {
    return this.set === null ? this.single! : `${this.set.prefix}${this.value as string}.json`;
  }
  /** Its set, when it is that set's first member (a plan lists the set's answers from there, in order), else null. */
  startsSet(): AnswerSet | null {
    return this.set !== null && this.value === this.set.members[0] ? this.set : null;
  }
  /** Whether it is member `index` of `set`. */
  isMember(set: AnswerSet, index: number): boolean {
    return this.set === set && this.value === set.members[index];
  }
  /** Its member, when it is one of a set (its file is `<member>.json` in its set's folder), else null. */
  get member(): string | null {
    return this.set === null ? null : (this.value as string);
  }
  /** The folder of its path ("api/findIcon/file"): a set member's is its set's, one string for all of them. */
  get folder(): string {
    if (this.set !== null) return this.set.folder;
    const slash = this.single!.lastIndexOf("/");
    return slash < 0 ? "" : this.single!.slice(0, slash);
  }
  answer(): Answer {
    return this.set === null ? (this.value as Answer) : checked(this.set, this.value as string);
  }
  produce(): string {
    return answerText(this.answer());
  }
  /** The key of what a set member's answer reads besides the global inputs ("" for nothing else), or null for a
   * single answer, which a rebuild always produces (src/routes/answer-inputs.ts). */
  inputKey(): string | null {
    if (this.set === null) return null;
    return this.set.inputs === undefined ? "" : this.set.inputs(this.value as string);
  }

  /**
   * Whether its inputs are among those unchanged since the last build (src/routes/answer-inputs.ts: `changed` holds the
   * keys that changed; false for a single answer). `tests` keeps one test per key function (memberChanged).
   */
  inputsUnchanged(changed: ReadonlySet<string>, tests: Map<AnswerSet["inputs"], (member: string) => boolean>): boolean {
    if (this.set === null) return false;
    const { inputs } = this.set;
    let test = tests.get(inputs);
    if (test === undefined) tests.set(inputs, (test = memberChanged(inputs, changed)));
    return !test(this.value as string);
  }
}

/** A member's answer, checked to have its set's kind and status (the set's one rule sends those headers). */
function checked(set: AnswerSet, member: string): Answer {
  const a = set.answerFor(member);
  if (a.kind !== set.kind || a.status !== set.status) {
    throw new Error(
      `Internal: ${memberPath(set.dir, member)} is a ${a.kind} ${a.status} answer in a set of ${set.kind} ${set.status}.`,
    );
  }
  return a;
}

const memberPath = (dir: string, member: string): string => `${dir}/${member}.json`;

/** Every answer lies in /api/: what the output's plan tells answers from the site's other files by (src/output/plan/site.ts). */
function inApi(path: string): void {
  if (!path.startsWith("/api/")) throw new Error(`Internal: the answer file ${path} lies outside /api/.`);
}

/** Binary search in members sorted by compareBytes. */
function hasSorted(members: readonly string[], member: string): boolean {
  let lo = 0;
  let hi = members.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = compareBytes(members[mid]!, member);
    if (c === 0) return true;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** Whether a member is one of the sets' (a loop: no closure per member). */
function inSets(sets: readonly AnswerSet[], member: string): boolean {
  for (let i = 0; i < sets.length; i++) if (hasSorted(sets[i]!.members, member)) return true;
  return false;
}

/** Splits "/api/icon/a.png.json" into its folder and member, or null for a path that is not `<dir>/<member>.json`. */
function splitPath(path: string): { dir: string; member: string } | null {
  const slash = path.lastIndexOf("/");
  if (slash <= 0 || !path.endsWith(".json")) return null;
  return { dir: path.slice(0, slash), member: path.slice(slash + 1, -".json".length) };
}

export class AnswerFiles implements Iterable<[string, Answer]> {
  private readonly singles = new Map<string, Answer>();
  private readonly sets: AnswerSet[] = [];
  /** Whether answers can no longer be added. */
  private sealed = false;
  /** Folder → its sets, for lookups (by binary search in their sorted members). */
  private readonly byDir = new Map<string, AnswerSet[]>();
  private count = 0;

  /** How many answer files there are. */
  get size(): number {
    return this.count;
  }

  /**
   * One answer at one path. A path answered twice (e.g. for the default type and for "indexing") must get the same
   * text: compared without printing.
   */
  addOne(path: string, answer: Answer): void {
    if (this.sealed) throw new Error("Internal: answers added after seal().");
    inApi(path);
    const existing = this.get(path);
    if (existing !== undefined) {
      if (existing !== answer && !sameText(existing.body, answer.body))
        throw new Error(`Internal: two different answers for ${path}.`);
      return;
    }
    this.singles.set(path, answer);
    this.count++;
  }

  /**
   * A folder of answers, one per member; members whose path is already answered are left to that answer (the sets
   * that share a folder answer the same member alike: the route tests check every path against the reference).
   * `sample` is one member's answer, for the set's kind and status. Returns the set, or null when nothing was new.
   */
  addSet(
    dir: string,
    members: readonly string[],
    answerFor: (member: string) => Answer,
    sample: Answer,
    inputs?: (member: string) => string,
  ): AnswerSet | null {
    return this.addNew(dir, this.newMembers(dir, members), answerFor, sample, inputs);
  }

  /**
   * The members (sorted by compareBytes, checked) whose path in `dir` no answer holds yet: `members` itself when that
   * is all of them. What addNew takes; buildRoutes keeps it between the builds of `dev` (RoutesMemo).
   */
  newMembers(dir: string, members: readonly string[]): readonly string[] {
    // What the folder holds already: the members of earlier sets in it (found by binary search), and single answers
    // (a few, each named here once; no path is made per member).
    const earlier = this.byDir.get(dir) ?? [];
    const singles = new Set<string>();
    for (const path of this.singles.keys()) {
      const split = splitPath(path);
      if (split !== null && split.dir === dir) singles.add(split.member);
    }
    // The members array is shared with the route table's `in` list when no member is left out: `fresh` is made only
    // from the first member left out (a large site's sets hold very many members).
    let fresh: string[] | null = null;
    for (let i = 0; i < members.length; i++) {
      const m = members[i]!;
      if (i > 0 && compareBytes(members[i - 1]!, m) >= 0)
        throw new Error(`Internal: the members of ${dir} are not sorted.`);
      if ((singles.size > 0 && singles.has(m)) || inSets(earlier, m)) fresh ??= members.slice(0, i);
      else fresh?.push(m);
    }
    return fresh ?? members;
  }

  /** addSet of members that newMembers gave for `dir` (in a build of the same keys). */
  addNew(
    dir: string,
    kept: readonly string[],
    answerFor: (member: string) => Answer,
    sample: Answer,
    inputs?: (member: string) => string,
  ): AnswerSet | null {
    if (this.sealed) throw new Error("Internal: answers added after seal().");
    inApi(`${dir}/`);
    if (kept.length === 0) return null;
    const set: AnswerSet = {
      dir,
      prefix: `${dir.slice(1)}/`,
      folder: dir.slice(1),
      members: kept,
      kind: sample.kind,
      status: sample.status,
      answerFor,
      ...(inputs === undefined ? {} : { inputs }),
    };
    this.sets.push(set);
    const list = this.byDir.get(dir);
    if (list === undefined) this.byDir.set(dir, [set]);
    else list.push(set);
    this.count += kept.length;
    return set;
  }

  /** No more answers. */
  seal(): this {
    this.sealed = true;
    return this;
  }

  has(path: string): boolean {
    return this.find(path) !== undefined;
  }

  /** The answer stored at a site path ("/api/config.json"), computed now for a set member. */
  get(path: string): Answer | undefined {
    return this.find(path)?.answer();
  }

  private find(path: string): AnswerOutput | undefined {
    const single = this.singles.get(path);
    if (single !== undefined) return new AnswerOutput(null, single, path.slice(1));
    const split = splitPath(path);
    if (split === null) return undefined;
    for (const set of this.byDir.get(split.dir) ?? []) {
      if (hasSorted(set.members, split.member)) return new AnswerOutput(set, split.member);
    }
    return undefined;
  }

  /** Every answer file (paths without the leading "/"), singles first, then each set's members. */
  *outputs(): Generator<AnswerOutput> {
    const list: AnswerOutput[] = [];
    this.pushOutputs(list);
    yield* list;
  }

  /** outputs(), pushed onto `list`: no generator step per file. */
  pushOutputs(list: { push(f: AnswerOutput): unknown }): void {
    for (const [path, answer] of this.singles) list.push(new AnswerOutput(null, answer, path.slice(1)));
    for (const set of this.sets) {
      const { members } = set;
      for (let i = 0; i < members.length; i++) list.push(new AnswerOutput(set, members[i]!));
    }
  }

  /** Site paths ("/api/config.json"). */
  *keys(): Generator<string> {
    for (const f of this.outputs()) yield `/${f.path}`;
  }

  *[Symbol.iterator](): Generator<[string, Answer]> {
    for (const f of this.outputs()) yield [`/${f.path}`, f.answer()];
  }

  /** Kind and status by path without computing set members: each single, and each set as one of its member paths. */
  *shapes(): Generator<{ path: string; dir?: string; kind: AnswerKind; status: Status }> {
    for (const [path, a] of this.singles) yield { path, kind: a.kind, status: a.status };
    for (const set of this.sets)
      yield { path: memberPath(set.dir, set.members[0]!), dir: set.dir, kind: set.kind, status: set.status };
  }
}
