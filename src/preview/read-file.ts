// src/preview/read-file.ts
// How the preview reads a file: only regular files (a FIFO or device is "not found", never a read that blocks), opened
// with O_NONBLOCK, read whole (or the asked range) and closed at once, with at most MAX_OPEN files open at a time. A
// client that never reads its answers (a pipelined flood) therefore holds memory, never file descriptors, and a
// request never meets EMFILE: it waits for a free slot instead. A file hashed for its ETag (file-tags.ts) is read at once
// when it is small, else in a slot.

import { createHash } from "node:crypto";
import { closeSync, constants, createReadStream, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { Readable } from "node:stream";
import { digest } from "../content/file-facts.js";

/** Larger files are streamed (outside the slots: a client that never reads must not hold one) rather than read whole. */
const READ_WHOLE_MAX = 1024 * 1024;
/** Files the preview holds open at once (far below the usual `ulimit -n` of 1024). */
const MAX_OPEN = 64;
let openCount = 0;
const waiting: Array<() => void> = [];

async function slot(): Promise<void> {
  if (openCount < MAX_OPEN) {
    openCount += 1;
    return;
  }
  await new Promise<void>((resolve) => waiting.push(resolve));
}

function release(): void {
  const next = waiting.shift();
  if (next !== undefined) next();
  else openCount -= 1;
}

export const notFound = (): NodeJS.ErrnoException => Object.assign(new Error("not found"), { code: "ENOENT" });

/** Opens a regular file for reading (O_NONBLOCK: a FIFO never blocks), waiting out a moment of exhausted descriptors,
 * with its stats; ENOENT for anything else. */
async function openRegular(file: string): Promise<{ handle: FileHandle; stats: Stats }> {
  for (let attempt = 0; ; attempt += 1) {
    let handle: FileHandle;
    try {
      handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Descriptors taken by others (sockets): wait a moment and try again, a few times.
      if ((code === "EMFILE" || code === "ENFILE") && attempt < 50) {
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      throw notFound();
    }
    try {
      const stats = await handle.stat();
      if (stats.isFile()) return { handle, stats };
    } catch {
      // fall through: closed below
    }
    await handle.close().catch(() => undefined);
    throw notFound();
  }
}

/** The bytes of a regular file (from `start` to `end`, inclusive, when given) as a stream; ENOENT for anything else. */
export async function readRegularFile(file: string, range: { start?: number; end?: number } = {}): Promise<Readable> {
  await slot();
  try {
    const opened = await openRegular(file);
    let handle: FileHandle | undefined = opened.handle;
    try {
      const { stats } = opened;
      const start = range.start ?? 0;
      const end = Math.min(range.end ?? stats.size - 1, stats.size - 1);
      const length = Math.max(0, end - start + 1);
      if (length > READ_WHOLE_MAX) {
        // The stream owns the descriptor now (the caller destroys it when the answer ends or the client leaves). It
        // holds no slot: clients that never read would keep every slot, and every other request would wait forever.
        const stream = createReadStream("", { fd: handle, start, end, autoClose: true });
        handle = undefined;
        stream.on("error", () => undefined);
        return stream;
      }
      const buffer = Buffer.allocUnsafe(length);
      let done = 0;
      while (done < length) {
        const { bytesRead } = await handle.read(buffer, done, length - done, start + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      return Readable.from(done === length ? [buffer] : [buffer.subarray(0, done)], { objectMode: false });
    } finally {
      await handle?.close().catch(() => undefined);
    }
  } finally {
    release();
  }
}

/**
 * The SHA-1 of a regular file's bytes (ENOENT for anything else). A file of up to READ_WHOLE_MAX bytes (by `size`, its
 * stats just taken) is read at once, synchronously: four calls on the thread pool cost more than the read of a small
 * file from the page cache. A larger one is read in a slot: reading the disk never waits on a client.
 */
export async function hashRegularFile(file: string, size: number): Promise<Buffer> {
  if (size <= READ_WHOLE_MAX) {
    let fd: number;
    try {
      fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    } catch {
      throw notFound();
    }
    try {
      const stats = fstatSync(fd);
      if (!stats.isFile()) throw notFound();
      if (stats.size <= READ_WHOLE_MAX) {
        // else it grew since: read in a slot below
        const buffer = Buffer.allocUnsafe(stats.size);
        let done = 0;
        while (done < buffer.length) {
          const read = readSync(fd, buffer, done, buffer.length - done, done);
          if (read === 0) break;
          done += read;
        }
        return digest(buffer.subarray(0, done));
      }
    } finally {
      closeSync(fd);
    }
  }
  await slot();
  try {
    const { handle } = await openRegular(file);
    try {
      const hash = createHash("sha1");
      const buffer = Buffer.allocUnsafe(READ_WHOLE_MAX);
      for (let at = 0; ;) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
        if (bytesRead === 0) break;
        hash.update(buffer.subarray(0, bytesRead));
        at += bytesRead;
      }
      return hash.digest();
    } finally {
      await handle.close().catch(() => undefined);
    }
  } finally {
    release();
  }
}
