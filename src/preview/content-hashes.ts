// src/preview/content-hashes.ts
// The strong ETag of each file of a built site, from the content hash the build already wrote (the manifest's
// SHA-1 of each file's bytes, base64url). The ONE place the previews read the build's manifest: when the build's
// internal files move, only this function changes.

import { readManifest } from "../output/write-output.js";

/** Site path ("/icons/php.png") → strong ETag (`"<sha1 base64url>"`); empty when the site has no manifest. */
export async function loadEtags(root: string): Promise<Map<string, string>> {
  const { entries } = await readManifest(root);
  const etags = new Map<string, string>();
  for (const [file, hashAndSize] of entries) etags.set(`/${file}`, `"${hashAndSize.slice(0, hashAndSize.indexOf(" "))}"`);
  return etags;
}
