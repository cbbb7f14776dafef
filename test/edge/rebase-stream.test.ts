// test/edge/rebase-stream.test.ts
// A template made into its body for an origin as it is read (src/edge/rebase-stream.ts): read from a byte stream
// (BYOB, into one buffer) or a plain one, in pieces of about PIECE_BYTES whatever the chunks, the text whole where a
// read cuts a character, every mark replaced wherever the pieces fall (from the read or from kept pieces), the chunks
// kept only when asked and small enough, and a template's pieces kept only when small. The expected body is the
// template's text split at its marks and joined with the origin.

import { describe, expect, test } from "vitest";
import { keptWhenSmall, PIECE_BYTES, rebasedStream, textPieces } from "../../src/edge/rebase-stream.js";

/** A template of about `n` bytes: JSON-like rows with characters of 1 to 4 UTF-8 bytes, and a mark in each row. */
function template(n: number): string {
  const rows: string[] = ["\u0000/first"];
  for (let i = 0; rows.join("").length < n; i++) rows.push(`{"name": "é${i}€𝄞", "url": "\u0000/icons/${i}.png"},\n`);
  return `${rows.join("")}\u0000`;
}

/** A byte stream that gives `body` in chunks of `chunk` bytes (BYOB readers get at most what they ask for). */
function byteStream(body: Uint8Array, chunk: number, cancelled: string[] = []): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    type: "bytes",
    pull(controller) {
      if (at >= body.length) {
        controller.close();
        controller.byobRequest?.respond(0); // a read pending at the end learns that it is done
        return;
      }
      controller.enqueue(body.slice(at, (at += chunk)));
    },
    cancel: () => void cancelled.push("byte stream"),
  });
}

/** A stream that is not a byte stream, in chunks of `chunk` bytes. */
function plainStream(body: Uint8Array, chunk: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= body.length) controller.close();
      else controller.enqueue(body.slice(at, (at += chunk)));
    },
  });
}

const UTF8 = new TextEncoder();
const TEXT = template(3 * PIECE_BYTES + 12_345);
const BYTES = UTF8.encode(TEXT);
const BY = "https://deploy-preview-7--icons.netlify.app";

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  return Buffer.from(await new Response(stream).arrayBuffer());
}

describe("textPieces", () => {
  test.each([
    ["a byte stream in 16 KB chunks", () => byteStream(BYTES, 16_384)],
    ["a byte stream in chunks that cut characters", () => byteStream(BYTES, 1_000_003)],
    ["a plain stream in 4 KB chunks", () => plainStream(BYTES, 4096)],
    ["a plain stream in odd chunks", () => plainStream(BYTES, 333)],
  ])("gives the whole text in a few large pieces from %s", async (_, stream) => {
    const pieces: string[] = [];
    for await (const piece of textPieces(new Response(stream()))) pieces.push(piece);
    expect(pieces.join("")).toBe(TEXT);
    expect(pieces.length).toBeGreaterThanOrEqual(4);
    expect(pieces.length).toBeLessThanOrEqual(6);
  });
});

describe("rebasedStream", () => {
  const want = Buffer.from(TEXT.split("\u0000").join(BY));

  test.each([
    ["a byte stream", () => byteStream(BYTES, 65_536)],
    ["a plain stream", () => plainStream(BYTES, 4096)],
  ])("is the template joined with the origin at every mark, from %s", async (_, stream) => {
    expect((await bytesOf(rebasedStream(textPieces(new Response(stream())), BY))).equals(want)).toBe(true);
  });

  test("is the same from the pieces kept", async () => {
    const pieces: string[] = [];
    for await (const piece of textPieces(new Response(byteStream(BYTES, 65_536)))) pieces.push(piece);
    expect((await bytesOf(rebasedStream(pieces, BY))).equals(want)).toBe(true);
  });

  test("gives its chunks to keep once sent whole, unless they pass the most asked", async () => {
    const taken: Uint8Array[][] = [];
    const take = (chunks: Uint8Array[]) => void taken.push(chunks);
    const sent = await bytesOf(
      rebasedStream(textPieces(new Response(byteStream(BYTES, 65_536))), BY, { most: want.length, take }),
    );
    expect(sent.equals(want)).toBe(true);
    expect(taken).toHaveLength(1);
    expect(Buffer.concat(taken[0]!).equals(want)).toBe(true);
    await bytesOf(
      rebasedStream(textPieces(new Response(byteStream(BYTES, 65_536))), BY, { most: want.length - 1, take }),
    );
    expect(taken).toHaveLength(1);
  });

  test("cancelled before its end, cancels the template's read and keeps nothing", async () => {
    const cancelled: string[] = [];
    const taken: Uint8Array[][] = [];
    const stream = rebasedStream(textPieces(new Response(byteStream(BYTES, 65_536, cancelled))), BY, {
      most: Infinity,
      take: (chunks) => void taken.push(chunks),
    });
    const reader = stream.getReader();
    expect((await reader.read()).done).toBe(false);
    await reader.cancel();
    expect(cancelled).toEqual(["byte stream"]);
    expect(taken).toEqual([]);
  });
});

describe("keptWhenSmall", () => {
  test("gives every piece, and all of them once read whole when they hold at most the size asked", async () => {
    for (const [most, keeps] of [
      [TEXT.length, true],
      [TEXT.length - 1, false],
    ] as const) {
      const kept: string[][] = [];
      const given: string[] = [];
      const pieces = keptWhenSmall(textPieces(new Response(byteStream(BYTES, 65_536))), most, (t) => kept.push(t));
      for await (const piece of pieces) given.push(piece);
      expect(given.join("")).toBe(TEXT);
      expect(kept, `most ${most}`).toEqual(keeps ? [given] : []);
    }
  });
});
