// src/output/write/file-ops.ts
// I/O: the full writer's per-file calls: synchronous, or the injected methods (tests), awaited.

import {
  closeSync,
  futimesSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  writeFileSync,
  type Stats,
} from "node:fs";
import { createHash } from "node:crypto";
import { utimes, writeFile } from "node:fs/promises";
import type { WriteMethods } from "../claim/fs-methods.js";
import { writeNew } from "./thread-ops.js";

/**
 * The per-file calls of the writer. Without injected methods they are the synchronous calls: one thread that opens,
 * writes and closes each small file costs less than handing every call to libuv's pool (the floor, a plain
 * synchronous copy, is what the build is measured against). Injected methods (tests) are awaited.
 */
export interface FileOps {
  mkdir(dir: string): void | Promise<unknown>;
  /** Writes a new file (a string as UTF-8); with `mtimeMs`, gives it that modification time. */
  write(dest: string, data: string | Uint8Array, mtimeMs: number | undefined): void | Promise<void>;
  /** Writes a new file from its text's pieces (as UTF-8), as `write` does; returns the bytes' sha1 and number. */
  writeChunks(dest: string, chunks: Iterable<string>, mtimeMs: number | undefined): Written | Promise<Written>;
  read(source: string): Uint8Array | Promise<Uint8Array>;
  link(existing: string, dest: string): void | Promise<void>;
  /** null when the path does not exist (or cannot be read). */
  stat(p: string): Stats | null | Promise<Stats | null>;
}

/** A file written: its bytes' sha1, and their number. */
export interface Written {
  hash: Buffer;
  size: number;
}

export function fileOps(methods: Partial<WriteMethods>): { ops: FileOps; sync: boolean } {
  const ops: FileOps = {
    mkdir: methods.mkdir
      ? (d) => methods.mkdir!(d, { recursive: true })
      : (d) => void mkdirSync(d, { recursive: true }),
    write:
      methods.writeFile || methods.utimes
        ? async (d, data, mtimeMs) => {
            await (methods.writeFile ?? writeFile)(d, data);
            if (mtimeMs !== undefined) await (methods.utimes ?? utimes)(d, mtimeMs / 1000, mtimeMs / 1000);
          }
        : writeNew,
    writeChunks:
      methods.writeFile || methods.utimes
        ? async (d, chunks, mtimeMs) => {
            const text = [...chunks].join("");
            await (methods.writeFile ?? writeFile)(d, text);
            if (mtimeMs !== undefined) await (methods.utimes ?? utimes)(d, mtimeMs / 1000, mtimeMs / 1000);
            return { hash: createHash("sha1").update(text, "utf8").digest(), size: Buffer.byteLength(text, "utf8") };
          }
        : writeChunksSync,
    read: methods.readFile ? (s) => methods.readFile!(s) : (s) => readFileSync(s),
    link: methods.link ? (e, d) => methods.link!(e, d) : (e, d) => linkSync(e, d),
    stat: methods.stat
      ? (p) => methods.stat!(p).catch(() => null)
      : (p) => {
          try {
            return statSync(p);
          } catch {
            return null;
          }
        },
  };
  const perFile = ["mkdir", "writeFile", "utimes", "readFile", "link", "stat"] as const;
  return { ops, sync: perFile.every((name) => methods[name] === undefined) };
}

/** Each piece made UTF-8 once, written and hashed, and dropped: the whole text is never held. */
function writeChunksSync(dest: string, chunks: Iterable<string>, mtimeMs: number | undefined): Written {
  const sha1 = createHash("sha1");
  let size = 0;
  const fd = openSync(dest, "w");
  try {
    for (const chunk of chunks) {
      const bytes = Buffer.from(chunk, "utf8");
      writeFileSync(fd, bytes);
      sha1.update(bytes);
      size += bytes.byteLength;
    }
    if (mtimeMs !== undefined) futimesSync(fd, mtimeMs / 1000, mtimeMs / 1000);
  } finally {
    closeSync(fd);
  }
  return { hash: sha1.digest(), size };
}
