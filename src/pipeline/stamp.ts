// src/pipeline/stamp.ts
// The stamp a build leaves in its records and in each folder it writes beside --out (src/layout/stamp.ts prints it):
// what was built, from which inputs, by which tool.

import path from "node:path";
import { DEFAULT_HOSTS } from "../hosts/names.js";
import type { Layout } from "../layout/paths.js";
import { LAYOUT_FORMAT, type BuildStamp } from "../layout/stamp.js";
import type { Compiled } from "./compile-site.js";
import type { BuildOptions } from "./options.js";
import { toolFingerprint } from "./up-to-date.js";

/** The stamp of `compiled`, built from the inputs whose key is `key` into `layout`. */
export function stampOf(
  compiled: Compiled,
  options: Pick<BuildOptions, "hosts">,
  layout: Layout,
  key: string,
): BuildStamp {
  return {
    format: LAYOUT_FORMAT,
    out: path.basename(layout.out),
    key,
    hosts: [...(options.hosts ?? DEFAULT_HOSTS)],
    warnings: compiled.diagnostics.filter((d) => d.severity === "warning").length,
    answers: compiled.answers ? compiled.routes.files.size : 0,
    rules: compiled.routes.table.rules.length,
    beside: compiled.beside.map((folder) => folder.dir),
    time: compiled.model.buildTime,
    tool: toolFingerprint(),
  };
}
