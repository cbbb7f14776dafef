// test/output/out-folder.test.ts
// Issue 8 point 1: `--out` deleted whatever it pointed at (`--out .` from a project folder, `--out ~/notes`,
// `--out some-file` all exited 0 after replacing it). Now an --out that exists, is not empty and has no marker of
// this tool is refused with exit 2, one line of reason and the flag that forces it, and nothing is touched.

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { lstat, mkdir, readdir, readFile, readlink, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import { withClaim } from "../../src/output/claim/claim.js";
import { isMountPoint } from "../../src/output/claim/out-folder.js";
import { MANIFEST_FILE } from "../../src/output/manifests/print.js";
import { writeOutput } from "../../src/output/write/full.js";
import { IN_OUT_HOSTS, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { writeBase } from "../helpers/base-content.js";

const temps: string[] = [];
afterAll(async () => {
  delete process.env.SOURCE_DATE_EPOCH;
  await Promise.all(temps.map(removeDir));
});
async function temp(): Promise<string> {
  const dir = await tmpDir("bis-out-folder-");
  temps.push(dir);
  return dir;
}

let content: string;
beforeAll(async () => {
  content = await writeBase();
  temps.push(content);
  process.env.SOURCE_DATE_EPOCH = TEST_EPOCH;
});

/** The CLI with the default hosts (netlify and vercel also write .netlify/ and .vercel/ beside --out). */
async function runDefaultHosts(...args: string[]): Promise<{ code: number; err: string[]; out: string[] }> {
  const err: string[] = [];
  const out: string[] = [];
  const code = await main(["node", "build-index-site", "build", "--content", content, ...args], {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  return { code, err, out };
}

/**
 * The CLI with hosts that write nothing beside --out, so that a test can list the folder holding it. The refusals
 * run with the default hosts: a refused build leaves nothing beside --out either.
 */
const run = (...args: string[]) => runDefaultHosts("--hosts", IN_OUT_HOSTS.join(","), ...args);

/** Every entry under a folder (names, and file bytes hashed): equal trees compare equal. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(e.parentPath, e.name);
    const rel = path.relative(dir, file);
    out[rel] = e.isFile()
      ? createHash("sha1")
          .update(await readFile(file))
          .digest("hex")
      : e.isSymbolicLink()
        ? `-> ${await readlink(file)}`
        : "dir";
  }
  return out;
}

/** A refusal: exit 2, one line of reason naming --out and one hint naming the flag that forces it. */
function expectRefused(result: { code: number; err: string[] }, reason: RegExp): void {
  expect(result.code).toBe(2);
  const lines = result.err.join("\n").split("\n");
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatch(reason);
  expect(lines[1]).toMatch(/--replace-out/);
  expect(result.err.join("\n")).not.toMatch(/\n\s+at /);
}

describe("--out deletes whatever it points at: refused unless it is this tool's output", () => {
  it("a project folder (`--out .`) is refused and nothing in or beside it is touched", async () => {
    const project = path.join(await temp(), "project");
    await mkdir(path.join(project, "src"), { recursive: true });
    await writeFile(path.join(project, "package.json"), "{}\n");
    await writeFile(path.join(project, "src/index.ts"), "export {};\n");
    const before = await tree(path.dirname(project));
    expectRefused(
      await runDefaultHosts("--out", project),
      /^--out .*project is a folder that build-index-site did not write \(2 entries, and no records of it in \.build-index-site\/project\/\): refusing to replace it\.$/,
    );
    expect(await tree(path.dirname(project))).toEqual(before);
  });

  it("a folder of notes (`--out ~/notes`) is refused; a file (`--out some-file`) too", async () => {
    const root = await temp();
    await mkdir(path.join(root, "notes"));
    await writeFile(path.join(root, "notes/todo.md"), "- keep me\n");
    await writeFile(path.join(root, "some-file"), "precious\n");
    const before = await tree(root);
    expectRefused(
      await runDefaultHosts("--out", path.join(root, "notes")),
      /notes is a folder that build-index-site did not write/,
    );
    expectRefused(
      await runDefaultHosts("--out", path.join(root, "some-file")),
      /some-file is a file, not a folder that build-index-site wrote/,
    );
    expect(await tree(root)).toEqual(before);
  });

  it("records of --out that are not this tool's are refused before anything is written; --replace-out replaces them", async () => {
    const root = await temp();
    await mkdir(path.join(root, ".build-index-site", "dist"), { recursive: true });
    await writeFile(path.join(root, ".build-index-site", "dist", "notes.md"), "mine\n");
    const before = await tree(root);
    expectRefused(
      await runDefaultHosts("--out", path.join(root, "dist")),
      /\.build-index-site\/dist exists and was not written by build-index-site/,
    );
    expect(await tree(root)).toEqual(before);
    expect((await run("--out", path.join(root, "dist"), "--replace-out")).code).toBe(0);
    expect(await readdir(path.join(root, ".build-index-site", "dist"))).not.toContain("notes.md");
  });

  it("an --out inside .build-index-site/ (where records live, and would be published) is refused", async () => {
    const root = await temp();
    const r = await runDefaultHosts("--out", path.join(root, ".build-index-site", "site"));
    expect(r.code).toBe(2);
    expect(r.err.join("\n")).toMatch(/is inside \.build-index-site\/, where builds keep their records\./);
    expect(await readdir(root)).toEqual([]);
  });

  it("a folder whose .build-manifest is not this tool's is refused", async () => {
    const out = path.join(await temp(), "dist");
    await mkdir(out);
    await writeFile(path.join(out, MANIFEST_FILE), "someone else's manifest\n");
    expectRefused(await run("--out", out), /did not write/);
  });

  it("an empty folder, a missing one and the tool's own output are written", async () => {
    const root = await temp();
    await mkdir(path.join(root, "empty"));
    expect((await run("--out", path.join(root, "empty"))).code).toBe(0);
    expect((await run("--out", path.join(root, "new/deeper"))).code).toBe(0);
    expect((await run("--out", path.join(root, "empty"), "--force")).code).toBe(0); // its own output now
    // The marker that makes it ours is in its records, beside it (docs/layout.md).
    expect(readFileSync(path.join(root, ".build-index-site", "empty", MANIFEST_FILE), "utf8")).toMatch(
      /^build-index-site manifest 1\n/,
    );
    expect((await readdir(root)).sort()).toEqual([".build-index-site", "empty", "new"]);
  });

  it("--replace-out replaces a foreign folder or file", async () => {
    const root = await temp();
    await mkdir(path.join(root, "notes"));
    await writeFile(path.join(root, "notes/todo.md"), "- replace me\n");
    await writeFile(path.join(root, "some-file"), "replace me\n");
    expect((await run("--out", path.join(root, "notes"), "--replace-out")).code).toBe(0);
    expect((await run("--out", path.join(root, "some-file"), "--replace-out")).code).toBe(0);
    expect(await readdir(path.join(root, "notes"))).not.toContain("todo.md");
    expect((await lstat(path.join(root, "some-file"))).isDirectory()).toBe(true);
    expect((await readdir(root)).sort()).toEqual([".build-index-site", "notes", "some-file"]);
  });

  it("a symlinked --out stays a symlink, and its target is what gets replaced", async () => {
    const root = await temp();
    await mkdir(path.join(root, "real"));
    await symlink("real", path.join(root, "dist"));
    expect((await run("--out", path.join(root, "dist"))).code).toBe(0);
    expect((await run("--out", path.join(root, "dist"), "--force")).code).toBe(0); // a second swap through the link
    expect((await lstat(path.join(root, "dist"))).isSymbolicLink()).toBe(true);
    expect(await readlink(path.join(root, "dist"))).toBe("real");
    expect(await readdir(path.join(root, "real"))).toContain("config.json");
    expect(await readdir(path.join(root, ".build-index-site", "real"))).toContain("routes.json"); // beside the real folder
    expect((await readdir(root)).sort()).toEqual([".build-index-site", "dist", "real"]);
    // A link to a foreign folder is refused like the folder itself.
    await mkdir(path.join(root, "mine"));
    await writeFile(path.join(root, "mine/keep.txt"), "keep\n");
    await symlink("mine", path.join(root, "link"));
    expectRefused(await run("--out", path.join(root, "link")), /link is a folder that build-index-site did not write/);
    expect(await readdir(path.join(root, "mine"))).toEqual(["keep.txt"]);
  });
});

describe("a symlinked --out into another folder: the folders beside it go beside the link's target", () => {
  it("and the next build without changes is up to date (it looked beside the link, so it rebuilt every time)", async () => {
    const root = await temp();
    await mkdir(path.join(root, "a"));
    await mkdir(path.join(root, "b/real"), { recursive: true });
    await symlink("../b/real", path.join(root, "a/dist"));
    expect((await runDefaultHosts("--out", path.join(root, "a/dist"))).code).toBe(0);
    expect((await readdir(path.join(root, "b"))).sort()).toEqual([
      ".build-index-site",
      ".netlify",
      ".vercel",
      ".wrangler",
      "real",
    ]);
    expect(await readdir(path.join(root, "a"))).toEqual(["dist"]);
    const again = await runDefaultHosts("--out", path.join(root, "a/dist"));
    expect(again.code).toBe(0);
    expect(again.out.join("\n")).toMatch(/is up to date/);
  });
});

describe("a mount point --out (a Docker volume cannot be renamed: EBUSY after all the work) is refused up front", () => {
  /** A directory that is a mount point on every Linux: /proc (a file system of its own). */
  const mountPoint = "/proc";

  it("is detected as a mount point (another device than its parent, or listed in /proc/self/mountinfo)", async () => {
    expect(await isMountPoint(mountPoint)).toBe(true);
    const plain = await temp();
    expect(await isMountPoint(plain)).toBe(false);
  });

  it("exits 2 before building, even with --replace-out, naming what to do", async () => {
    for (const extra of [[], ["--replace-out"]]) {
      const result = await run("--out", mountPoint, ...extra);
      expect(result.code).toBe(2);
      expect(result.err[0]).toMatch(
        /^--out \/proc is a mount point .*: the build replaces --out by renaming a folder beside it, which a mount point does not allow\.\n {2}Point --out at a new folder inside it \(e\.g\. --out \/proc\/site\)/,
      );
    }
    expect(await readdir("/").then((names) => names.filter((n) => n.startsWith(".proc")))).toEqual([]);
  });

  it("the writer refuses it too (a second output folder written directly gets the same protection)", async () => {
    await expect(writeOutput(mountPoint, [{ path: "x.json", data: "{}\n" }])).rejects.toMatchObject({ code: "USAGE" });
  });
});

describe("the claim checks the places before it claims (issue 51: the build's checks live in one stage)", () => {
  it("withClaim refuses an --out that holds the content before it takes the lock or runs the build", async () => {
    const parent = await temp();
    const out = path.join(parent, "site");
    await mkdir(path.join(out, "content"), { recursive: true });
    let ran = false;
    const claiming = withClaim({ out, content: path.join(out, "content"), replaceOut: false }, async () => {
      ran = true;
    });
    await expect(claiming).rejects.toMatchObject({
      code: "USAGE",
      message: expect.stringContaining("contains the content folder"),
    });
    expect(ran).toBe(false);
    expect(await readdir(parent)).toEqual(["site"]); // no lock, no records
  });
});
