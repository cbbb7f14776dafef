// test/output/nothing-lost.slow.test.ts
// The previous dist/ survives every failed build byte for byte (bad content, a full disk, an exception in the middle
// of writing, a failed swap, Ctrl-C); a successful build leaves no stale files; --out may not overwrite the content.

import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { checkFolders } from "../../src/output/claim/folder-checks.js";
import { main } from "../../src/cli.js";
import { ContentError, UsageError } from "../../src/errors.js";
import { writeOutput } from "../../src/output/write/full.js";
import type { WriteOptions } from "../../src/output/write/options.js";
import { removeDir, REPO, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { edit, PNG, writeBase } from "../helpers/base-content.js";
import { layoutOf } from "../../src/layout/paths.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));
async function temp(prefix?: string): Promise<string> {
  const dir = await tmpDir(prefix);
  temps.push(dir);
  return dir;
}

/** Every file under a folder with the SHA-256 of its bytes: equal snapshots mean a byte-identical tree. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (rel: string): Promise<void> => {
    for (const e of await readdir(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel === "" ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) await walk(child);
      else
        out[child] = createHash("sha256")
          .update(await readFile(path.join(dir, child)))
          .digest("hex");
    }
  };
  await walk("");
  return out;
}

/** Names beside the output folder: no `.site.tmp-*` or `.site.old-*` may be left behind (the default hosts' edge
 * outputs write `.netlify`, `.vercel` and `.wrangler` there too). */
const siblings = async (out: string): Promise<string[]> => (await readdir(path.dirname(out))).sort();

let content: string;
let out: string;
let before: Record<string, string>;
/** The build's records (docs/layout.md), which a failed build leaves as they were too. */
let beforeRecords: Record<string, string>;

const buildIt = (write?: WriteOptions, extra: { content?: string; force?: boolean } = {}) =>
  build({
    content: extra.content ?? content,
    out,
    sourceDateEpoch: TEST_EPOCH,
    ...(write ? { write } : {}),
    ...(extra.force ? { force: true } : {}),
  });

/**
 * File-system methods for the writer: `link` always fails, so that a writer that reuses unchanged files of the
 * previous output by hard-linking them falls back to writing every file (and meets the injected failure).
 */
const noReuse = (methods: Record<string, unknown>): WriteOptions["methods"] =>
  ({
    link: async () => {
      throw Object.assign(new Error("EPERM: operation not permitted, link"), { code: "EPERM" });
    },
    ...methods,
  }) as WriteOptions["methods"];

beforeAll(async () => {
  content = await writeBase();
  temps.push(content);
  out = path.join(await temp("bis-out-"), "site");
  await buildIt();
  before = await snapshot(out);
  beforeRecords = await snapshot(layoutOf(out).records);
  expect(Object.keys(before).length).toBeGreaterThan(50);
  expect(Object.keys(beforeRecords)).toEqual(expect.arrayContaining(["build.json", "routes.json", "site.manifest"]));
});

async function expectUntouched(): Promise<void> {
  expect(await snapshot(out)).toEqual(before);
  expect(await snapshot(layoutOf(out).records)).toEqual(beforeRecords);
  expect(await siblings(out)).toEqual([".build-index-site", ".netlify", ".vercel", ".wrangler", "site"]);
}

describe("a failed build leaves the previous output byte-identical", () => {
  it("bad content: nothing is written", async () => {
    const bad = await writeBase();
    temps.push(bad);
    await edit(bad, "config.json", `"version": "1.2.0"`, `"version": 1`);
    await expect(buildIt(undefined, { content: bad })).rejects.toBeInstanceOf(ContentError);
    await expectUntouched();
  });

  it("a full disk (ENOSPC from writeFile in the middle of the writing)", async () => {
    let calls = 0;
    const writeFileFull = (async (...args: Parameters<typeof import("node:fs/promises").writeFile>) => {
      if (++calls === 20) throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
      const { writeFile: real } = await import("node:fs/promises");
      return real(...args);
    }) as typeof import("node:fs/promises").writeFile;
    await expect(buildIt({ methods: noReuse({ writeFile: writeFileFull }) })).rejects.toMatchObject({ code: "ENOSPC" });
    expect(calls).toBeGreaterThanOrEqual(20);
    await expectUntouched();
  });

  it("an exception thrown in the middle of writing a full build (onFile hook)", async () => {
    let n = 0;
    await expect(
      buildIt(
        {
          onFile: () => {
            if (++n === 30) throw new Error("injected");
          },
        },
        { force: true },
      ),
    ).rejects.toThrow("injected");
    await expectUntouched();
  });

  it("a failed read of a content file to copy", async () => {
    const readFile = (async () => {
      throw Object.assign(new Error("EIO: i/o error, read"), { code: "EIO" });
    }) as never;
    await expect(buildIt({ methods: noReuse({ readFile }) })).rejects.toMatchObject({
      code: "EIO",
      message: expect.stringMatching(/^Could not read/),
    });
    await expectUntouched();
  });

  it("a failed swap: the old site is moved back", async () => {
    let renames = 0;
    const flaky = (async (from: string, to: string) => {
      if (++renames === 2) throw Object.assign(new Error("EXDEV: cross-device link not permitted"), { code: "EXDEV" });
      return rename(from, to);
    }) as typeof rename;
    await expect(buildIt({ methods: { rename: flaky } })).rejects.toMatchObject({ code: "EXDEV" });
    await expectUntouched();
  });

  it("a failed first rename of the swap (EBUSY: a mount point that detection missed) leaves nothing beside --out", async () => {
    const busy = (async (from: string) => {
      throw Object.assign(new Error(`EBUSY: resource busy or locked, rename '${from}'`), {
        code: "EBUSY",
        syscall: "rename",
        path: from,
      });
    }) as typeof rename;
    await expect(buildIt({ methods: { rename: busy } })).rejects.toMatchObject({
      code: "EBUSY",
      hint: expect.stringMatching(/not a mount point/),
    });
    await expectUntouched();
  });

  it("an abort (what Ctrl-C does) in the middle of writing a full build", async () => {
    const controller = new AbortController();
    let n = 0;
    const reason = new Error("stopped");
    await expect(
      buildIt(
        {
          signal: controller.signal,
          onFile: () => {
            if (++n === 10) controller.abort(reason);
          },
        },
        { force: true },
      ),
    ).rejects.toBe(reason);
    await expectUntouched();
  });
});

describe("a successful build", () => {
  it("leaves no stale files from earlier builds and no temporary folders", async () => {
    const stale = path.join(out, "api/stale-from-an-old-build.json");
    await writeFile(stale, "{}\n");
    await mkdir(path.join(out, "old-folder"));
    await buildIt();
    expect(await snapshot(out)).toEqual(before);
    expect(await siblings(out)).toEqual([".build-index-site", ".netlify", ".vercel", ".wrangler", "site"]);
  });

  it("writes an output folder that does not exist yet, parents included", async () => {
    const fresh = path.join(await temp(), "a/b/site");
    const stats = await writeOutput(fresh, [{ path: "x/y.json", data: "{}\n" }]);
    expect(stats).toMatchObject({ files: 1, bytes: 3 });
    expect(await readFile(path.join(fresh, "x/y.json"), "utf8")).toBe("{}\n");
  });
});

describe("--out", () => {
  it("may not be the content folder, a folder above it, inside it, a link to it, or /", async () => {
    const parent = await temp();
    const c = path.join(parent, "content");
    await mkdir(c);
    await symlink(c, path.join(parent, "link"));
    for (const bad of [
      c,
      parent,
      path.dirname(parent),
      path.join(c, "dist"),
      path.join(parent, "link"),
      path.join(parent, "link/dist"),
      "/",
    ]) {
      expect(() => checkFolders(c, bad), bad).toThrow(UsageError);
    }
    expect(() => checkFolders(c, path.join(parent, "dist"))).not.toThrow();
    const silent = { out: (): void => {}, err: (): void => {} };
    expect(await main(["node", "bis", "build", "--content", content, "--out", content], silent)).toBe(2);
    expect(await main(["node", "bis", "build", "--content", content, "--out", "/"], silent)).toBe(2);
  });
});

describe("Ctrl-C during a build", () => {
  it("stops the real command with exit 130, removes its temporary folder and keeps the previous site", async () => {
    // A content folder with a few thousand icons, so that the writing takes long enough to be interrupted.
    const big = await writeBase();
    temps.push(big);
    const names = Array.from({ length: 3000 }, (_, i) => `icon-${i}.png`);
    await Promise.all(names.map((n) => writeFile(path.join(big, "icons", n), PNG)));
    const bigOut = path.join(await temp("bis-sigint-"), "site");
    // Build it once with the command, then interrupt a rebuild.
    const run = (args: string[]) =>
      spawn(process.execPath, [path.join(REPO, "bin/build-index-site.js"), ...args], {
        env: { ...process.env, SOURCE_DATE_EPOCH: TEST_EPOCH },
        stdio: ["ignore", "pipe", "pipe"],
      });
    const exit = (child: ReturnType<typeof run>): Promise<number | null> =>
      new Promise((resolve) => child.on("close", (code) => resolve(code)));
    expect(await exit(run(["build", "--content", big, "--out", bigOut]))).toBe(0);
    const previous = await snapshot(bigOut);

    const child = run(["build", "--content", big, "--out", bigOut, "--force"]); // unchanged content: --force, or it is up to date
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const done = exit(child);
    // Wait until the temporary folder exists (the writing has started), then press Ctrl-C.
    for (let i = 0; i < 2000; i++) {
      if ((await siblings(bigOut)).some((n) => n.startsWith(".site.tmp-"))) break;
      await new Promise((r) => setTimeout(r, 2));
    }
    expect((await siblings(bigOut)).some((n) => n.startsWith(".site.tmp-"))).toBe(true);
    child.kill("SIGINT");
    expect(await done).toBe(130);
    expect(stderr).toMatch(/Stopped by SIGINT: nothing was written and the previous output folder is unchanged\./);
    expect(await siblings(bigOut)).toEqual([".build-index-site", ".netlify", ".vercel", ".wrangler", "site"]);
    expect(await snapshot(bigOut)).toEqual(previous);
  });
});
