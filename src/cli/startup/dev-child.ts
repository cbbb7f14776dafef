// src/cli/startup/dev-child.ts
// I/O: `dev` runs in a child Node process with a larger young generation (`--max-semi-space-size`), which only a
// process's start can set (V8 sizes it when the heap is made; v8.setFlagsFromString later changes nothing). A rebuild
// makes many objects that live until it is written (the model, the route table, the plan): small semi-spaces copy
// them again at each scavenge. The semi-spaces grow only as far as a build needs them: a small site's stay small.
// bin/build-index-site.js asks `respawnArgs` before it loads the command's bundle, so the parent only waits.

/** Set in the child's environment: it runs `dev` itself. */
export const DEV_CHILD_ENV = "BUILD_INDEX_SITE_DEV_CHILD";
const SEMI_SPACE_MB = 64;

/**
 * The Node arguments of the child that runs this `dev` (the script and its arguments after Node's own), or null
 * when this process runs the command itself: another command, the child already, or Node flags that a second process
 * must not take (an inspector's port) or that set the semi-spaces already (the user's choice stands).
 */
export function respawnArgs(
  argv: readonly string[],
  execArgv: readonly string[],
  env: NodeJS.ProcessEnv,
): string[] | null {
  if (argv[2] !== "dev" || env[DEV_CHILD_ENV] === "1" || argv[1] === undefined) return null;
  const flags = [...execArgv, ...(env.NODE_OPTIONS ?? "").split(/\s+/)];
  if (flags.some((flag) => /^--(inspect|debug|(max|min)[-_]semi[-_]space[-_]size)/.test(flag))) return null;
  return [...execArgv, `--max-semi-space-size=${SEMI_SPACE_MB}`, argv[1], ...argv.slice(2)];
}

/**
 * Runs `dev` in the child and resolves with its exit code (128 + the signal's number when a signal ended it), or
 * null when the child could not be started (the caller runs the command itself). SIGINT, SIGTERM and SIGHUP are
 * passed on: the child stops as it would alone (a Ctrl-C reaches both, and dev stops once).
 */
export async function runInChild(args: readonly string[]): Promise<number | null> {
  // Loaded here: every other command starts without them.
  const [{ spawn }, { constants }] = await Promise.all([import("node:child_process"), import("node:os")]);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: "inherit", env: { ...process.env, [DEV_CHILD_ENV]: "1" } });
    const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
    const forward = signals.map((signal) => [signal, (): void => void child.kill(signal)] as const);
    for (const [signal, handler] of forward) process.on(signal, handler);
    let settled = false;
    const done = (code: number | null): void => {
      if (settled) return;
      settled = true;
      for (const [signal, handler] of forward) process.off(signal, handler);
      resolve(code);
    };
    // An error with no process started (no pid) means none runs: the caller runs dev itself. Any later error (a
    // signal that could not be passed on) leaves the child running, and its exit still ends the wait.
    child.on("error", () => {
      if (child.pid === undefined) done(null);
    });
    child.once("exit", (code, signal) => done(code ?? 128 + (signal === null ? 0 : constants.signals[signal])));
  });
}
