// test/helpers/run-cleanup.ts
// I/O: vitest globalSetup: gives the run one temporary folder (TMPDIR points into it, so every tmpDir(), mkdtemp and
// child's temporary file lands there) and, at the end or on SIGINT/SIGTERM/SIGHUP (Ctrl-C), stops every server the
// run started (test/helpers/processes.ts lists their process groups) and every process below vitest, then removes the
// folder.

import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { groupsDir, RUN_ENV, signalGroup } from "./processes.js";

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
/** How long stopped processes get to exit before SIGKILL. */
const GRACE_MS = 3000;

/** Every process below `root`, read from /proc (Linux; elsewhere none). */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  for (const name of entries) {
    try {
      // The command name (field 2) may hold spaces and parentheses: the fields after its last ")" are fixed.
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      /* exited meanwhile */
    }
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const sleep = (ms: number): void => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms) as unknown as void;

/** Stops the listed groups and (when `everything`) every process below this one: SIGTERM, then SIGKILL. */
function stopProcesses(everything: boolean): void {
  const dir = groupsDir();
  const groups = dir === null ? [] : safeList(dir).map(Number);
  const below = everything ? descendants(process.pid) : [];
  for (const group of groups) signalGroup(group, "SIGTERM");
  for (const pid of below) signalGroup(pid, "SIGTERM");
  for (const pid of below) kill(pid, "SIGTERM");
  const deadline = Date.now() + GRACE_MS;
  while (Date.now() < deadline && [...groups, ...below].some(alive)) sleep(50);
  for (const group of groups) signalGroup(group, "SIGKILL");
  for (const pid of below) kill(pid, "SIGKILL");
}

function kill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    /* already gone */
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

interface Run {
  dir: string;
  /** vitest's own temporary folders (made before this setup runs, so not in `dir`): removed after an interrupt. */
  vitestDirs: Set<string>;
  users: number;
  cleaned: boolean;
}

/** One run per vitest process, however many projects call this setup. */
const RUN = Symbol.for("build-index-site.test-run");
const state = globalThis as { [RUN]?: Run };

function cleanup(run: Run, everything: boolean): void {
  if (run.cleaned) return;
  run.cleaned = true;
  stopProcesses(everything);
  rmSync(run.dir, { recursive: true, force: true });
  // At the normal end vitest removes its own folders itself, after this.
  if (everything) for (const dir of run.vitestDirs) rmSync(dir, { recursive: true, force: true });
}

function start(): Run {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bis-run-"));
  // Readable like a folder made with the usual umask: web servers' workers serve sites built below it.
  chmodSync(dir, 0o755);
  const run: Run = { dir, vitestDirs: new Set(), users: 0, cleaned: false };
  process.env[RUN_ENV] = dir;
  process.env.TMPDIR = dir;
  const onSignal = (signal: NodeJS.Signals): void => {
    cleanup(run, true);
    // vitest's own handler (when still listening) exits first, with the same code.
    setTimeout(() => process.exit(128 + os.constants.signals[signal]), 200);
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  process.once("exit", () => cleanup(run, true));
  return run;
}

export default function runCleanup(project?: { tmpDir?: string }): () => void {
  const run = (state[RUN] ??= start());
  run.users += 1;
  if (typeof project?.tmpDir === "string") run.vitestDirs.add(project.tmpDir);
  return () => {
    run.users -= 1;
    if (run.users === 0) cleanup(run, false);
  };
}
