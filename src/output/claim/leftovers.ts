// src/output/claim/leftovers.ts
// The command that removes what the build of an earlier --out left in a folder (its output, its records and the
// host folders beside it), for the message that refuses to build over them (folder-checks.ts: checkBeside).

import path from "node:path";
import { RECORDS_ROOT } from "../../layout/paths.js";

/** A path as a POSIX shell word: quoted when it holds anything but letters, digits and `_ . / + , : @ -`. */
const word = (p: string): string => (/^[\w./+,:@-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`);

/**
 * `rm -rf dist .build-index-site/dist .build-index-site/dist.* .netlify/v1 …`: the output folder `out` (its path as
 * the user gave it), its records and `beside` (the folders its stamp lists, relative to the folder that holds it),
 * each relative to the current folder.
 */
export function leftoversCommand(out: string, beside: readonly string[], cwd: string = process.cwd()): string {
  const base = path.dirname(path.resolve(cwd, out));
  const rel = (p: string): string => path.relative(cwd, p) || ".";
  const records = rel(path.join(base, RECORDS_ROOT, path.basename(out)));
  const paths = [rel(path.resolve(cwd, out)), records].map(word);
  // The records' siblings (`dist.content`, `dist.dirs`, …): the glob stays outside the quotes.
  paths.push(`${word(records)}.*`);
  for (const dir of beside) paths.push(word(rel(path.join(base, ...dir.split("/")))));
  return `rm -rf ${paths.join(" ")}`;
}
