// src/output/write/kept-files.ts
// What the prints of the last build's inputs (src/routes/answer-inputs.ts) vouch for in an update in place: answer
// files kept whole, without producing them, and copies' times, without reading them.

import { ICONS_DIR, iconDirName } from "../../content/read-content.js";
import { AnswerOutput } from "../../routes/answer-files.js";
import { changedMembers, changedPrints, iconKey, type AnswerInputs } from "../../routes/answer-inputs.js";
import type { OutputFile } from "../plan/files.js";
import type { UpdateOptions } from "./options.js";

/** What the last build's inputs (`lastText`, its records' print) vouch for, against this build's (`now`). */
export function keptByInputs(
  lastText: string | null,
  now: { inputs: AnswerInputs; text: string },
  epoch: number | undefined,
): Pick<UpdateOptions, "keep" | "changedMembers" | "sameTime"> {
  const changed = changedPrints(lastText, now.text, now.inputs);
  if (changed === null) return {}; // nothing can be kept: no answer is asked, every copy's time is read
  const keep = keptAnswers(changed);
  const sameTime = keptIconTimes(changed, epoch);
  return {
    keep,
    changedMembers: (set) => changedMembers(set.inputs, changed),
    ...(sameTime === undefined ? {} : { sameTime }),
  };
}

/** Answer files whose inputs are those of the last build: their bytes are its. */
function keptAnswers(changed: ReadonlySet<string>): (f: OutputFile) => boolean {
  const tests = new Map<((member: string) => string) | undefined, (member: string) => boolean>();
  return (f) => f instanceof AnswerOutput && f.inputsUnchanged(changed, tests);
}

/**
 * Copies of icons/ files whose modification time is the last build's, without reading it: under SOURCE_DATE_EPOCH,
 * a time clamped to it now whose file's print (size and time in seconds, clamped the same way) is unchanged was
 * clamped to it then. Every file directly in icons/ has its print among the inputs (each of the model's icons/ files
 * has one), so a copy's is unchanged unless its key is among the changed ones, a handful: reading every copy's time,
 * or making every copy's key to look it up, would cost a rebuild more than it does.
 */
function keptIconTimes(
  changed: ReadonlySet<string>,
  epoch: number | undefined,
): ((f: OutputFile, mtimeMs: number) => boolean) | undefined {
  if (epoch === undefined) return undefined;
  const limit = epoch * 1000;
  const prefix = iconKey("");
  const changedCopies = new Set<string>();
  for (const key of changed) if (key.startsWith(prefix)) changedCopies.add(ICONS_DIR + key.slice(prefix.length));
  return (f, mtimeMs) => mtimeMs === limit && iconDirName(f.path) !== null && !changedCopies.has(f.path);
}
