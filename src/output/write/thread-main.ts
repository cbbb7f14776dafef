// src/output/write/thread-main.ts
// I/O: the write thread's entry (write-thread.ts starts it from its compiled file): it does the batches of new files
// and links the main thread hands over, and answers each with its first failure (null: none). A sink that failed gets
// none of its later batches run.

import { parentPort, workerData } from "node:worker_threads";
import { linkOrCopy, writeNew } from "./thread-ops.js";

/** One batch: four entries an operation (0: write dest, data, mtimeMs; 1: link existing, dest, limit; -1: none). */
export interface Batch {
  sink: number;
  ops: Array<number | string | Uint8Array>;
}

/** A failure as it crosses to the main thread (an Error's own fields). */
export interface ThreadError {
  message: string;
  code?: string;
  errno?: number;
  syscall?: string;
  path?: string;
  dest?: string;
}

const done = new Int32Array(workerData as SharedArrayBuffer);
const failed = new Set<number>();
const given = (n: number): number | undefined => (n < 0 ? undefined : n);

function run({ ops }: Batch): void {
  for (let i = 0; i < ops.length; i += 4) {
    if (ops[i] === 0) writeNew(ops[i + 1] as string, ops[i + 2] as string | Uint8Array, given(ops[i + 3] as number));
    else linkOrCopy(ops[i + 1] as string, ops[i + 2] as string, given(ops[i + 3] as number));
  }
}

parentPort!.on("message", (batch: Batch) => {
  let error: ThreadError | null = null;
  if (!failed.has(batch.sink)) {
    try {
      run(batch);
    } catch (e) {
      failed.add(batch.sink);
      const { message, code, errno, syscall, path, dest } = e as NodeJS.ErrnoException & { dest?: string };
      error = { message, code, errno, syscall, path, dest } as ThreadError;
    }
  }
  Atomics.add(done, 0, 1);
  parentPort!.postMessage({ sink: batch.sink, error });
});
