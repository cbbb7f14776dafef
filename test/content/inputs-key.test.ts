// test/content/inputs-key.test.ts
// The key of a build's inputs (src/content/inputs-key.ts: inputsKey) keeps each run of published files' sha1 while its
// files keep their facts: through random edits, the key with runs kept is the key of the same content read afresh
// (every file's facts new objects), and every edit changes it.

import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { prng } from "../../scripts/prng.mjs";
import type { RawContent, RawFile } from "../../src/content/read-content.js";
import { inputsKey, type KeySettings } from "../../src/content/inputs-key.js";

const settings: KeySettings = {
  baseUrl: undefined,
  sourceDateEpoch: "1735689600",
  hosts: ["*"],
  plan: "free",
};

/** The tool's fingerprint, the same in every key here. */
const TOOL = "tool";
const sha1 = (s: string): Buffer => createHash("sha1").update(s).digest();
const file = (name: string, bytes: string, mtimeMs = 1_700_000_000_000): RawFile => ({
  path: `icons/${name}`,
  absPath: `/c/icons/${name}`,
  size: bytes.length,
  mtimeMs,
  facts: { hash: sha1(bytes) },
});

/** Content as readContent gives it: new file objects each read, each keeping its facts object while unchanged. */
const content = (files: readonly RawFile[]): RawContent => ({
  dir: "/c",
  json: {},
  configReference: null,
  iconsDirExists: true,
  iconDirFiles: [],
  published: files.map((f) => ({ ...f })),
  diagnostics: [],
});
/** The same, read afresh: no facts object is one a key has seen. */
const afresh = (files: readonly RawFile[]): RawContent =>
  content(files.map((f) => ({ ...f, facts: { hash: Buffer.from(f.facts!.hash) } })));

describe("inputsKey: runs of published files kept while unchanged", () => {
  test("200 random edits: each key is the key read afresh, and differs from the one before", async () => {
    const seed = Number(process.env.INPUTS_KEY_SEED ?? 28);
    const next = prng(seed);
    let files = Array.from({ length: 3000 }, (_, i) => file(`f${String(i).padStart(5, "0")}.png`, `bytes ${i}`));
    let last = await inputsKey(content(files), settings, TOOL);
    const seen = new Set([last]);
    for (let round = 0; round < 200; round++) {
      const i = Math.floor(next() * files.length);
      const f = files[i]!;
      const r = next();
      files = [...files];
      if (r < 0.3)
        files[i] = file(f.path.slice(6), `edited ${round}`, f.mtimeMs); // new bytes
      else if (r < 0.45)
        files[i] = { ...f, mtimeMs: f.mtimeMs - 1000 }; // touched (before SOURCE_DATE_EPOCH)
      else if (r < 0.55)
        files[i] = { ...f, size: f.size + 1 }; // same hash, other size (as the key sees it)
      else if (r < 0.7)
        files.splice(i, 0, file(`${f.path.slice(6, -4)}-added${round}.png`, `new ${round}`)); // added
      else if (r < 0.85)
        files.splice(i, 1); // removed
      else files[i] = { ...f, path: `${f.path.slice(0, -4)}-renamed.png` }; // renamed, same bytes
      const key = await inputsKey(content(files), settings, TOOL);
      expect(key, `seed ${seed}, round ${round}`).toBe(await inputsKey(afresh(files), settings, TOOL));
      expect(key, `seed ${seed}, round ${round}: the edit changes the key`).not.toBe(last);
      expect(seen.has(key)).toBe(false);
      seen.add(key);
      expect(await inputsKey(content(files), settings, TOOL), "asked again, unchanged").toBe(key);
      last = key;
    }
  });

  test("a time after SOURCE_DATE_EPOCH is clamped (the key does not change), one before it does", async () => {
    const files = [file("a.png", "a", 1_800_000_000_000), file("b.png", "b", 1_800_000_000_000)];
    const key = await inputsKey(content(files), settings, TOOL);
    const later = files.map((f) => ({ ...f, mtimeMs: f.mtimeMs + 1000 })); // both after the epoch: clamped alike
    expect(await inputsKey(content(later), settings, TOOL)).toBe(key);
    const unclamped = { ...settings, sourceDateEpoch: undefined };
    expect(await inputsKey(content(later), unclamped, TOOL), "runs kept under the epoch are not those without").toBe(
      await inputsKey(afresh(later), unclamped, TOOL),
    );
    expect(await inputsKey(content(later), unclamped, TOOL)).not.toBe(await inputsKey(content(files), unclamped, TOOL));
  });
});
