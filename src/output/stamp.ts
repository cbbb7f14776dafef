// src/output/stamp.ts
// The stamp a build leaves in its records (src/layout/stamp.ts prints it): what was built, from which inputs, by which
// tool, and which folders it wrote beside --out.

import path from "node:path";
import type { Diagnostic } from "../errors.js";
import type { BesideFolder } from "../hosts/index.js";
import { DEFAULT_HOSTS, type HostName } from "../hosts/names.js";
import type { Layout } from "../layout/paths.js";
import { LAYOUT_FORMAT, type BuildStamp } from "../layout/stamp.js";
import type { SiteModel } from "../model/types.js";
import type { BuiltRoutes } from "../routes/build-routes.js";

/** What the stamp tells of a computed build (src/pipeline/compile-site.ts: Compiled). */
export interface Stamped {
  model: Pick<SiteModel, "buildTime">;
  routes: Pick<BuiltRoutes, "files" | "table">;
  diagnostics: readonly Diagnostic[];
  /** Whether --out holds the answer files. */
  answers: boolean;
  beside: ReadonlyArray<Pick<BesideFolder, "dir">>;
}

/** What the stamp tells of a build's making: its inputs' key, the hosts asked for (all by default), the tool. */
export interface StampInputs {
  key: string;
  hosts: readonly HostName[] | undefined;
  tool: string;
}

/** The stamp of `built`, made from `inputs` into `layout`. */
export function stampOf(built: Stamped, inputs: StampInputs, layout: Layout): BuildStamp {
  return {
    format: LAYOUT_FORMAT,
    out: path.basename(layout.out),
    key: inputs.key,
    hosts: [...(inputs.hosts ?? DEFAULT_HOSTS)],
    warnings: built.diagnostics.filter((d) => d.severity === "warning").length,
    answers: built.answers ? built.routes.files.size : 0,
    rules: built.routes.table.rules.length,
    beside: built.beside.map((folder) => folder.dir),
    time: built.model.buildTime,
    tool: inputs.tool,
  };
}
