// src/output/manifests/patch.ts
// A folder's manifest made from the last one's bytes by replacing the lines whose entries changed. --out's manifest
// is one of the records' files (site.manifest), and a large site's, printed whole, would cost a rebuild that changes a
// few dozen entries much of its time. A patch applies only when the last one is exactly what printedManifest prints
// of the same paths in the same order (src/output/write/scan.ts checks); the result is then what printedManifest
// would print.

import type { ManifestText } from "./entries.js";

/** A manifest's bytes (made when first asked for), and where the line of each of its paths begins (`starts[k]` for
 * the k-th path, then the end). */
export interface PrintedManifest {
  bytes(): Buffer;
  readonly starts: Uint32Array;
}

/**
 * A manifest read as text, and where its paths' lines begin in it (`starts`, in order); null when its text is not
 * ASCII (its offsets would not be its bytes'): a site's paths are, but for names the content chose.
 */
export function manifestOf(text: string, starts: readonly number[]): PrintedManifest | null {
  if (Buffer.byteLength(text, "utf8") !== text.length) return null;
  const all = new Uint32Array(starts.length + 1);
  all.set(starts);
  all[starts.length] = text.length;
  let bytes: Buffer | undefined;
  return { bytes: () => (bytes ??= Buffer.from(text, "latin1")), starts: all };
}

/** Manifest bytes as printedManifest prints them, of `lines` paths: each path's line follows the header and the times. */
export function printedOf(bytes: Buffer, lines: number): PrintedManifest {
  const starts = new Uint32Array(lines + 1);
  let at = bytes.indexOf(0x0a, bytes.indexOf(0x0a) + 1) + 1;
  for (let k = 0; k < lines; k++) {
    starts[k] = at;
    at = bytes.indexOf(0x0a, at) + 1;
  }
  starts[lines] = bytes.length;
  return { bytes: () => bytes, starts };
}

/**
 * `from` with the lines of the paths at `changed` (indexes, ascending) replaced by `line(k)`, a line's new text
 * (its newline included). `from` is used up: when every new line is as long as the old one (a sha1 is, and most
 * sizes keep their digits), its bytes are written over in place: a fresh page of memory is slow to touch.
 */
export function patchManifest(
  from: PrintedManifest,
  changed: readonly number[],
  line: (k: number) => string,
): PrintedManifest {
  if (changed.length === 0) return from;
  const old = from.bytes();
  const { starts } = from;
  const lines = changed.map((k) => Buffer.from(line(k), "utf8"));
  let size = old.length;
  let sameLengths = true;
  for (const [j, k] of changed.entries()) {
    const grow = lines[j]!.length - (starts[k + 1]! - starts[k]!);
    size += grow;
    sameLengths &&= grow === 0;
  }
  if (sameLengths) {
    for (const [j, k] of changed.entries()) lines[j]!.copy(old, starts[k]);
    return from;
  }
  const out = Buffer.allocUnsafe(size);
  const moved = new Uint32Array(starts.length);
  let at = 0; // `out` is written up to here, from `old` up to `copied`, and `moved` up to index `next`
  let copied = 0;
  let next = 0;
  for (const [j, k] of changed.entries()) {
    for (; next <= k; next++) moved[next] = starts[next]! + at - copied;
    at += old.copy(out, at, copied, starts[k]);
    at += lines[j]!.copy(out, at);
    copied = starts[k + 1]!;
  }
  for (; next < starts.length; next++) moved[next] = starts[next]! + at - copied;
  old.copy(out, at, copied);
  return { bytes: () => out, starts: moved };
}

/** How a manifest is made from the last one's: the lines at `changed` (path indexes, ascending) replaced by
 * `line(k)`. */
export interface ManifestPatch {
  from: PrintedManifest;
  changed: readonly number[];
  line(k: number): string;
}

/**
 * A folder's manifest as an update leaves it, printed (`printed`: a line for each of `lines` paths, or null when it
 * leaves some out) or patched from the last one's when the update gives a patch; and, once its bytes are made, those
 * bytes with their lines' starts (the next update patches them).
 */
export function updatedManifest(
  printed: ManifestText,
  lines: number | null,
  patch?: ManifestPatch,
): ManifestText & { made(): PrintedManifest | undefined } {
  let made: PrintedManifest | undefined;
  let bytes: Buffer | undefined;
  const patched = (): Buffer => (made ??= patchManifest(patch!.from, patch!.changed, patch!.line)).bytes();
  return {
    chunks: () => (patch === undefined ? printed.chunks() : [patched().toString("utf8")]),
    bytes: () => (patch === undefined ? (bytes = printed.bytes()) : patched()),
    made: () => {
      if (made === undefined && bytes !== undefined && lines !== null) made = printedOf(bytes, lines);
      bytes = undefined;
      return made;
    },
  };
}
