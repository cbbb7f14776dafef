// src/output/plan.ts
// Everything the build writes, as a sorted list of files: answers, route table, host configs, copied content.

import { answerText } from "../api/answers.js";
import type { RawFile } from "../content/read-content.js";
import { stringify, type Body } from "../model/json.js";
import type { AnswerFile } from "../routes/answer-files.js";
import type { BuiltRoutes } from "../routes/build-routes.js";
import { serveConfig } from "./serve-config.js";

export type OutputFile =
  | { path: string; data: string | Uint8Array }
  /** A file whose bytes are produced only when it is written (answers: the site is never held as text). */
  | { path: string; produce(): string | Uint8Array }
  /** A content file copied byte for byte (the copy gets the source's modification time, which lets rebuilds reuse it). */
  | { path: string; source: string; size: number; mtimeMs?: number }
  /**
   * A hard link to a file this build has just written (a host's copy of the site): `entry` is that file's manifest
   * entry ("<hash> <size>"), so nothing is read. Where linking fails (another file system), the bytes are copied.
   */
  | { path: string; linkTo: string; entry: string };

/** An answer's file: its answer and text are made when the writer asks for them (one small object per file). */
class AnswerOutput {
  constructor(readonly path: string, private readonly file: AnswerFile) {}
  produce(): string {
    return answerText(this.file.answer());
  }
}

/** Whether an output file is an answer (a JSON response under api/). */
export const isAnswerOutput = (f: OutputFile): boolean => f instanceof AnswerOutput;

export function planOutput(routes: BuiltRoutes, published: readonly RawFile[], hostFiles: readonly OutputFile[] = []): OutputFile[] {
  const files: OutputFile[] = [];
  for (const f of routes.files.files()) files.push(new AnswerOutput(f.path.slice(1), f));
  files.push({ path: "routes.json", data: stringify(routes.table as unknown as Body) });
  files.push({ path: "serve.json", data: stringify(serveConfig(published.map((f) => f.path)) as unknown as Body) });
  for (const f of published) files.push({ path: f.path, source: f.absPath, size: f.size, mtimeMs: f.mtimeMs });
  files.push(...hostFiles);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (let i = 1; i < files.length; i++) {
    if (files[i]!.path === files[i - 1]!.path) throw new Error(`Internal: ${files[i]!.path} is written twice.`);
  }
  return files;
}

/** Paths that would land on the same file on a case-insensitive file system (macOS, Windows). */
export function caseCollisions(files: readonly OutputFile[]): string[][] {
  const first = new Map<string, string>();
  /** Only the keys that collide get a list (a list per file was most of this check's time and memory). */
  const lists = new Map<string, string[]>();
  for (const f of files) {
    const key = f.path.toLowerCase();
    const seen = first.get(key);
    if (seen === undefined) first.set(key, f.path);
    else {
      const list = lists.get(key);
      if (list === undefined) lists.set(key, [seen, f.path]);
      else list.push(f.path);
    }
  }
  if (lists.size === 0) return [];
  // In the order of the first path of each group.
  return [...first.keys()].filter((key) => lists.has(key)).map((key) => lists.get(key)!);
}
