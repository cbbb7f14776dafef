// src/output/manifest-entries.ts
// What a manifest says of each file, held compactly: the sha1 and size of every file a folder holds, by its index
// in the files written. The writers fill it (write-output.ts, update.ts); the plan's links copy from it (plan.ts).

import { digest } from "../content/file-facts.js";

/** sha1 of the bytes (the content's facts hash them the same way). */
export { digest };

const HASH_BYTES = 20;

/**
 * The manifest entries of the files written, by index: 20 bytes of sha1 and a size per file, printed as
 * "<sha1 base64url> <size>" only when asked for. Compact: a ×100 site has 640,000 files, and a string per entry
 * (a rope of three pieces) cost 120 bytes each.
 */
export class ManifestEntries {
  private readonly hashes: Buffer;
  /** -1 where no entry was set. */
  private readonly sizes: Float64Array;

  constructor(length: number) {
    this.hashes = Buffer.alloc(length * HASH_BYTES);
    this.sizes = new Float64Array(length).fill(-1);
  }

  set(index: number, hash: Uint8Array, size: number): void {
    this.hashes.set(hash, index * HASH_BYTES);
    this.sizes[index] = size;
  }

  /** From a printed entry ("<sha1 base64url> <size>"). */
  setEntry(index: number, entry: string): void {
    const space = entry.indexOf(" ");
    this.set(index, Buffer.from(entry.slice(0, space), "base64url"), Number(entry.slice(space + 1)));
  }

  /** From the printed hash in `text` (base64url, from `start`) and the size, without a string per entry. */
  setPrinted(index: number, text: string, start: number, size: number): void {
    this.hashes.write(text.slice(start, start + HASH_CHARS), index * HASH_BYTES, HASH_BYTES, "base64url");
    this.sizes[index] = size;
  }

  /** Another list's entry at `from`, copied to `index`. */
  copy(index: number, other: ManifestEntries, from: number): void {
    other.hashes.copy(this.hashes, index * HASH_BYTES, from * HASH_BYTES, (from + 1) * HASH_BYTES);
    this.sizes[index] = other.sizes[from]!;
  }

  /** Whether the entry at `index` is set and the same as another list's at `at`. */
  same(index: number, other: ManifestEntries, at: number): boolean {
    const size = this.sizes[index]!;
    return size >= 0 && size === other.sizes[at]
      && this.hashes.compare(other.hashes, at * HASH_BYTES, (at + 1) * HASH_BYTES, index * HASH_BYTES, (index + 1) * HASH_BYTES) === 0;
  }

  /** The size at `index` (-1 when no entry is set). */
  size(index: number): number {
    return this.sizes[index]!;
  }

  get(index: number): string | undefined {
    const size = this.sizes[index]!;
    if (size < 0) return undefined;
    return `${this.hashes.toString("base64url", index * HASH_BYTES, (index + 1) * HASH_BYTES)} ${size}`;
  }
}

/** A folder's manifest, printed whenever it is asked for (write-output.ts's printedManifest): its files and entries
 * are kept, not its text. */
export interface ManifestText {
  /** The text in chunks of a few thousand lines, printed as they are asked for. */
  chunks(): Iterable<string>;
  /** The text's UTF-8 bytes, in one buffer of exactly their size (a file's: the records' site.manifest). */
  bytes(): Buffer;
}

/** Characters of a sha1 in base64url (no padding). */
export const HASH_CHARS = 27;
