// src/output/manifests/entries.ts
// What a manifest says of each file, held compactly: the sha1 and size of every file a folder holds, by its index
// in the files written. The writers fill it (src/output/write/); the plan's links copy from it (src/output/plan/).

import { digest } from "../../content/file-facts.js";

/** sha1 of the bytes (the content's facts hash them the same way). */
export { digest };

const HASH_BYTES = 20;

/**
 * The manifest entries of the files written, by index: 20 bytes of sha1 and a size per file, printed as
 * "<sha1 base64url> <size>" only when asked for. Compact: a large site has hundreds of thousands of files, and a
 * string per entry (a rope of three pieces) costs several times the bytes.
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

  /**
   * From the printed hash in `text` (base64url, from `start`) and the size, without a string per entry. Returns
   * whether the hash was printed as printInto prints it (27 characters of base64url, the last one's two spare bits
   * clear): a line edited by hand may not be.
   */
  setPrinted(index: number, text: string, start: number, size: number): boolean {
    // Decoded here, character by character (no string per entry: a large site's manifest has very many); a field that
    // is not 27 characters of base64url (a line edited by hand) is decoded by Buffer's lenient decoder, as it was.
    const h = this.hashes;
    let o = index * HASH_BYTES;
    let bits = 0;
    let n = 0;
    for (let c = start; c < start + HASH_CHARS; c++) {
      const v = DECODE[text.charCodeAt(c)] ?? 255;
      if (v === 255) {
        h.write(text.slice(start, start + HASH_CHARS), index * HASH_BYTES, HASH_BYTES, "base64url");
        this.sizes[index] = size;
        return false;
      }
      n = (n << 6) | v;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        h[o++] = (n >>> bits) & 0xff;
      }
    }
    this.sizes[index] = size;
    return (n & 3) === 0;
  }

  /** Another list's entry at `from`, copied to `index`: byte by byte (Buffer's copy costs more for 20 bytes). */
  copy(index: number, other: ManifestEntries, from: number): void {
    const to = this.hashes;
    const source = other.hashes;
    for (let o = index * HASH_BYTES, s = from * HASH_BYTES, end = o + HASH_BYTES; o < end; o++, s++) to[o] = source[s]!;
    this.sizes[index] = other.sizes[from]!;
  }

  /** `count` entries of another list, from `from` on, copied to `index` on (an update's run of answers it keeps). */
  copyRange(index: number, other: ManifestEntries, from: number, count: number): void {
    other.hashes.copy(this.hashes, index * HASH_BYTES, from * HASH_BYTES, (from + count) * HASH_BYTES);
    this.sizes.set(other.sizes.subarray(from, from + count), index);
  }

  /** The sizes of `count` entries from `index` on, added up. */
  sizeOfRange(index: number, count: number): number {
    let sum = 0;
    for (let i = index; i < index + count; i++) sum += this.sizes[i]!;
    return sum;
  }

  /** Whether the entry at `index` is set and the same as another list's at `at`. */
  same(index: number, other: ManifestEntries, at: number): boolean {
    const size = this.sizes[index]!;
    return (
      size >= 0 &&
      size === other.sizes[at] &&
      this.hashes.compare(
        other.hashes,
        at * HASH_BYTES,
        (at + 1) * HASH_BYTES,
        index * HASH_BYTES,
        (index + 1) * HASH_BYTES,
      ) === 0
    );
  }

  /** Whether the entry at `index` is `hash` and `size` (byte by byte: no Buffer view is made). */
  holds(index: number, hash: Uint8Array, size: number): boolean {
    if (this.sizes[index] !== size) return false;
    const h = this.hashes;
    for (let o = index * HASH_BYTES, k = 0; k < HASH_BYTES; o++, k++) if (h[o] !== hash[k]) return false;
    return true;
  }

  /** The size at `index` (-1 when no entry is set). */
  size(index: number): number {
    return this.sizes[index]!;
  }

  /**
   * Prints the entry at `index` ("<sha1 base64url> <size>", which must be set) into `out` at `at`, as `get` spells it;
   * returns where it ends. Byte by byte: a large site's manifest prints very many of them, and a string each
   * (Buffer's encoder for the hash, String() for the size) costs more.
   */
  printInto(index: number, out: Buffer, at: number): number {
    const h = this.hashes;
    let i = index * HASH_BYTES;
    // 18 bytes in 6 groups of three (4 characters each), then 2 bytes (3 characters, no padding).
    for (const end = i + 18; i < end; i += 3) {
      const n = (h[i]! << 16) | (h[i + 1]! << 8) | h[i + 2]!;
      out[at++] = BASE64URL[n >>> 18]!;
      out[at++] = BASE64URL[(n >>> 12) & 63]!;
      out[at++] = BASE64URL[(n >>> 6) & 63]!;
      out[at++] = BASE64URL[n & 63]!;
    }
    const n = (h[i]! << 8) | h[i + 1]!;
    out[at++] = BASE64URL[n >>> 10]!;
    out[at++] = BASE64URL[(n >>> 4) & 63]!;
    out[at++] = BASE64URL[(n << 2) & 63]!;
    out[at++] = 0x20;
    let size = this.sizes[index]!;
    if (!Number.isSafeInteger(size)) return at + out.write(String(size), at, "latin1"); // a hand-edited line's
    const first = at;
    do {
      out[at++] = 0x30 + (size % 10);
      size = Math.floor(size / 10);
    } while (size > 0);
    for (let a = first, b = at - 1; a < b; a++, b--) {
      const digit = out[a]!;
      out[a] = out[b]!;
      out[b] = digit;
    }
    return at;
  }

  /** How many bytes printInto prints for the entry at `index` (which must be set). */
  printedLength(index: number): number {
    let size = this.sizes[index]!;
    if (!Number.isSafeInteger(size)) return HASH_CHARS + 1 + String(size).length;
    let digits = 1;
    while (size >= 10) {
      size = Math.floor(size / 10);
      digits++;
    }
    return HASH_CHARS + 1 + digits;
  }

  get(index: number): string | undefined {
    const size = this.sizes[index]!;
    if (size < 0) return undefined;
    return `${this.hashes.toString("base64url", index * HASH_BYTES, (index + 1) * HASH_BYTES)} ${size}`;
  }
}

