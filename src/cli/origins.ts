// src/cli/origins.ts
// Where the content and output folders of a command came from: a flag, the config file or the default. The layers
// below the CLI name them as flags ("--out public is a folder that …"); a message about a folder the user did not pass
// as a flag names the config file's key, or says it is the default, instead.

import { BuildError } from "../errors.js";

export type Origin = { from: "flag" } | { from: "default" } | { from: "config"; key: string; file: string };

/** The folders one run of the CLI resolved, by flag name ("out", "content"), with their value and origin. */
export type Origins = Map<string, { value: string; origin: Origin }>;

/** The map of the run whose synchronous start is under way (see withOrigins). */
let current: Origins | undefined;

/**
 * Runs `work` (one run of the CLI: commander's parseAsync) with `origins` collecting what the options layer resolves.
 * Collected during work's synchronous start only: commander calls the command's action in it, and every command
 * resolves its options first (test/cli/config.test.ts holds build and dev to it, two runs at once too). An
 * AsyncLocalStorage would follow the whole run, but its promise hooks cost every promise of a build.
 */
export function withOrigins<T>(origins: Origins, work: () => T): T {
  const outer = current;
  current = origins;
  try {
    return work();
  } finally {
    current = outer;
  }
}

/** Notes where a folder came from (the options layer calls it), for relabel(). */
export function noteOrigin(flag: string, value: string, origin: Origin): void {
  current?.set(flag, { value, origin });
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** How a message names a folder that did not come from its flag. */
function label(flag: string, value: string, origin: Origin): string {
  const what = flag === "content" ? "the content folder" : "the output folder";
  return origin.from === "config"
    ? `${what} ${value} ("${origin.key}" in ${origin.file})`
    : `${what} ${value} (the default)`;
}

/**
 * The error with "--out <value>" and "--content <value>" in its message and hint replaced by where the value came
 * from, when that is not a flag. Other errors, and flags the user passed, are left as they are.
 */
export function relabel(error: unknown, origins: Origins): unknown {
  if (!(error instanceof BuildError)) return error;
  let { message } = error;
  let hint = error.hint;
  for (const [flag, { value, origin }] of origins) {
    if (origin.from === "flag") continue;
    const named = new RegExp(`--${flag} ${escape(value)}(?=$|[\\s:;,.)])`, "g");
    message = message.replace(named, label(flag, value, origin));
    hint = hint?.replace(named, label(flag, value, origin));
  }
  // A sentence that now starts with the label starts with a capital.
  message = message.replace(/^the /, "The ");
  return Object.assign(error, { message, hint });
}
