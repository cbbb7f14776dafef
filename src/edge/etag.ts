// src/edge/etag.ts
// The strong ETag of an answer body: the SHA-1 of its UTF-8 bytes, base64url, as the build's manifest hashes the
// answer files. Web APIs only (the handler computes it per request; the build precomputes it for whole answers).

import { sha1 } from "@noble/hashes/legacy";

export function bodyEtag(body: string): string {
  const bytes = sha1(new TextEncoder().encode(body));
  let binary = "";
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!);
  return `"${btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}"`;
}
