// src/routes/answer-files.ts
// The answers of a build by site path. Most come in sets (one file per known extension, icon or version): a set
// keeps its members and the function that answers one, and computes an answer only when it is asked for. The writer
// asks once per file and drops it, so a ×100 site (590,000 answers) is never held as answer objects.

import { answerText, type Answer, type AnswerKind, type Status } from "../api/answers.js";
import { sameText } from "../model/json.js";

/** One folder of answers: member `m` is stored at `${dir}/${m}.json`. */
export interface AnswerSet {
  /** Site folder, "/api/findIcon/file". */
  readonly dir: string;
  /** Distinct members, in the order given; without those another set or file already holds at the same path. */
  readonly members: readonly string[];
  /** The kind and status of every member's answer: one rule serves the set, with one status and one set of headers. */
  readonly kind: AnswerKind;
  readonly status: Status;
  answerFor(member: string): Answer;
}

/** An answer file: its path, and its answer made on demand. */
export interface AnswerFile {
  readonly path: string;
  answer(): Answer;
}

/** A set member's file: three references, its answer computed each time it is asked for. */
class MemberFile implements AnswerFile {
  constructor(readonly path: string, private readonly set: AnswerSet, private readonly member: string) {}
  answer(): Answer {
    return checked(this.path, this.set, this.member);
  }
}

/**
 * An answer file as the writer sees it: its path in the output folder (no leading "/") and its text, made when it is
 * written. Two references per file: a ×100 site has 590,000 of them.
 */
export class AnswerOutput {
  constructor(private readonly set: AnswerSet | null, private readonly value: string | Answer, private readonly single?: string) {}
  /** Made each time it is asked for: a ×100 site's 590,000 paths are never held at once. */
  get path(): string {
    return this.set === null ? this.single! : `${this.set.dir.slice(1)}/${this.value as string}.json`;
  }
  produce(): string {
    return answerText(this.set === null ? this.value as Answer : checked(this.path, this.set, this.value as string));
  }
}

function checked(path: string, set: AnswerSet, member: string): Answer {
  const a = set.answerFor(member);
  if (a.kind !== set.kind || a.status !== set.status) {
    throw new Error(`Internal: ${path} is a ${a.kind} ${a.status} answer in a set of ${set.kind} ${set.status}.`);
  }
  return a;
}

class SingleFile implements AnswerFile {
  constructor(readonly path: string, private readonly value: Answer) {}
  answer(): Answer {
    return this.value;
  }
}

const memberPath = (dir: string, member: string): string => `${dir}/${member}.json`;

/** Splits "/api/icon/a.png.json" into its folder and member, or null for a path that is not `<dir>/<member>.json`. */
function splitPath(path: string): { dir: string; member: string } | null {
  const slash = path.lastIndexOf("/");
  if (slash <= 0 || !path.endsWith(".json")) return null;
  return { dir: path.slice(0, slash), member: path.slice(slash + 1, -".json".length) };
}

export class AnswerFiles implements Iterable<[string, Answer]> {
  private readonly singles = new Map<string, Answer>();
  private readonly sets: AnswerSet[] = [];
  /** Folder → the members of its sets (to find a path's set, and to store a path once). */
  private readonly held = new Map<string, Map<string, AnswerSet>>();
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
    const existing = this.get(path);
    if (existing !== undefined) {
      if (existing !== answer && !sameText(existing.body, answer.body)) throw new Error(`Internal: two different answers for ${path}.`);
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
  addSet(dir: string, members: Iterable<string>, answerFor: (member: string) => Answer, sample: Answer): AnswerSet | null {
    let inDir = this.held.get(dir);
    const fresh: string[] = [];
    for (const m of members) {
      if (inDir?.has(m) || this.singles.has(memberPath(dir, m))) continue;
      fresh.push(m);
      if (inDir === undefined) this.held.set(dir, (inDir = new Map()));
      inDir.set(m, null as unknown as AnswerSet); // filled below, once the set exists
    }
    if (fresh.length === 0) return null;
    const set: AnswerSet = { dir, members: fresh, kind: sample.kind, status: sample.status, answerFor };
    for (const m of fresh) inDir!.set(m, set);
    this.sets.push(set);
    this.count += fresh.length;
    return set;
  }

  has(path: string): boolean {
    return this.find(path) !== undefined;
  }

  /** The answer stored at a site path ("/api/config.json"), computed now for a set member. */
  get(path: string): Answer | undefined {
    return this.find(path)?.answer();
  }

  private find(path: string): AnswerFile | undefined {
    const single = this.singles.get(path);
    if (single !== undefined) return new SingleFile(path, single);
    const split = splitPath(path);
    const set = split === null ? undefined : this.held.get(split.dir)?.get(split.member);
    return set === undefined ? undefined : new MemberFile(path, set, split!.member);
  }

  /** Every answer file, singles first, then each set's members; answers are made only when asked for. */
  *files(): Generator<AnswerFile> {
    for (const [path, answer] of this.singles) yield new SingleFile(path, answer);
    for (const set of this.sets) for (const m of set.members) yield new MemberFile(memberPath(set.dir, m), set, m);
  }

  /** Every answer file for the writer (paths without the leading "/"), in the order of `files()`. */
  *outputs(): Generator<AnswerOutput> {
    for (const [path, answer] of this.singles) yield new AnswerOutput(null, answer, path.slice(1));
    for (const set of this.sets) for (const m of set.members) yield new AnswerOutput(set, m);
  }

  *keys(): Generator<string> {
    for (const f of this.files()) yield f.path;
  }

  *[Symbol.iterator](): Generator<[string, Answer]> {
    for (const f of this.files()) yield [f.path, f.answer()];
  }

  /** Kind and status by path without computing set members: each single, and each set as one of its member paths. */
  *shapes(): Generator<{ path: string; dir?: string; kind: AnswerKind; status: Status }> {
    for (const [path, a] of this.singles) yield { path, kind: a.kind, status: a.status };
    for (const set of this.sets) yield { path: memberPath(set.dir, set.members[0]!), dir: set.dir, kind: set.kind, status: set.status };
  }
}
