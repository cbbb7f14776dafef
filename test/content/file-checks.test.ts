// test/content/file-checks.test.ts
// The check of the content's files (their names and bytes) that `dev` keeps between builds (src/content/cross-checks.ts:
// FileChecks) gives the same findings while the same files are published with the same image facts: through random edits
// (a file renamed, its bytes' facts replaced, its size changed, a file added or removed), every round's findings
// are those of a check without the memo, and each round gets its own copies.

import { describe, expect, test } from "vitest";
import { prng } from "../../scripts/prng.mjs";
import { FileChecks } from "../../src/content/cross-checks.js";
import type { FileFacts } from "../../src/content/file-facts.js";
import type { RawContent, RawFile } from "../../src/content/read-content.js";

const pngFacts = (): FileFacts => ({ hash: Buffer.alloc(20, 1), image: { type: "png", width: 1, height: 1 } });
const gifFacts = (): FileFacts => ({ hash: Buffer.alloc(20, 2), image: { type: "gif", width: 1, height: 1 } });
const unreadable = (): FileFacts => ({ hash: Buffer.alloc(20, 4), image: { type: null, width: null, height: null } });
const activeSvg = (): FileFacts => ({
  hash: Buffer.alloc(20, 3),
  image: { type: "svg", width: 1, height: 1, active: ["<script>"] },
});

const file = (path: string, facts: FileFacts, size = 10): RawFile => ({
  path,
  absPath: `/c/${path}`,
  size,
  mtimeMs: 0,
  facts,
});

/** Content as readContent gives it: new file objects each read, each keeping its facts object while unchanged. */
function content(files: readonly RawFile[]): RawContent {
  const published = files.map((f) => ({ ...f })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const iconDirFiles = published.filter((f) => f.path.startsWith("icons/") && !f.path.slice(6).includes("/"));
  return { dir: "/c", json: {}, configReference: null, iconsDirExists: true, iconDirFiles, published, diagnostics: [] };
}

describe("FileChecks: the content's files checked again when they change", () => {
  test("200 random rounds: each finds what a check without the memo finds", () => {
    const seed = Number(process.env.FILE_CHECK_SEED ?? 28);
    const next = prng(seed);
    let files = [
      file("icons/text.png", pngFacts()),
      file("icons/php.png", pngFacts()),
      file("icons/x.svg", activeSvg()),
      file("icons/broken.png", unreadable()),
      file("icons/broken2.png", unreadable()),
      file("style/a.css", { hash: Buffer.alloc(20) }),
    ];
    for (let i = 0; i < 30; i++) files.push(file(`icons/i${i}.png`, pngFacts()));
    const checks = new FileChecks();
    let found = 0;
    for (let round = 0; round < 200; round++) {
      const i = Math.floor(next() * files.length);
      const f = files[i]!;
      const r = next();
      files = [...files];
      if (r < 0.2)
        files[i] = { ...f, facts: next() < 0.5 ? gifFacts() : pngFacts() }; // its bytes changed (a GIF named .png, or not)
      else if (r < 0.3)
        files[i] = { ...f, size: f.size === 0 ? 10 : next() < 0.5 ? 0 : f.size + 1 }; // an unreadable file's words say whether it is empty
      else if (r < 0.4)
        files[i] = { ...f, path: `icons/caf${next() < 0.5 ? "\u00e9" : "e\u0301"}${round}.png` }; // NFC or NFD
      else if (r < 0.45) files[i] = { ...f, path: `icons/bad\u0001${round}.png` };
      else if (r < 0.5) files[i] = { ...f, path: `icons/${"n".repeat(260)}.png` };
      else if (r < 0.6) files.push(file(`icons/added${round}.png`, pngFacts()));
      else if (r < 0.7 && files.length > 5) files.splice(i, 1);
      else if (r < 0.75)
        files = files.some((g) => g.path === "icons/text.png")
          ? files.filter((g) => g.path !== "icons/text.png")
          : [...files, file("icons/text.png", pngFacts())];
      // else: nothing changed
      const raw = content(files);
      const kept = checks.check(raw);
      expect(kept, `seed ${seed}, round ${round}`).toEqual(new FileChecks().check(raw));
      if (kept.length > 0) {
        found++;
        kept[0]!.message = "changed by a caller";
        expect(checks.check(content(files))[0]!.message, "each build its own copies").not.toBe("changed by a caller");
      }
    }
    expect(found, "rounds with findings").toBeGreaterThan(50);
  });

  test("an unreadable icon's words follow its size (empty or not), its facts the same object", () => {
    const facts = unreadable();
    const text = file("icons/text.png", pngFacts());
    const checks = new FileChecks();
    const empty = checks.check(content([text, file("icons/b.png", facts, 0)]));
    expect(empty.map((d) => d.message).join()).toContain("The file is empty");
    const full = checks.check(content([text, file("icons/b.png", facts, 9)]));
    expect(full.map((d) => d.message).join()).toContain("not a readable PNG");
  });
});
