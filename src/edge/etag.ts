// src/edge/etag.ts
// The strong ETag of an answer body: the SHA-1 of its UTF-8 bytes, base64url, as the build's manifest hashes the
// answer files. Web APIs only; synchronous, and small (one function, nothing at the module's top level), so that it
// costs little to compile on a fresh isolate: the hosts' SubtleCrypto is asynchronous, and in Node (the benches'
// stand-in, and verify) a digest is a thread-pool job that costs more than hashing an answer here.
// The build precomputes whole answers' ETags with Node's crypto (src/edge/data-files.ts), quoted by etagOf: the same
// value.

/** The message schedule, reused: sha1 is synchronous, so no two calls share it at once. */
const W = new Uint32Array(80);

/** SHA-1 (FIPS 180-4) of `bytes`. */
export function sha1(bytes: Uint8Array): Uint8Array {
  const n = bytes.length;
  const words = ((n + 8) >>> 6) * 16 + 16;
  const m = new Uint32Array(words);
  for (let i = 0; i < n; i++) m[i >>> 2]! |= bytes[i]! << (24 - (i & 3) * 8);
  m[n >>> 2]! |= 0x80 << (24 - (n & 3) * 8);
  m[words - 2] = Math.floor(n / 0x20000000);
  m[words - 1] = (n * 8) >>> 0;
  const w = W;
  let h0 = 0x67452301,
    h1 = 0xefcdab89,
    h2 = 0x98badcfe,
    h3 = 0x10325476,
    h4 = 0xc3d2e1f0;
  for (let off = 0; off < words; off += 16) {
    for (let t = 0; t < 16; t++) w[t] = m[off + t]!;
    for (let t = 16; t < 80; t++) {
      const x = w[t - 3]! ^ w[t - 8]! ^ w[t - 14]! ^ w[t - 16]!;
      w[t] = (x << 1) | (x >>> 31);
    }
    let a = h0,
      b = h1,
      c = h2,
      d = h3,
      e = h4;
    for (let t = 0; t < 80; t++) {
      const f =
        t < 20
          ? ((b & c) | (~b & d)) + 0x5a827999
          : t < 40
            ? (b ^ c ^ d) + 0x6ed9eba1
            : t < 60
              ? ((b & c) | (b & d) | (c & d)) + 0x8f1bbcdc
              : (b ^ c ^ d) + 0xca62c1d6;
      const next = (((a << 5) | (a >>> 27)) + f + e + w[t]!) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = next;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
  }
  const out = new Uint8Array(20);
  let at = 0;
  for (const h of [h0, h1, h2, h3, h4]) {
    out[at++] = h >>> 24;
    out[at++] = (h >>> 16) & 0xff;
    out[at++] = (h >>> 8) & 0xff;
    out[at++] = h & 0xff;
  }
  return out;
}

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** `bytes` in base64url (RFC 4648 §5), without padding. */
export function base64url(bytes: Uint8Array): string {
  let s = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    s += BASE64URL[n >>> 18]! + BASE64URL[(n >>> 12) & 63]! + BASE64URL[(n >>> 6) & 63]! + BASE64URL[n & 63]!;
  }
  if (i < bytes.length) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8);
    s += BASE64URL[n >>> 18]! + BASE64URL[(n >>> 12) & 63]! + (i + 1 < bytes.length ? BASE64URL[(n >>> 6) & 63]! : "");
  }
  return s;
}

/** The SHA-1 of `bytes`, base64url (no padding). */
export const sha1Base64url = (bytes: Uint8Array): string => base64url(sha1(bytes));

/** The strong ETag of a body whose SHA-1 is `digest`: the digest in base64url, quoted. The build's data files
 * (src/edge/data-files.ts) and the preview (src/preview/file-tags.ts) quote a digest made with Node's crypto so. */
export const etagOf = (digest: Uint8Array): string => `"${base64url(digest)}"`;

/** `"<sha1 base64url>"` of the body's bytes. */
export const bodyEtag = (bytes: Uint8Array): string => etagOf(sha1(bytes));
