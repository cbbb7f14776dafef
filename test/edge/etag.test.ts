// test/edge/etag.test.ts
// The handler's own SHA-1 (src/edge/etag.ts) against Node's crypto, at every length around the padding's edges
// and on multi-byte text: the ETags it sends must be the manifest's hashes.

import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { base64url, bodyEtag, sha1 } from "../../src/edge/etag.js";

describe("the handler's SHA-1", () => {
  test("equals Node's for lengths 0 to 200 and a few large ones", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) & 0xff;
    for (const n of [...Array.from({ length: 201 }, (_, i) => i), 1000, 4095, 4096, 65_537, 1_000_003]) {
      const bytes = Uint8Array.from({ length: n }, random);
      expect(Buffer.from(sha1(bytes)).toString("hex"), `length ${n}`).toBe(
        createHash("sha1").update(bytes).digest("hex"),
      );
    }
  });
  test("base64url equals Node's for lengths 0 to 64", () => {
    for (let n = 0; n <= 64; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 97 + n * 31) & 0xff);
      expect(base64url(bytes), `length ${n}`).toBe(Buffer.from(bytes).toString("base64url"));
    }
    expect(base64url(Uint8Array.from([0xfb, 0xff, 0xbf]))).toBe("-_-_");
  });
  test("bodyEtag is the quoted base64url of the UTF-8 bytes' SHA-1", () => {
    const text = '{"ü": "Ω 漢字 😀"}\n';
    expect(bodyEtag(new TextEncoder().encode(text))).toBe(`"${createHash("sha1").update(text).digest("base64url")}"`);
    expect(bodyEtag(new Uint8Array())).toBe(`"${createHash("sha1").update("").digest("base64url")}"`);
  });
});

describe("If-None-Match in the handler", () => {
  test("holds exactly when the fresh package (the preview's) says the answer is fresh", async () => {
    const { default: fresh } = await import("fresh");
    const { ifNoneMatchHolds } = await import("../../src/edge/handler.js");
    const etag = '"abc"';
    const headers = [
      "",
      "*",
      '"abc"',
      'W/"abc"',
      '"abd"',
      '"x", "abc"',
      '"x","abc"',
      '  "abc"  ',
      '"x" , W/"abc"',
      '"abc",',
      ',"abc"',
      "abc",
      '"ab c"',
      '"x",,"y"',
      " ",
      '"abc" "x"',
      '*, "x"',
      'w/"abc"',
    ];
    for (const h of headers) {
      expect(ifNoneMatchHolds(h, etag), JSON.stringify(h)).toBe(fresh({ "if-none-match": h }, { etag }));
      expect(ifNoneMatchHolds(h, `W/${etag}`), `W/ ${JSON.stringify(h)}`).toBe(
        fresh({ "if-none-match": h }, { etag: `W/${etag}` }),
      );
    }
    expect(ifNoneMatchHolds(null, etag)).toBe(false);
  });
});
