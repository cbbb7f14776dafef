// src/output/claim/lock.ts
// I/O: one build at a time per output folder: an exclusive-create lock file beside it, `.<name>.lock`, naming the
// process that holds it. A lock whose process is gone (killed, crashed) is stale and taken over.

import { readFileSync, readlinkSync } from "node:fs";
import { open, readFile, stat, unlink, utimes } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { UsageError } from "../../errors.js";

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

/** The pid namespace of this process (containers have their own), or "-". */
function pidNamespace(): string {
  try {
    return readlinkSync("/proc/self/ns/pid");
  } catch {
    return "-";
  }
}

/** A live build touches its lock this often; a lock whose holder cannot be checked is stale once this old ×6. */
const HEARTBEAT_MS = 5_000;
const UNCHECKABLE_STALE_MS = 6 * HEARTBEAT_MS;

interface Holder {
  pid: number;
  host: string;
  pidns: string;
  start: string;
  since: string;
}

/**
 * Whether the holder of a lock is provably gone. Its pid is checked when it ran on this host in this pid namespace
 * (gone, or now another process started at another time). Otherwise (another container, another host on a shared
 * file system) the lock's time decides: a live build touches it every few seconds.
 */
function holderGone(holder: Holder, lockMtimeMs: number): boolean {
  if (holder.host !== os.hostname() || holder.pidns !== pidNamespace())
    return Date.now() - lockMtimeMs > UNCHECKABLE_STALE_MS;
  if (holder.pid === process.pid) return holder.start !== "-" && holder.start !== processStart(process.pid);
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return true;
  }
  const now = processStart(holder.pid);
  return holder.start !== "-" && now !== "-" && now !== holder.start;
}

function parse(text: string): Holder | null {
  const lines = text.split("\n");
  if (lines[0] !== HEADER) return null;
  const field = (name: string): string => lines.find((l) => l.startsWith(`${name} `))?.slice(name.length + 1) ?? "";
  const pid = Number(field("pid"));
  if (!Number.isInteger(pid) || pid <= 0) return null;
  return {
    pid,
    host: field("host"),
    pidns: field("pidns") || "-",
    start: field("start") || "-",
    since: field("since"),
  };
}

/** Whether the lock file's holder is provably gone (then the lock may be taken over). */
async function stale(file: string): Promise<{ stale: boolean; holder: Holder | null }> {
  const text = await readFile(file, "utf8").catch(() => null);
  const mtimeMs = await stat(file).then(
    (s) => s.mtimeMs,
    () => null,
  );
  if (text === null || mtimeMs === null) return { stale: true, holder: null }; // removed meanwhile: try again
  const holder = parse(text);
  // Unparsable: being written right now, or left empty by a process killed between creating and writing it.
  if (holder === null) return { stale: Date.now() - mtimeMs > EMPTY_GRACE_MS, holder: null };
  return { stale: holderGone(holder, mtimeMs), holder };
}

/**
 * ENOENT creating a file in a folder that is there: the folder takes no new files (a kernel file system such as /proc
 * or /sys), which is the --out the user chose, not a file deleted while the build ran.
 */
async function refuseFolderWithoutNewFiles(file: string, label: string): Promise<void> {
  const folder = path.dirname(file);
  const there = await stat(folder).then(
    (st) => st.isDirectory(),
    () => false,
  );
  if (!there) return;
  throw new UsageError(
    `--out ${label}: its folder ${folder} takes no new files (a special file system such as /proc or /sys?).`,
    "Choose an --out on an ordinary disk, e.g. dist.",
  );
}

/**
 * Takes the lock of an output folder (its parent must exist), or throws a UsageError (exit 2) naming the build that
 * holds it. `label` is how the user named the folder (--out).
 */
export async function acquireLock(target: string, label: string): Promise<OutLock> {
  const file = lockFile(target);
  const text =
    `${HEADER}\npid ${process.pid}\nhost ${os.hostname()}\npidns ${pidNamespace()}\n` +
    `start ${processStart(process.pid)}\nsince ${new Date().toISOString()}\n`;
  for (let attempt = 0; attempt < 5; attempt++) {
    let handle;
    try {
      handle = await open(file, "wx");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") await refuseFolderWithoutNewFiles(file, label);
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const { stale: isStale, holder } = await stale(file);
      if (!isStale) {
        const who =
          holder === null
            ? "another build"
            : `another build (pid ${holder.pid}${holder.host === os.hostname() ? "" : ` on ${holder.host}`}, since ${holder.since})`;
        throw new UsageError(
          `--out ${label} is being written by ${who}: two builds into one folder would mix their files.`,
          `Wait for that build to finish (or stop it) and run this one again. If no build is running, delete ${file}.`,
        );
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
    // The heartbeat that tells builds which cannot check this process (another container) that it is alive.
    const heartbeat = setInterval(() => {
      const now = new Date();
      utimes(file, now, now).catch(() => {});
    }, HEARTBEAT_MS);
    heartbeat.unref();
    return {
      target,
      file,
      release: async () => {
        if (released) return;
        released = true;
        clearInterval(heartbeat);
        // Only our own lock is removed (a lock file taken over meanwhile is left alone).
        if (
          await readFile(file, "utf8").then(
            (t) => t === text,
            () => false,
          )
        )
          await unlink(file).catch(() => {});
      },
    };
  }
  throw new UsageError(
    `--out ${label}: could not take the lock ${file} (it keeps reappearing).`,
    "Another build is starting at the same moment: run this one again when it has finished.",
  );
}
