// test/edge/read-all.test.ts
// readAll (src/edge/handler-data.ts) reads a data file's body whole, into one buffer of its Content-Length when the
// stream takes a BYOB reader, and gives the body's own bytes whatever the header says: right, too small, too large,
// absent, or a stream that is not a byte stream.

import { describe, expect, test } from "vitest";
import { readAll } from "../../src/edge/handler-data.js";

const BODY = new Uint8Array(200_000).map((_, i) => (i * 7) % 251);

/** A byte stream that gives `body` in chunks of `chunk` bytes (BYOB readers get at most what they ask for). */
function byteStream(body: Uint8Array, chunk: number): ReadableStream<Uint8Array> {
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
  });
}

const withLength = (stream: ReadableStream<Uint8Array>, length?: number) =>
  new Response(stream, { headers: length === undefined ? {} : { "Content-Length": String(length) } });

describe("readAll", () => {
  test.each([
    ["the body's length", BODY.length],
    ["a length too small", 1000],
    ["a length too large", BODY.length + 5000],
    ["no length", undefined],
  ])("gives the body's bytes with %s", async (_, length) => {
    const got = await readAll(withLength(byteStream(BODY, 16_384), length));
    expect(Buffer.from(got).equals(Buffer.from(BODY))).toBe(true);
  });

  test("reads a stream that is not a byte stream", async () => {
    const plain = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(BODY.slice(0, 10));
        controller.enqueue(BODY.slice(10));
        controller.close();
      },
    });
    const got = await readAll(withLength(plain, BODY.length));
    expect(Buffer.from(got).equals(Buffer.from(BODY))).toBe(true);
  });
});