/** A folder's manifest, printed whenever it is asked for (print.ts's printedManifest): its files and entries
 * are kept, not its text. */
export interface ManifestText {
  /** The text in chunks of a few thousand lines, printed as they are asked for. */
  chunks(): Iterable<string>;
  /** The text's UTF-8 bytes, in one buffer of exactly their size (a file's: the records' site.manifest). */
  bytes(): Buffer;
}

/** Texts at least this long (1 MiB of UTF-16 units) are hashed once per writer call (TextDigests). */
const LARGE_TEXT = 2 ** 20;

/**
 * The sha1 of each file's bytes, for one folder's write: a large text met again (the same answer is two files of a
 * site: api/icons.json and the handler's _edge-data/whole/icons.json, large on a large site) is hashed once. A Map keyed by
 * a string that long hashes it by its length alone, and finds the same string by identity.
 */
export class TextDigests {
  private readonly large = new Map<string, Buffer>();

  of(data: string | Uint8Array): Buffer {
    if (typeof data !== "string" || data.length < LARGE_TEXT) return digest(data);
    let hash = this.large.get(data);
    if (hash === undefined) this.large.set(data, (hash = digest(data)));
    return hash;
  }

  /**
   * The sha1 and size of a file's bytes `data`: those the file carries when it knows them (`known`: a copy of the
   * content's sha1, from its facts; a host's file's; a whole answer's of the handler's data; and `size` with a text's),
   * else hashed (a large text once) and measured. A large text whose sha1 is carried is kept: met again in another
   * file (the answer file of a whole answer the handler's data holds too), it is not hashed.
   */
  entryOf(
    data: string | Uint8Array,
    known: Buffer | undefined,
    size = typeof data === "string" ? Buffer.byteLength(data, "utf8") : data.byteLength,
  ): { hash: Buffer; size: number } {
    if (known === undefined) return { hash: this.of(data), size };
    if (typeof data === "string" && data.length >= LARGE_TEXT) this.large.set(data, known);
    return { hash: known, size };
  }
}

/** Characters of a sha1 in base64url (no padding). */
export const HASH_CHARS = 27;

/** base64url's alphabet, as character codes, and each code's value (255: not in it). */
const BASE64URL = Buffer.from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", "latin1");
const DECODE = new Uint8Array(128).fill(255);
for (const [value, code] of BASE64URL.entries()) DECODE[code] = value;
