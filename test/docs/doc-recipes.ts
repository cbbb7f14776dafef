// test/docs/doc-recipes.ts
// The deploy recipes of the docs, made runnable here: the upload commands (`rsync <build folder> server:<path>`)
// say which build folder each server path is, so a documented server config is tested with only its paths
// substituted by those of a local build.

import path from "node:path";
import { commandsOf, type DocCommand } from "./doc-commands.js";
import { allUnits, type Unit } from "./doc-text.js";

/** A server path and the build folder (relative to the folder that holds --out) an upload command copies to it. */
export interface Upload {
  remote: string;
  local: string;
  command: DocCommand;
}

const trim = (p: string): string => p.replace(/\/+$/, "");

/** Every `rsync … <local> <host>:<remote>` the docs give. */
export function uploads(units: readonly Unit[] = allUnits()): Upload[] {
  const found: Upload[] = [];
  for (const c of commandsOf(units).filter((c) => c.tool === "rsync")) {
    const [local, target] = c.args.filter((a) => !a.startsWith("-"));
    const remote = /^[^/:]+:(\/.*)$/.exec(target ?? "")?.[1];
    if (local !== undefined && remote !== undefined)
      found.push({ remote: trim(remote), local: trim(local), command: c });
  }
  return found;
}

/** The code blocks of one language (`nginx`, `apache`) in the docs; docs/hosts.md's are sketches of the research
 * that chose each host's rules (`/api/_err/`), not a recipe. */
export const blocks = (lang: string, units: readonly Unit[] = allUnits()): Unit[] =>
  units.filter((u) => u.kind === "code" && u.lang === lang && u.doc !== "docs/hosts.md");

/**
 * A config with each absolute path put under `root` as the upload that reaches it says (the longest server path
 * that holds it); the paths no upload reaches are returned, for the failure to name.
 */
export function substitute(text: string, all: readonly Upload[], root: string): { text: string; unreached: string[] } {
  const unreached: string[] = [];
  const byLength = [...all].sort((a, b) => b.remote.length - a.remote.length);
  const out = text.replace(/(?<=[\s"])(\/[\w./-]*)/g, (p: string) => {
    const upload = byLength.find((u) => p === u.remote || p.startsWith(`${u.remote}/`));
    if (upload === undefined) {
      unreached.push(p);
      return p;
    }
    return path.join(root, upload.local, p.slice(upload.remote.length));
  });
  return { text: out, unreached };
}

/** Lines without their `#` comments (a config's comment may hold a path that is no part of it). */
export const withoutComments = (text: string): string =>
  text
    .split("\n")
    .map((line) => line.replace(/(^|\s)#.*$/, ""))
    .join("\n");
