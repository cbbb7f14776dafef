// test/output/manifest-patch.test.ts
// --out's manifest patched from the last one's text (src/output/manifests/patch.ts) must be the text printedManifest
// prints of the new entries, byte for byte, with its lines' starts where that text's lines begin.

import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { ManifestEntries } from "../../src/output/manifests/entries.js";
import { manifestOf, patchManifest, printedOf, updatedManifest } from "../../src/output/manifests/patch.js";
import type { OutputFile } from "../../src/output/plan/files.js";
import { printedManifest } from "../../src/output/manifests/print.js";
import { prng } from "../../scripts/prng.mjs";

const NAMES = ["icons/php.png", "api/findIcon/file/ejs.json", "é.png", "日本.svg", "emoji-😀.png", "x y+z.json"];

/** `count` files with random entries (every one set), printed. */
function site(random: () => number, count: number, round: number): { files: OutputFile[]; entries: ManifestEntries } {
  const files: OutputFile[] = [];
  const entries = new ManifestEntries(count);
  for (let i = 0; i < count; i++) {
    files.push({ path: `${NAMES[Math.floor(random() * NAMES.length)]!}${i}`, data: "" });
    entries.set(
      i,
      createHash("sha1").update(`${round} ${i}`).digest(),
      Math.floor(random() * 10 ** Math.floor(random() * 9)),
    );
  }
  return { files, entries };
}

describe("a patched manifest", () => {
  test("is the print of the new entries, for random changes of size and hash (sizes printed longer or shorter)", () => {
    const random = prng(11);
    for (let round = 0; round < 60; round++) {
      const count = 1 + Math.floor(random() * 200);
      const epoch = round % 2 === 0 ? undefined : 1_700_000_000;
      const { files, entries } = site(random, count, round);
      const before = printedManifest(files, entries, epoch).bytes();
      const from = printedOf(before, count);
      const changed: number[] = [];
      const now = new ManifestEntries(count);
      for (let i = 0; i < count; i++) {
        now.copy(i, entries, i);
        if (random() < 0.1) {
          changed.push(i);
          if (random() < 0.7)
            now.set(
              i,
              createHash("sha1").update(`new ${round} ${i}`).digest(),
              Math.floor(random() * 10 ** Math.floor(random() * 12)),
            );
        }
      }
      const want = printedManifest(files, now, epoch).bytes();
      const patched = patchManifest(from, changed, (k) => `${now.get(k)!} ${files[k]!.path}\n`);
      expect(patched.bytes().equals(want), `round ${round}`).toBe(true);
      expect([...patched.starts]).toEqual([...printedOf(want, count).starts]);
      if (changed.length === 0) expect(patched).toBe(from);
    }
  });

  test("manifestOf: a text's lines' starts are its bytes' when it is ASCII; a text that is not gives none", () => {
    const text = "h\nmtimes -\nA 1 a\nB 22 bb\n";
    const made = manifestOf(text, [11, 17])!;
    expect(made.bytes().toString("latin1")).toBe(text);
    expect([...made.starts]).toEqual([11, 17, 25]);
    expect([...printedOf(made.bytes(), 2).starts]).toEqual([11, 17, 25]);
    expect(manifestOf("h\nmtimes -\nA 1 é\n", [11])).toBeNull();
  });

  test("updatedManifest: patched when given a patch, printed otherwise, and its text (once its bytes are made) is the next patch's start", () => {
    const random = prng(5);
    const { files, entries } = site(random, 50, 1);
    const printed = printedManifest(files, entries, undefined);
    const plain = updatedManifest(printed, files.length);
    expect(plain.made()).toBeUndefined(); // no bytes made yet
    const bytes = plain.bytes();
    expect(bytes.equals(printed.bytes())).toBe(true);
    const made = plain.made()!;
    expect(made.bytes()).toBe(bytes);
    expect([...made.starts]).toEqual([...printedOf(bytes, files.length).starts]);
    const none = updatedManifest(printed, null);
    none.bytes();
    expect(none.made()).toBeUndefined();

    const now = new ManifestEntries(files.length);
    for (let i = 0; i < files.length; i++) now.copy(i, entries, i);
    now.set(7, createHash("sha1").update("seven").digest(), 123456789);
    const patched = updatedManifest(printedManifest(files, now, undefined), files.length, {
      from: made,
      changed: [7],
      line: (k) => `${now.get(k)!} ${files[k]!.path}\n`,
    });
    expect(patched.bytes().equals(printedManifest(files, now, undefined).bytes())).toBe(true);
    expect([...patched.chunks()].join("")).toBe(printedManifest(files, now, undefined).bytes().toString("utf8"));
    expect(patched.made()!.bytes()).toBe(patched.bytes());
  });
});
