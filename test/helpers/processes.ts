// test/helpers/processes.ts
// I/O: the servers a test run starts (nginx, Apache, php -S, wrangler and workerd, Deno), each in a process group of
// its own and registered in the run's folder, so that the run's cleanup (test/helpers/run-cleanup.ts) can stop any that
// a test left or that an interrupted run (Ctrl-C) never reached.

import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The run's own folder (test/helpers/run-cleanup.ts makes it, sets TMPDIR to it and removes it at the end). */
export const RUN_ENV = "BIS_TEST_RUN";

/** Where the started process groups are listed (one empty file per group leader's pid), or null outside a run. */
export function groupsDir(): string | null {
  const run = process.env[RUN_ENV];
  return run ? path.join(run, ".groups") : null;
}

/** Lists a process group (a server started detached, or under setsid) for the run's cleanup; returns its unlisting. */
export function trackGroup(pid: number): () => void {
  const dir = groupsDir();
  if (dir === null) return () => {};
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, String(pid));
  writeFileSync(file, "");
  return () => rmSync(file, { force: true });
}

/** Starts a server as the leader of a new process group, listed until it exits. */
export function spawnServer(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], ...options, detached: true });
  if (child.pid !== undefined) child.once("exit", trackGroup(child.pid));
  return child;
}

/** Sends a signal to a process group, quietly when it is gone already. */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    /* already gone */
  }
}

/** Stops a server started by spawnServer and everything in its group: SIGTERM, then SIGKILL after `graceMs`. */
export async function stopServer(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const pid = child.pid;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => signalGroup(pid, "SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    signalGroup(pid, "SIGTERM");
  });
  // The leader is gone; anything it left in its group goes too (Apache's and nginx's workers, workerd).
  signalGroup(pid, "SIGKILL");
}

/**
 * Runs `code` (an ES module) in a child Node process with `spec` as JSON in CRASH_SPEC, for a test that kills it at a
 * chosen step: resolves with the signal that ended it (null when it exited) and what it printed.
 */
export function runCrashChild(code: string, spec: unknown): Promise<{ signal: NodeJS.Signals | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", code], {
      env: { ...process.env, CRASH_SPEC: JSON.stringify(spec) },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let stdout = "";
    child.stdout!.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.on("error", reject);
    child.on("close", (_code, signal) => resolve({ signal, stdout }));
  });
}
