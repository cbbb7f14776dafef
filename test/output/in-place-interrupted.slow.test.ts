// test/output/in-place-interrupted.slow.test.ts
// An in-place update stopped midway (an exception, or the process killed with SIGKILL) leaves whole files, old and
// new, and its journal: the build reads as incomplete (`check` and `preview` warn, `verify` refuses it), and the next
// build finishes it, to exactly what a fresh full build writes.

import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { link, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { main } from "../../src/cli.js";
import { layoutOf } from "../../src/layout/paths.js";
import { isIncomplete } from "../../src/layout/build-status.js";
import { readBuild } from "../../src/layout/read-build.js";
import { squarePng } from "../../src/init/png.js";
import { copyContent, DEMO_CONTENT, REPO, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

/** Every file of the folders a build writes beside `base` → sha1; site.id (an inode) and its manifest line aside. */
async function snapshot(base: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const top of ["dist", ".build-index-site", ".netlify", ".vercel", ".wrangler"]) {
    let entries;
    try {
      entries = await readdir(path.join(base, top), { recursive: true, withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (!e.isFile()) continue;
      const rel = path.relative(base, path.join(e.parentPath, e.name)).split(path.sep).join("/");
      // site.id, the folders' record (.dirs) and the content cache (.content) hold inodes and change times; .update is
      // the journal; the parses' record (.parsed) lists the parses in the order they were made.
      if (
        rel.endsWith("/site.id") ||
        rel.endsWith(".update") ||
        rel.endsWith(".dirs") ||
        rel.endsWith(".content") ||
        rel.endsWith(".parsed")
      )
        continue;
      let bytes = await readFile(path.join(base, rel));
      if (rel === ".build-index-site/dist/.build-manifest")
        bytes = Buffer.from(
          bytes
            .toString()
            .split("\n")
            .filter((l) => !l.endsWith(" site.id"))
            .join("\n"),
        );
      out.set(rel, createHash("sha1").update(bytes).digest("hex"));
    }
  }
  return out;
}

/** A content folder and its first build; then an edit that changes a few dozen files. */
async function builtThenEdited(): Promise<{ content: string; out: string; before: Map<string, string> }> {
  const content = await copyContent(DEMO_CONTENT);
  const root = await tmpDir("bis-interrupt-");
  temps.push(content, root);
  const out = path.join(root, "dist");
  await build({ content, out, sourceDateEpoch: TEST_EPOCH });
  const before = await snapshot(root);
  await writeFile(path.join(content, "icons/php.png"), squarePng(20, [200, 30, 30, 255]));
  const ext = path.join(content, "extensionMap.json");
  await writeFile(ext, (await readFile(ext, "utf8")).replace('"mjs": "index_js"', '"mjs": "index_css"'));
  return { content, out, before };
}

/** The command, as a user runs it. */
async function cli(args: string[]): Promise<number | null> {
  const child = spawn(process.execPath, [path.join(REPO, "bin/build-index-site.js"), ...args], {
    env: { ...process.env, SOURCE_DATE_EPOCH: TEST_EPOCH },
    stdio: "ignore",
  });
  return new Promise((resolve) => child.on("close", resolve));
}

/** What a fresh full build of the content writes (in a base folder of its own), through the API or the command (whose
 * options, and so the inputs key in the stamps, are the command's). */
async function freshBuild(content: string, command = false): Promise<Map<string, string>> {
  const root = await tmpDir("bis-fresh-");
  temps.push(root);
  const out = path.join(root, "dist");
  if (command) expect(await cli(["build", "--content", content, "--out", out])).toBe(0);
  else await build({ content, out, sourceDateEpoch: TEST_EPOCH, force: true });
  return snapshot(root);
}

/** Each file is whole: the bytes of the build before or of the build after. */
function expectWholeFiles(now: Map<string, string>, before: Map<string, string>, after: Map<string, string>): void {
  for (const [file, hash] of now) {
    if (file.endsWith(".bis-new")) continue; // the temporary beside the file being written (removed by the next run)
    expect(hash === before.get(file) || hash === after.get(file), `${file} is neither the old nor the new file`).toBe(
      true,
    );
  }
}

const silent = { out: () => {}, err: () => {} };

describe("an in-place update stopped midway", () => {
  it("by an exception: whole files and a journal; check warns, verify refuses; the next build finishes it", async () => {
    const { content, out, before } = await builtThenEdited();
    const after = await freshBuild(content);
    let n = 0;
    await expect(
      build({
        content,
        out,
        sourceDateEpoch: TEST_EPOCH,
        write: {
          onFile: () => {
            if (++n === 6) throw new Error("injected");
          },
        },
      }),
    ).rejects.toThrow("injected");
    const base = path.dirname(out);
    const now = await snapshot(base);
    expect(now).not.toEqual(before); // it had begun
    expect(now).not.toEqual(after);
    expectWholeFiles(now, before, after);
    expect(existsSync(layoutOf(out).journal)).toBe(true);
    // The folders' record is forgotten before the first change: the next build reads every folder.
    expect(existsSync(layoutOf(out).folders)).toBe(false);
    expect(isIncomplete(out)).toBe(true);
    expect((await readBuild(out)).complete).toBe(false);

    const err: string[] = [];
    expect(
      await main(["node", "bis", "check", "--content", content, "--out", out], {
        out: () => {},
        err: (l: string) => err.push(l),
      }),
    ).toBe(0);
    expect(err.join("\n")).toMatch(/is incomplete: a build was stopped midway/);
    expect(await main(["node", "bis", "verify", "http://127.0.0.1:9/", "--dir", out], silent)).toBe(2);

    const finished = await build({ content, out, sourceDateEpoch: TEST_EPOCH });
    expect(finished.changes.mode).toBe("in place");
    expect(isIncomplete(out)).toBe(false);
    expect(existsSync(layoutOf(out).journal)).toBe(false);
    expect(await snapshot(base)).toEqual(after);
  });

  it("by SIGKILL: the next build (from the command) finishes it; or --force writes it in full", async () => {
    for (const next of [[], ["--force"]]) {
      const { content, out, before } = await builtThenEdited();
      const [after, afterCommand] = [await freshBuild(content), await freshBuild(content, true)];
      // A real process, killed in the middle of its writing (after its 10th file), with no chance to clean up.
      const script = `import { build } from ${JSON.stringify(path.join(REPO, "lib/pipeline/pipeline.js"))};
let n = 0;
await build({ content: ${JSON.stringify(content)}, out: ${JSON.stringify(out)}, sourceDateEpoch: ${JSON.stringify(TEST_EPOCH)},
  write: { onFile: () => { if (++n === 10) process.kill(process.pid, "SIGKILL"); } } });`;
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: "ignore" });
      const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
        child.on("close", (_code, sig) => resolve(sig)),
      );
      expect(signal).toBe("SIGKILL");
      const base = path.dirname(out);
      expectWholeFiles(await snapshot(base), before, after);
      expect(isIncomplete(out)).toBe(true);
      expect(existsSync(layoutOf(out).folders)).toBe(false);

      expect(await cli(["build", "--content", content, "--out", out, ...next])).toBe(0);
      expect(isIncomplete(out)).toBe(false);
      const got = await snapshot(base);
      expect([...got.keys()].sort(), next.join(" ")).toEqual([...afterCommand.keys()].sort());
      expect(
        [...afterCommand].filter(([file, hash]) => got.get(file) !== hash).map(([file]) => file),
        next.join(" "),
      ).toEqual([]);
      expect((await readdir(base)).sort()).toEqual([".build-index-site", ".netlify", ".vercel", ".wrangler", "dist"]);
      // The journal is gone; the folders' record is written again (the update forgot it before its first change), and
      // the content cache and the parses' record are there.
      expect((await readdir(path.join(base, ".build-index-site"))).sort()).toEqual([
        "dist",
        "dist.content",
        "dist.dirs",
        "dist.parsed",
      ]);
    }
  });

  it("leaves alone the file a leftover temporary links to: the new bytes go into a file of their own", async () => {
    const { content, out } = await builtThenEdited();
    const after = await freshBuild(content);
    // What an update stopped between linking a host's copy beside its place and renaming it leaves: a temporary that is
    // a hard link to a file of the site, here beside a file this update rewrites (its journal lost with it).
    const other = path.join(out, "icons/folder.png");
    const kept = await readFile(other);
    await link(other, path.join(out, "icons/php.png.bis-new"));
    const done = await build({ content, out, sourceDateEpoch: TEST_EPOCH });
    expect(done.changes.mode).toBe("in place");
    expect(done.changes.sitePaths).toContain("icons/php.png");
    expect(await readFile(other)).toEqual(kept);
    expect(await snapshot(path.dirname(out))).toEqual(after);
  });
});
