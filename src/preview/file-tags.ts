// src/preview/file-tags.ts
// The strong validator the preview sends with a file: the SHA-1 of its bytes, base64url, quoted (the hash the build's
// manifests record, and the edge handler's ETags use). Computed when the file is first served, and kept by the file's
// identity (device, inode, size and times: a build replaces a file it changes, so the new one has another inode).
// Not loaded from the site's manifest: for a large site that map would be large, and made again after each of dev's
// rebuilds.

import type { Stats } from "node:fs";
import { etagOf } from "../edge/etag.js";
import { hashRegularFile } from "./read-file.js";

/** Tags kept (the most recently served files'); each is a short key and a 29-character tag. */
const KEPT = 4096;

export class FileTags {
  /** Key → the tag, or its computation while it runs (requests for one file at once share one read). */
  private readonly kept = new Map<string, Promise<string>>();

  /** The tag of `file`, whose stats were just taken; rejects (ENOENT) when it is no longer a regular file. */
  of(file: string, stats: Stats): Promise<string> {
    const key = `${stats.dev} ${stats.ino} ${stats.size} ${stats.mtimeMs} ${stats.ctimeMs} ${file}`;
    let tag = this.kept.get(key);
    if (tag !== undefined)
      this.kept.delete(key); // set again below, at the end: the least recently served go first
    else {
      tag = hashRegularFile(file, stats.size).then(etagOf);
      tag.catch(() => this.kept.delete(key));
    }
    this.kept.set(key, tag);
    if (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value!);
    return tag;
  }
}
