// src/edge/etag.ts
// The strong ETag of an answer body: the SHA-1 of its UTF-8 bytes, base64url, as the build's manifest hashes the
// answer files. Web APIs only: the handler computes it per request with the host's own (native) SubtleCrypto, so
// no hash code is compiled at start-up; the build precomputes it for whole answers (src/edge/data-files.ts, Node's).

const base64url = (bytes: Uint8Array): string => {
  let binary = "";
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};

/** The SHA-1 of `bytes`, base64url (no padding). */
export async function sha1Base64url(bytes: Uint8Array): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest("SHA-1", bytes)));
}

/** `"<sha1 base64url>"` of the body's bytes. */
export async function bodyEtag(bytes: Uint8Array): Promise<string> {
  return `"${await sha1Base64url(bytes)}"`;
}
