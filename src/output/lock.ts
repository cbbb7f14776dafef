// src/output/lock.ts
// One build at a time per output folder: an exclusive-create lock file beside it, `.<name>.lock`, naming the
// process that holds it. A lock whose process is gone (killed, crashed) is stale and taken over.

import { readFileSync } from "node:fs";
import { open, readFile, stat, unlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { UsageError } from "../errors.js";

const HEADER = "build-index-site lock 1";
/** A lock file still empty this long after it was made belongs to a process that died while making it. */
const EMPTY_GRACE_MS = 10_000;

export interface OutLock {
  /** The output folder the lock protects (real path of its parent, final name). */
  readonly target: string;
  readonly file: string;
  release(): Promise<void>;
}

/** The lock file of an output folder: `.<name>.lock` beside it. */
export const lockFile = (target: string): string => path.join(path.dirname(target), `.${path.basename(target)}.lock`);

/** The start time of a process (clock ticks since boot, /proc/<pid>/stat field 22), or "-" where /proc is absent. */
export function processStart(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? "-";
  } catch {
    return "-";
  }
}

/**
 * Whether the process that wrote a lock (or named a temporary folder) may still be running. False only when that
 * can be proven: same host, and the pid is gone or now belongs to a process started at another time.
 */
export function processAlive(pid: number, host = os.hostname(), start = "-"): boolean {
  if (host !== os.hostname()) return true;
  if (pid === process.pid) return start === "-" || start === processStart(pid);
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  if (start === "-") return true;
  const now = processStart(pid);
  return now === "-" || now === start;
}

interface Holder {
  pid: number;
  host: string;
  start: string;
  since: string;
}

function parse(text: string): Holder | null {
  const lines = text.split("\n");
  if (lines[0] !== HEADER) return null;
  const field = (name: string): string => lines.find((l) => l.startsWith(`${name} `))?.slice(name.length + 1) ?? "";
  const pid = Number(field("pid"));
  if (!Number.isInteger(pid) || pid <= 0) return null;
  return { pid, host: field("host"), start: field("start") || "-", since: field("since") };
}

/** Whether the lock file's holder is provably gone (then the lock may be taken over). */
async function stale(file: string): Promise<{ stale: boolean; holder: Holder | null }> {
  const text = await readFile(file, "utf8").catch(() => null);
  if (text === null) return { stale: true, holder: null }; // removed meanwhile: try again
  const holder = parse(text);
  if (holder === null) {
    // Being written right now, or left empty by a process killed between creating and writing it.
    const age = await stat(file).then((s) => Date.now() - s.mtimeMs, () => Infinity);
    return { stale: age > EMPTY_GRACE_MS, holder: null };
  }
  return { stale: !processAlive(holder.pid, holder.host, holder.start), holder };
}

/**
 * Takes the lock of an output folder (its parent must exist), or throws a UsageError (exit 2) naming the build that
 * holds it. `label` is how the user named the folder (--out).
 */
export async function acquireLock(target: string, label: string): Promise<OutLock> {
  const file = lockFile(target);
  const text = `${HEADER}\npid ${process.pid}\nhost ${os.hostname()}\nstart ${processStart(process.pid)}\nsince ${new Date().toISOString()}\n`;
  for (let attempt = 0; attempt < 5; attempt++) {
    let handle;
    try {
      handle = await open(file, "wx");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const { stale: isStale, holder } = await stale(file);
      if (!isStale) {
        const who = holder === null ? "another build" : `another build (pid ${holder.pid}${holder.host === os.hostname() ? "" : ` on ${holder.host}`}, since ${holder.since})`;
        throw new UsageError(`--out ${label} is being written by ${who}: two builds into one folder would mix their files.`,
          `Wait for that build to finish (or stop it) and run this one again. If no build is running, delete ${file}.`);
      }
      await unlink(file).catch(() => {});
      continue;
    }
    try {
      await handle.writeFile(text);
    } finally {
      await handle.close();
    }
    let released = false;
    return {
      target, file,
      release: async () => {
        if (released) return;
        released = true;
        // Only our own lock is removed (a lock file taken over meanwhile is left alone).
        if (await readFile(file, "utf8").then((t) => t === text, () => false)) await unlink(file).catch(() => {});
      },
    };
  }
  throw new UsageError(`--out ${label}: could not take the lock ${file} (it keeps reappearing).`,
    "Another build is starting at the same moment: run this one again when it has finished.");
}
