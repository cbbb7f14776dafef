// test/preview/file-tags.test.ts
// The preview hashes a file for its ETag when it first serves it, and keeps the tag by the file's identity: a file
// replaced since (a rebuild renames a new file over it) or written again in place must get its new bytes' tag, and the
// old tag must no longer revalidate it (RFC 9110 §13.1.2: a strong validator changes with the bytes).

import { readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { startPreview, type Preview } from "../../src/preview/server.js";
import { DEMO_CONTENT, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { sha1Tag } from "../helpers/manifests.js";

let root = "";
let out = "";
let preview: Preview | undefined;

beforeAll(async () => {
  root = await tmpDir("bis-tags-");
  out = path.join(root, "dist");
  await build({ content: DEMO_CONTENT, out, sourceDateEpoch: TEST_EPOCH });
  preview = await startPreview({ dir: out, port: 0, host: "127.0.0.1" });
}, 60_000);

afterAll(async () => {
  await preview?.close();
  await removeDir(root);
});

const get = async (
  file: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; etag: string | null; body: Buffer }> => {
  const r = await fetch(new URL(file, preview!.url), { headers });
  return { status: r.status, etag: r.headers.get("etag"), body: Buffer.from(await r.arrayBuffer()) };
};

describe("the preview's ETags follow the file's bytes", () => {
  test("a file replaced by a rename, then written again in place at the same size", async () => {
    const file = path.join(out, "config.json");
    const before = await readFile(file);
    const first = await get("config.json");
    expect([first.status, first.etag]).toEqual([200, sha1Tag(before)]);
    expect((await get("config.json", { "If-None-Match": first.etag! })).status).toBe(304);

    // Replaced, as a rebuild replaces a file it changes: another inode, other bytes.
    const replaced = Buffer.concat([before, Buffer.from(" ")]);
    await writeFile(`${file}.new`, replaced);
    await rename(`${file}.new`, file);
    const second = await get("config.json", { "If-None-Match": first.etag! });
    expect([second.status, second.etag, second.body.equals(replaced)]).toEqual([200, sha1Tag(replaced), true]);

    // Written again in place, the same size (same inode; a new modification time).
    const rewritten = Buffer.from(replaced);
    rewritten[rewritten.length - 1] = "\n".charCodeAt(0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await writeFile(file, rewritten);
    const third = await get("config.json", { "If-None-Match": second.etag! });
    expect([third.status, third.etag, third.body.equals(rewritten)]).toEqual([200, sha1Tag(rewritten), true]);
  });
});
