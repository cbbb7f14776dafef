// test/output/os-errors.test.ts
// Issue 8 point 10: EACCES, EROFS, ENOSPC, EEXIST, ENAMETOOLONG while writing, and a SOURCE_DATE_EPOCH out of range,
// crashed with a stack trace. Each now gives one line naming the path (as the user named --out, never the build's
// temporary folder) and a hint line saying what to do; the previous output is kept.

import { spawnSync } from "node:child_process";
import { writeFile as realWriteFile, mkdir as realMkdir, readdir } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { main } from "../../src/cli.js";
import { BuildError, formatError } from "../../src/errors.js";
import { removeDir, REPO, IN_OUT_HOSTS, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { writeBase } from "../helpers/base-content.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

let content: string;
let root: string;
let out: string;
beforeAll(async () => {
  content = await writeBase();
  root = await tmpDir("bis-os-errors-");
  temps.push(content, root);
  out = path.join(root, "site");
  await build({ content, out, sourceDateEpoch: TEST_EPOCH, hosts: IN_OUT_HOSTS });
});

/** An error as Node's fs gives it: code, errno text, syscall and the path it failed on. */
const osError = (code: string, text: string, syscall: string, p: string): NodeJS.ErrnoException =>
  Object.assign(new Error(`${code}: ${text}, ${syscall} '${p}'`), { code, syscall, path: p });

const CASES: Array<[string, string, RegExp]> = [
  ["EACCES", "permission denied", /Make that folder writable for this user/],
  ["EROFS", "read-only file system", /Choose an --out on a writable disk/],
  ["ENOSPC", "no space left on device", /Free space on that disk/],
  ["EEXIST", "file already exists", /Another program wrote there/],
  ["ENAMETOOLONG", "name too long", /Choose a shorter --out path, or shorten the content's longest file names/],
];

describe("OS errors while writing give one line with the path and one with what to do, no stack trace", () => {
  it.each(CASES)("%s from the file system while writing an answer", async (code, text, hint) => {
    let calls = 0;
    const writeFile = (async (p: string, data: string | Uint8Array) => {
      if (++calls === 5) throw osError(code, text, "open", p);
      return realWriteFile(p, data);
    }) as typeof realWriteFile;
    const error = await build({
      content,
      out,
      sourceDateEpoch: TEST_EPOCH,
      hosts: IN_OUT_HOSTS,
      write: { reuse: false, methods: { writeFile } },
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BuildError);
    expect((error as BuildError).code).toBe(code);
    const lines = formatError(error).split("\n");
    expect(lines).toHaveLength(2);
    // The path as the user named --out, not the temporary folder beside it.
    expect(lines[0]).toMatch(
      new RegExp(
        `^Could not write ${out.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/[^ ]+ \\(open\\): .* \\[${code}\\]\\.$`,
      ),
    );
    expect(lines[0]).not.toMatch(/\.tmp-/);
    expect(lines[1]).toMatch(hint);
    expect((await readdir(root)).sort()).toEqual([".build-index-site", "site"]);
  });

  it("an error making the output's folders (EEXIST from mkdir) names the folder", async () => {
    const mkdir = (async (p: string) => {
      throw osError("EEXIST", "file already exists", "mkdir", p);
    }) as unknown as typeof realMkdir;
    const error = await build({
      content,
      out,
      sourceDateEpoch: TEST_EPOCH,
      hosts: IN_OUT_HOSTS,
      write: { methods: { mkdir } },
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(formatError(error)).toMatch(
      /^Could not write .* \(mkdir\): it already exists \[EEXIST\]\.\n {2}Another program/,
    );
  });

  it("a real ENAMETOOLONG: an --out name longer than the file system allows", async () => {
    const err: string[] = [];
    const code = await main(["node", "bis", "build", "--content", content, "--out", path.join(root, "x".repeat(300))], {
      out: () => {},
      err: (l) => err.push(l),
    });
    expect(code).toBe(1);
    const lines = err.join("\n").split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^Could not write .*x{300}.*: the name or path is too long for the file system \[ENAMETOOLONG\]\.$/,
    );
    expect(lines[1]).toMatch(/Choose a shorter --out path/);
    expect((await readdir(root)).sort()).toEqual([".build-index-site", "site"]);
  });

  it("--json reports the OS code and the hint", async () => {
    const lines: string[] = [];
    const code = await main(
      ["node", "bis", "build", "--json", "--content", content, "--out", path.join(root, "y".repeat(300))],
      { out: (l) => lines.push(l), err: () => {} },
    );
    expect(code).toBe(1);
    expect(JSON.parse(lines.join("\n"))).toMatchObject({
      ok: false,
      errors: [{ code: "ENAMETOOLONG", hint: expect.stringMatching(/shorter/) }],
    });
  });
});

describe("a SOURCE_DATE_EPOCH out of range (or not a number) is a usage error: exit 2, what to do, no stack trace", () => {
  const run = (epoch: string) =>
    spawnSync(
      process.execPath,
      [
        path.join(REPO, "bin/build-index-site.js"),
        "--content",
        content,
        "--out",
        out,
        "--hosts",
        IN_OUT_HOSTS.join(","),
      ],
      { encoding: "utf8", env: { ...process.env, SOURCE_DATE_EPOCH: epoch } },
    );

  it.each(["99999999999999999999", "253402300800", "1e9", "-1", "yesterday"])("SOURCE_DATE_EPOCH=%s", (epoch) => {
    const result = run(epoch);
    expect(result.status).toBe(2);
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^SOURCE_DATE_EPOCH/);
    expect(lines[1]).toMatch(/git log -1 --format=%ct/);
  });

  it("the largest accepted value (end of year 9999) builds", () => {
    const result = spawnSync(
      process.execPath,
      [
        path.join(REPO, "bin/build-index-site.js"),
        "--content",
        content,
        "--out",
        path.join(root, "far"),
        "--hosts",
        IN_OUT_HOSTS.join(","),
      ],
      { encoding: "utf8", env: { ...process.env, SOURCE_DATE_EPOCH: "253402300799" } },
    );
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});

describe("an --out in a folder that takes no new files", () => {
  it.skipIf(process.platform !== "linux")(
    "/proc/self/x is a usage error that names the folder, not a deleted file",
    async () => {
      const err: string[] = [];
      const io = { out: (): void => {}, err: (l: string): void => void err.push(l) };
      const content = await writeBase();
      try {
        const code = await main(
          ["node", "build-index-site", "build", "--content", content, "--out", "/proc/self/x"],
          io,
        );
        expect(code).toBe(2);
        expect(err.join("\n")).toMatch(/^--out \/proc\/self\/x: its folder \/proc\/\d+ takes no new files/);
        expect(err.join("\n")).not.toMatch(/disappeared/);
      } finally {
        await removeDir(content);
      }
    },
  );
});
