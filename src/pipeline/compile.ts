// src/pipeline/compile.ts
// `compile`: reads and computes a build, writing nothing (`check`, `diff`), and how many files it would write. The
// computing itself (compile-site.ts: ajv, the model, routes, host printers) loads only when it is asked for, so
// that a command or a rebuild with nothing to do stays cheap.

import { readContent } from "../content/read-content.js";
import type { Compiled } from "./compile-site.js";
import { readOptions, type CompileOptions } from "./options.js";

/** Reads and checks the content and computes every answer, without writing anything. */
export async function compile(options: CompileOptions): Promise<Compiled> {
  const raw = await readContent(options.content, readOptions(options));
  const { compileSite } = await import("./compile-site.js");
  return compileSite(raw, options);
}
