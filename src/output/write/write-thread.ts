// src/output/write/write-thread.ts
// I/O: a second thread for the full writer's new files and links: the main thread hands them over in batches and goes
// on producing and hashing the next files, or makes them itself while the thread is behind.

import { existsSync } from "node:fs";
import os from "node:os";
import { Worker } from "node:worker_threads";
import type { Batch, ThreadError } from "./thread-main.js";
import { linkOrCopy, writeNew } from "./thread-ops.js";

/**
 * The thread's entry as compiled (lib/output/write/thread-main.js), where this module runs: compiled beside it, in the
 * command's bundle (lib/cli-bundle/), or from the sources (the tests: `npm run build` compiles it).
 */
function threadFile(): URL {
  const places = ["./thread-main.js", "../output/write/thread-main.js", "../../../lib/output/write/thread-main.js"];
  for (const place of places) {
    const url = new URL(place, import.meta.url);
    if (existsSync(url)) return url;
  }
  throw new Error(
    "Internal: the write thread's compiled entry (lib/output/write/thread-main.js) is missing: npm run build.",
  );
}

let mode: "auto" | "always" | "never" = "auto";

/** Tests: the thread whatever the load ("always"), never, or as the load says ("auto", the default). */
export function useWriteThread(use: typeof mode): void {
  mode = use;
}

/**
 * Whether a second thread can be expected to run beside this one: when the last minute's load (this build's own
 * start counted in it, and a benchmark's runs before it) is below the processors. On a machine busy with other work
 * the thread's start and the copies handed to it cost more than it saves.
 */
export function threadPays(): boolean {
  if (mode !== "auto") return mode === "always";
  return os.loadavg()[0]! < os.availableParallelism();
}

/** Operations per batch, and the bytes of data after which a batch is sent early. */
const BATCH_OPS = 64;
const BATCH_BYTES = 1 << 20;
/** Batches the thread may have to do before the main thread does the next files itself. */
const AHEAD = 2;

interface Thread {
  worker: Worker;
  done: Int32Array;
  posted: number;
  sinks: Map<number, WriteSink>;
  /** Sinks waiting for their answers: the thread keeps the process alive only while one is. */
  waiting: number;
}

let thread: Thread | null = null;
let nextSink = 0;

function started(): Thread {
  if (thread !== null) return thread;
  const shared = new SharedArrayBuffer(4);
  // None of the process's own Node flags: the thread only writes files, and some flags stop a thread from starting
  // (`--input-type`, given to a build run with `node --input-type=module -e …`).
  const worker = new Worker(threadFile(), { workerData: shared, execArgv: [] });
  const t: Thread = { worker, done: new Int32Array(shared), posted: 0, sinks: new Map(), waiting: 0 };
  worker.on("message", ({ sink, error }: { sink: number; error: ThreadError | null }) =>
    t.sinks.get(sink)?.answered(error),
  );
  worker.on("error", (error) => {
    thread = null;
    for (const sink of t.sinks.values()) sink.lost(error);
  });
  worker.unref(); // after its listeners, which ref it
  thread = t;
  return t;
}

/**
 * The files of one folder being written, shared with the thread. `write` and `link` never fail at once: a failure is
 * thrown by `drain`, which waits for every batch handed over; the caller drains before it swaps in or removes the
 * folder. A link that fails (another file system) is a copy of the file, with its time clamped to `limit`.
 */
export class WriteSink {
  private readonly id = nextSink++;
  private readonly thread = started();
  private ops: Array<number | string | Uint8Array> = [];
  private bytes = 0;
  private pending = 0;
  private error: Error | null = null;
  private wake: (() => void) | null = null;

  constructor(private readonly limit: number | undefined) {
    this.thread.sinks.set(this.id, this);
  }

  write(dest: string, data: string | Uint8Array, mtimeMs: number | undefined): void {
    if (this.behind()) return writeNew(dest, data, mtimeMs);
    this.ops.push(0, dest, data, mtimeMs ?? -1);
    this.bytes += data.length;
    if (this.ops.length >= BATCH_OPS * 4 || this.bytes >= BATCH_BYTES) this.send();
  }

  link(existing: string, dest: string): void {
    if (this.behind()) return linkOrCopy(existing, dest, this.limit);
    this.ops.push(1, existing, dest, this.limit ?? -1);
    if (this.ops.length >= BATCH_OPS * 4) this.send();
  }

  /** Waits for every file handed over; throws the first failure. */
  async drain(): Promise<void> {
    if (this.error === null) this.send();
    if (this.pending > 0) {
      const t = this.thread;
      if (t.waiting++ === 0) t.worker.ref();
      await new Promise<void>((resolve) => (this.wake = resolve));
      if (--t.waiting === 0) t.worker.unref();
    }
    this.thread.sinks.delete(this.id);
    if (this.error !== null) throw this.error;
  }

  /** The thread's answer to one batch. */
  answered(error: ThreadError | null): void {
    if (error !== null && this.error === null) this.error = Object.assign(new Error(error.message), error);
    if (--this.pending === 0) this.wake?.();
  }

  /** The thread stopped: nothing more is answered. */
  lost(error: Error): void {
    this.error ??= error;
    this.pending = 0;
    this.wake?.();
  }

  /** Whether the thread has more than enough to do (or this sink failed): the main thread then does the file. */
  private behind(): boolean {
    const t = this.thread;
    return this.error !== null || t.posted - Atomics.load(t.done, 0) >= AHEAD;
  }

  private send(): void {
    if (this.ops.length === 0 || this.error !== null) return;
    this.thread.worker.postMessage({ sink: this.id, ops: this.ops } satisfies Batch);
    this.thread.posted++;
    this.pending++;
    this.ops = [];
    this.bytes = 0;
  }
}
