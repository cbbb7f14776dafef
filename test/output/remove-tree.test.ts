// The removal of an old output folder (src/output/claim/remove-tree.ts): everything in it goes, nothing outside it (a link
// is removed, never followed), and no more than a few files are being removed at any moment (Node's own recursive rm
// starts every entry of a folder at once: a ×100 site's old output took a build to 1.8 GB).

import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import * as fsp from "node:fs/promises";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { tempDirs } from "../helpers/fixtures.js";

// Counts the unlinks in flight (the real ones, with the real file system underneath).
const flight = vi.hoisted(() => ({ now: 0, max: 0 }));
vi.mock("node:fs/promises", async (original) => {
  const real = await original<typeof fsp>();
  return {
    ...real,
    unlink: async (p: Parameters<typeof real.unlink>[0]) => {
      flight.max = Math.max(flight.max, ++flight.now);
      try {
        await real.unlink(p);
      } finally {
        flight.now--;
      }
    },
  };
});
const { removeTree } = await import("../../src/output/claim/remove-tree.js");

const tempDir = tempDirs("bis-remove-");

describe("removeTree", () => {
  it("removes nested folders, files and links, and follows no link out of the folder", async () => {
    const root = await tempDir();
    const outside = path.join(root, "outside");
    mkdirSync(outside);
    writeFileSync(path.join(outside, "keep.txt"), "kept");
    const tree = path.join(root, "tree");
    mkdirSync(path.join(tree, "api/a/b"), { recursive: true });
    mkdirSync(path.join(tree, "empty"));
    for (let i = 0; i < 50; i++) writeFileSync(path.join(tree, "api/a/b", `${i}.json`), "{}");
    writeFileSync(path.join(tree, "index.html"), "<p>");
    symlinkSync(outside, path.join(tree, "api/link-to-folder"));
    symlinkSync(path.join(outside, "keep.txt"), path.join(tree, "link-to-file"));
    symlinkSync(path.join(root, "nowhere"), path.join(tree, "dangling"));
    await removeTree(tree, { recursive: true, force: true });
    expect(existsSync(tree)).toBe(false);
    expect(await fsp.readFile(path.join(outside, "keep.txt"), "utf8")).toBe("kept");
  });

  it("removes a few files at a time, however many a folder holds", async () => {
    const tree = path.join(await tempDir(), "tree");
    mkdirSync(path.join(tree, "many"), { recursive: true });
    for (let i = 0; i < 2000; i++) writeFileSync(path.join(tree, "many", `${i}.json`), "{}");
    flight.max = 0;
    await removeTree(tree, { recursive: true, force: true });
    expect(existsSync(tree)).toBe(false);
    expect(flight.max).toBeGreaterThan(1); // in parallel…
    expect(flight.max).toBeLessThanOrEqual(32); // …but bounded
  });

  it("with force, a missing folder is no error; without, it is", async () => {
    const missing = path.join(await tempDir(), "missing");
    await expect(removeTree(missing, { recursive: true, force: true })).resolves.toBeUndefined();
    await expect(removeTree(missing, { recursive: true })).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("removes a file given as the folder", async () => {
    const file = path.join(await tempDir(), "file.txt");
    writeFileSync(file, "x");
    await removeTree(file, { recursive: true, force: true });
    expect(existsSync(file)).toBe(false);
  });
});
