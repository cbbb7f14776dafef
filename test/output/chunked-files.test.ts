// test/output/chunked-files.test.ts
// A planned file that offers its text in pieces (the records' site.manifest) is written by the full writer piece by
// piece: its bytes are the whole text's UTF-8, and its manifest entry their sha1 and size, with or without injected
// write methods.

import { createHash } from "node:crypto";
import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeOutput } from "../../src/output/write/full.js";
import type { OutputFile } from "../../src/output/plan/files.js";
import { removeDir, tmpDir } from "../helpers/fixtures.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

const PIECES = ["first line\n", "", "é and … two-byte\n", "last, no newline"];
const TEXT = PIECES.join("");
const EPOCH = 1_700_000_000;

function files(): OutputFile[] {
  return [
    { path: "plain.txt", data: "plain\n" },
    {
      path: "sub/pieces.txt",
      produce: () => {
        throw new Error("the whole text is not asked for");
      },
      chunks: () => PIECES,
    },
  ];
}

async function check(out: string): Promise<void> {
  const bytes = await readFile(path.join(out, "sub/pieces.txt"));
  expect(bytes.equals(Buffer.from(TEXT, "utf8"))).toBe(true);
  const sha1 = createHash("sha1").update(Buffer.from(TEXT, "utf8")).digest("base64url");
  const manifest = await readFile(path.join(out, ".build-manifest"), "utf8");
  expect(manifest.split("\n")).toContain(`${sha1} ${Buffer.byteLength(TEXT, "utf8")} sub/pieces.txt`);
  expect((await stat(path.join(out, "sub/pieces.txt"))).mtimeMs).toBe(EPOCH * 1000);
}

describe("a file written from its text's pieces", () => {
  it("holds the text's bytes, and its entry their hash and size (synchronous writer)", async () => {
    const root = await tmpDir("bis-chunks-");
    temps.push(root);
    const out = path.join(root, "dist");
    const stats = await writeOutput(out, files(), { sourceDateEpoch: EPOCH });
    expect(stats.bytes).toBe(Buffer.byteLength(TEXT, "utf8") + "plain\n".length);
    await check(out);
  });

  it("the same with injected write methods", async () => {
    const root = await tmpDir("bis-chunks-");
    temps.push(root);
    const out = path.join(root, "dist");
    let calls = 0;
    await writeOutput(out, files(), {
      sourceDateEpoch: EPOCH,
      methods: {
        writeFile: (async (...args: Parameters<typeof writeFile>) => (calls++, writeFile(...args))) as typeof writeFile,
      },
    });
    expect(calls).toBeGreaterThan(0);
    await check(out);
  });
});
