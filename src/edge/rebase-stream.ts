// src/edge/rebase-stream.ts
// A whole answer's template (TEMPLATE_MARK where the base URL stands) made into its body for a request origin as it
// is read: a few large pieces of text, each joined with the origin at its marks and sent; a small template's pieces
// kept decoded.
// Web APIs only: esbuild bundles it with the handler (src/edge/handler.ts).

import { TEMPLATE_MARK } from "./data.js";

/**
 * How many bytes of a template are read, joined and sent at a time: few enough pieces that each one's turn of the
 * runtime (a read, a chunk sent) costs little beside its bytes, and no buffer of the whole body, which a fresh
 * isolate pays for in memory it has not touched yet.
 */
export const PIECE_BYTES = 256 * 1024;

const ENCODER = new TextEncoder();

/**
 * A response's body as text in pieces of about PIECE_BYTES: read into one buffer used again (a BYOB reader), else
 * gathered from the chunks as they come, and decoded as one stream (a character cut between two reads is whole).
 */
export async function* textPieces(res: Response): AsyncGenerator<string, void, undefined> {
  if (res.body === null) return;
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  let byob: ReadableStreamBYOBReader | undefined;
  try {
    byob = res.body.getReader({ mode: "byob" });
  } catch {
    // not a byte stream
  }
  const reader = byob ?? res.body.getReader();
  let done = false;
  try {
    if (byob !== undefined) {
      let buffer = new ArrayBuffer(PIECE_BYTES);
      while (!done) {
        // Filled before it is decoded: a stream may give less than asked (workerd's fills it at once).
        let n = 0;
        while (!done && n < PIECE_BYTES) {
          const read = await byob.read(new Uint8Array(buffer, n));
          done = read.done;
          if (read.value === undefined) break; // cancelled: done
          buffer = read.value.buffer as ArrayBuffer;
          n += read.value.byteLength;
        }
        const text = decoder.decode(new Uint8Array(buffer, 0, n), { stream: true });
        if (text !== "") yield text;
      }
    } else {
      let text = "";
      const plain = reader as ReadableStreamDefaultReader<Uint8Array>;
      while (!done) {
        const read = await plain.read();
        done = read.done;
        if (read.value !== undefined) text += decoder.decode(read.value, { stream: true });
        if (text.length >= PIECE_BYTES || (done && text !== "")) {
          yield text;
          text = "";
        }
      }
    }
    const rest = decoder.decode();
    if (rest !== "") yield rest;
  } finally {
    // Left before its end (the client went away): the data read is cancelled, not left open.
    if (!done) await reader.cancel().catch(() => undefined);
  }
}

/**
 * A template's text pieces (textPieces) as they are read, and `small` with them once read whole when they hold at most
 * `most` UTF-16 units (a template's bytes, when it is ASCII as JSON escapes make it): a small template is kept decoded.
 */
export async function* keptWhenSmall(
  pieces: AsyncIterable<string>,
  most: number,
  small: (texts: string[]) => void,
): AsyncGenerator<string, void, undefined> {
  let texts: string[] | undefined = [];
  let size = 0;
  for await (const text of pieces) {
    size += text.length;
    if (size > most) texts = undefined;
    texts?.push(text);
    yield text;
  }
  if (texts !== undefined) small(texts);
}

/**
 * A template's body for one origin (`by`: the origin's JSON text) from its text pieces (read as textPieces reads them,
 * or kept), as a stream of its UTF-8 bytes. `keep`, when given, gets the body's chunks once it has been sent whole,
 * unless they pass `most` bytes.
 */
export function rebasedStream(
  source: AsyncIterable<string> | Iterable<string>,
  by: string,
  keep?: { most: number; take: (chunks: Uint8Array[]) => void },
): ReadableStream<Uint8Array> {
  const pieces: AsyncIterator<string> | Iterator<string> =
    Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
  let kept: Uint8Array[] | undefined = keep === undefined ? undefined : [];
  let keptBytes = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await pieces.next();
      if (next.done === true) {
        controller.close();
        if (kept !== undefined) keep!.take(kept);
        return;
      }
      const bytes = ENCODER.encode(next.value.split(TEMPLATE_MARK).join(by));
      if (kept !== undefined) {
        kept.push(bytes);
        keptBytes += bytes.byteLength;
        if (keptBytes > keep!.most) kept = undefined;
      }
      controller.enqueue(bytes);
    },
    async cancel() {
      await pieces.return?.(undefined);
    },
  });
}
