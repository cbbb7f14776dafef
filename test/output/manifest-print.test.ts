// test/output/manifest-print.test.ts
// A manifest's bytes (the records' site.manifest) are printed byte by byte into one buffer (src/output/manifests/print.ts:
// manifestBytes, ManifestEntries.printInto): they must be the UTF-8 of the text its lines spell, as Node's own
// encoders print it, for any sha1, size and path, ASCII or not.

import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { ManifestEntries, TextDigests } from "../../src/output/manifests/entries.js";
import type { OutputFile } from "../../src/output/plan/files.js";
import { MARKER_HEADER } from "../../src/output/claim/out-folder.js";
import { mtimesLine, printedManifest } from "../../src/output/manifests/print.js";
import { prng } from "../../scripts/prng.mjs";

const NAMES = [
  "icons/php.png",
  "api/findIcon/file/ejs.json",
  "a",
  "é.png",
  "日本.svg",
  "emoji-😀.png",
  "x y+z.json",
  "ÿ",
];

describe("the manifest's bytes", () => {
  test("are the UTF-8 of its lines (Node's base64url and UTF-8), for random entries, sizes and paths, some unset", () => {
    const random = prng(7);
    for (let round = 0; round < 40; round++) {
      const count = Math.floor(random() * 300);
      const files: OutputFile[] = [];
      const entries = new ManifestEntries(count);
      const lines: string[] = [];
      for (let i = 0; i < count; i++) {
        const name = `${NAMES[Math.floor(random() * NAMES.length)]!}${i}`;
        files.push({ path: name, data: "" });
        if (random() < 0.1) continue; // no entry: a link its manifest leaves out
        const hash = createHash("sha1").update(`${round} ${i}`).digest();
        // A size that is no safe integer comes only from a line edited by hand: printed as String() prints it.
        const odd = [1.5, 1e21, 2 ** 53 + 2];
        const size =
          random() < 0.05
            ? odd[Math.floor(random() * odd.length)]!
            : random() < 0.5
              ? Math.floor(random() * 10)
              : Math.floor(random() * 2 ** 40);
        entries.set(i, hash, size);
        lines.push(`${hash.toString("base64url")} ${size} ${name}\n`);
      }
      const epoch = round % 2 === 0 ? undefined : 1_700_000_000;
      const want = Buffer.from(`${MARKER_HEADER}\n${mtimesLine(epoch)}\n${lines.join("")}`, "utf8");
      const printed = printedManifest(files, entries, epoch);
      expect(printed.bytes().equals(want), `round ${round}`).toBe(true);
      expect(Buffer.from([...printed.chunks()].join(""), "utf8").equals(want)).toBe(true);
    }
  });

  test("a printed entry read back (setPrinted) is the entry; a damaged one reads as Buffer's lenient decoder reads it", () => {
    for (let i = 0; i < 2000; i++) {
      const hash = createHash("sha1").update(String(i)).digest();
      let printed = hash.toString("base64url");
      if (i % 10 === 0) printed = printed.slice(0, 5 + (i % 20)) + "*" + printed.slice(6 + (i % 20)); // not base64url
      const text = `xx ${printed} 12 a/b.json\n`;
      const entries = new ManifestEntries(1);
      entries.setPrinted(0, text, 3, 12);
      const lenient = Buffer.alloc(20);
      lenient.write(printed, 0, 20, "base64url");
      expect(entries.get(0), printed).toBe(`${lenient.toString("base64url")} 12`);
      if (i % 10 !== 0) expect(entries.get(0)).toBe(`${printed} 12`);
    }
  });

  test("a path given by the caller is printed in place of the file's own", () => {
    const entries = new ManifestEntries(2);
    const hash = createHash("sha1").update("x").digest();
    entries.set(0, hash, 1);
    entries.set(1, hash, 22);
    const files: OutputFile[] = [
      { path: "ignored", data: "" },
      { path: "ignored-too", data: "" },
    ];
    const text = printedManifest(files, entries, undefined, ["a/ü.json", "b"]).bytes().toString("utf8");
    expect(text.split("\n").slice(2)).toEqual([
      `${hash.toString("base64url")} 1 a/ü.json`,
      `${hash.toString("base64url")} 22 b`,
      "",
    ]);
  });
});

describe("TextDigests", () => {
  test("a large text is hashed once; two large texts of one length each get their own sha1", () => {
    const digests = new TextDigests();
    const a = "a".repeat(2 ** 21);
    const b = `${"a".repeat(2 ** 21 - 1)}b`;
    const sha1 = (s: string): string => createHash("sha1").update(s).digest("hex");
    expect(digests.of(a).toString("hex")).toBe(sha1(a));
    expect(digests.of(a)).toBe(digests.of(a));
    expect(digests.of(b).toString("hex")).toBe(sha1(b));
    expect(digests.of("small").toString("hex")).toBe(sha1("small"));
    expect(digests.of(Buffer.from("bytes")).toString("hex")).toBe(createHash("sha1").update("bytes").digest("hex"));
  });
});
