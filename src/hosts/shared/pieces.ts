// src/hosts/shared/pieces.ts
// A large config held in pieces of lines rather than as one text: a text with one character beyond Latin-1 (nginx's
// comments have "…") is held at two bytes a character, a piece without one at one; the writer writes the pieces.

import { createHash } from "node:crypto";
import type { HostFile } from "../types.js";

/** Characters of lines per piece, about. */
const PIECE = 65536;

/**
 * The file whose text is `lines`, each followed by a newline, held in pieces: its sha1 and size made from them, and
 * its `data` (the whole text) joined only when asked for.
 */
export function piecedFile(path: string, lines: readonly string[]): HostFile {
  const pieces: string[] = [];
  let from = 0;
  let length = 0;
  for (let i = 0; i < lines.length; i++) {
    length += lines[i]!.length + 1;
    if (length >= PIECE || i === lines.length - 1) {
      pieces.push(`${lines.slice(from, i + 1).join("\n")}\n`);
      from = i + 1;
      length = 0;
    }
  }
  return new PiecedFile(path, pieces);
}

/**
 * A host's file held in pieces. Its own fields are a text file's (path, data, sha1, bytes), `data` joined when read:
 * a copy (`{ ...file }`) or a comparison sees the same as for the text held whole.
 */
class PiecedFile implements HostFile {
  readonly sha1: string;
  readonly bytes: number;
  declare readonly data: string;
  readonly #pieces: readonly string[];

  constructor(
    readonly path: string,
    pieces: readonly string[],
  ) {
    this.#pieces = pieces;
    const sha1 = createHash("sha1");
    let bytes = 0;
    for (const piece of pieces) {
      sha1.update(piece, "utf8");
      bytes += Buffer.byteLength(piece, "utf8");
    }
    this.sha1 = sha1.digest("base64url");
    this.bytes = bytes;
    Object.defineProperty(this, "data", { get: () => this.#pieces.join(""), enumerable: true });
  }

  chunks(): Iterable<string> {
    return this.#pieces;
  }
}
