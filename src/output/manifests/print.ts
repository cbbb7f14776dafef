// src/output/manifests/print.ts
// A folder's manifest as the writers print it: its header, its line of times, then `<sha1> <size> <path>` per file.

import { MANIFEST_FILE as MARKER_FILE, MANIFEST_HEADER } from "../../layout/paths.js";
import { HASH_CHARS, type ManifestEntries, type ManifestText } from "./entries.js";

/** The files a manifest lists, by index (their paths are made when it is printed). */
type Listed = ReadonlyArray<{ readonly path: string }>;

/**
 * The manifest of the output, written into the output folder itself so that it is swapped in atomically with the
 * files it describes; it is also the marker by which the tool recognises its own output (a folder without it is
 * never replaced unless --replace-out). Its first line is the header, the second the modification-time policy
 * (`mtimes <SOURCE_DATE_EPOCH>` or `mtimes -`), then `<sha1 base64url> <size> <path>` per file (generated and
 * copied), in the order of the files written (planOutput's order). Deterministic (no times of the build, no absolute
 * paths), so reproducible builds stay byte-identical. A file is reused from the previous output only when its bytes
 * hash the same.
 */
export const MANIFEST_FILE = MARKER_FILE;

/** A copy's modification time: its source's (whole milliseconds), clamped to SOURCE_DATE_EPOCH when that is set. */
export const clampedTime = (own: number | undefined, limit: number | undefined): number | undefined =>
  own === undefined || limit === undefined ? own : Math.min(own, limit);

/** The manifest's line for the modification-time policy: files whose times the writer sets are clamped to this. */
export const mtimesLine = (epoch: number | undefined): string => `mtimes ${epoch ?? "-"}`;

/**
 * The manifest's text (header, time policy, then `<hash> <size> <path>` per file whose entry is set, in `files`
 * order) in chunks of a few thousand lines, printed as they are asked for: a large site's manifest is large, so no
 * manifest is held whole longer than it takes to write it.
 */
export function* manifestChunks(
  files: Listed,
  entries: ManifestEntries,
  epoch: number | undefined,
  paths?: readonly string[],
): Generator<string> {
  let chunk = `${MANIFEST_HEADER}\n${mtimesLine(epoch)}\n`;
  let lines = 0;
  for (let i = 0; i < files.length; i++) {
    const entry = entries.get(i);
    if (entry === undefined) continue;
    chunk += `${entry} ${paths?.[i] ?? files[i]!.path}\n`;
    if (++lines % 4096 === 0) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk !== "") yield chunk;
}

/**
 * A manifest printed when it is asked for: in chunks of lines, or as its bytes (manifestBytes). `paths`, when the
 * caller holds them (an update has each file's path), saves making each file's path again.
 */
export function printedManifest(
  files: Listed,
  entries: ManifestEntries,
  epoch: number | undefined,
  paths?: readonly string[],
): ManifestText {
  return {
    chunks: () => manifestChunks(files, entries, epoch, paths),
    bytes: () => manifestBytes(files, entries, epoch, paths),
  };
}

/**
 * The manifest's UTF-8 bytes, printed straight into one buffer: of the size its lines take when their paths are
 * ASCII (as a site's are, but for names the content chose), grown and then cut to size when one is not. The chunks
 * and a buffer joined from them would hold the text three times, and a string per entry cost twice the time.
 */
function manifestBytes(
  files: Listed,
  entries: ManifestEntries,
  epoch: number | undefined,
  paths?: readonly string[],
): Buffer {
  const head = `${MANIFEST_HEADER}\n${mtimesLine(epoch)}\n`;
  const pathOf = (i: number): string => paths?.[i] ?? files[i]!.path;
  let size = Buffer.byteLength(head);
  // "<sha1 base64url> <size> <path>\n"
  for (let i = 0; i < files.length; i++)
    if (entries.size(i) >= 0) size += entries.printedLength(i) + 1 + pathOf(i).length + 1;
  let out = Buffer.allocUnsafe(size);
  let at = out.write(head, 0, "utf8");
  for (let i = 0; i < files.length; i++) {
    if (entries.size(i) < 0) continue;
    const rel = pathOf(i);
    // Room for the line whatever its path holds (three bytes per UTF-16 unit at most), or for its exact bytes: only
    // the last lines, or a path that is not ASCII, are measured.
    const room = out.length - at;
    if (room < HASH_CHARS + 1 + 24 + 3 * rel.length + 1) {
      const line = entries.printedLength(i) + 1 + Buffer.byteLength(rel) + 1;
      if (line > room) {
        const grown = Buffer.allocUnsafe(Math.max(out.length * 2, at + line));
        out.copy(grown, 0, 0, at);
        out = grown;
      }
    }
    at = entries.printInto(i, out, at);
    out[at++] = 0x20;
    at += out.write(rel, at, "utf8");
    out[at++] = 0x0a;
  }
  if (at === out.length) return out;
  const exact = Buffer.allocUnsafe(at);
  out.copy(exact, 0, 0, at);
  return exact;
}

/** Whether the chunks spell exactly `text`, stopping at the first that differs. */
export function sameChunks(text: string, chunks: Iterable<string>): boolean {
  let at = 0;
  for (const chunk of chunks) {
    if (!text.startsWith(chunk, at)) return false;
    at += chunk.length;
  }
  return at === text.length;
}
