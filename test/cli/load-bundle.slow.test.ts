// test/cli/load-bundle.slow.test.ts
// The command's start (src/cli/startup/code-cache.ts): the installed bin keeps V8's code cache for its bundle in the user's
// cache folder (XDG_CACHE_HOME on Linux), uses it, writes it again only when a run compiled much more than it held or
// V8 refused it, and runs as well without one. What the cache did is read from the bin's own timing line and from the
// cache folder's files (their inodes: a file written again is a new one).

import { spawnSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEMO_CONTENT, REPO, tempDirs, TEST_EPOCH } from "../helpers/fixtures.js";

const BIN = path.join(REPO, "bin/build-index-site.js");
const VERSION = (JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string }).version;
const temp = tempDirs();

function run(
  cacheHome: string,
  args: string[],
  options: { node?: string[]; env?: Record<string, string>; bin?: string } = {},
) {
  const r = spawnSync(process.execPath, [...(options.node ?? []), options.bin ?? BIN, ...args], {
    encoding: "utf8",
    env: {
      ...process.env,
      SOURCE_DATE_EPOCH: TEST_EPOCH,
      BUILD_INDEX_SITE_TIMINGS: "1",
      XDG_CACHE_HOME: cacheHome,
      NODE_OPTIONS: "",
      ...options.env,
    },
  });
  const use = /^timing load bundle \(code cache (\w+)\) [\d.]+ rss/m.exec(r.stderr)?.[1];
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, use };
}

/** The cache folder's files: name → inode and size. */
function cached(cacheHome: string): Map<string, { ino: number; size: number; mode: number }> {
  const dir = path.join(cacheHome, "build-index-site", "compile");
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return new Map();
  }
  return new Map(
    names.map((n) => {
      const st = statSync(path.join(dir, n));
      return [n, { ino: st.ino, size: st.size, mode: st.mode & 0o777 }];
    }),
  );
}

describe("the command's code cache", () => {
  it("is made by the first start, used by the next, and written again when a run compiles much more", async () => {
    const home = await temp();
    const first = run(home, ["--version"]);
    expect([first.code, first.stdout.trim(), first.use]).toEqual([0, VERSION, "none"]);
    const made = cached(home);
    expect(made.size).toBe(1);
    const [name, file] = [...made][0]!;
    expect(name).toMatch(
      new RegExp(
        `^[0-9a-f]{8}-[0-9a-f]{8}-${process.version.replace(/\./g, "\\.")}-${process.platform}-${process.arch}-[0-9a-f]{8}\\.cache$`,
      ),
    );
    expect(file.mode).toBe(0o600);
    expect(statSync(path.dirname(path.join(home, "build-index-site", "compile", name))).mode & 0o777).toBe(0o700);

    const again = run(home, ["--version"]);
    expect([again.code, again.stdout.trim(), again.use]).toEqual([0, VERSION, "used"]);
    expect(cached(home)).toEqual(made); // the same file: nothing new was compiled

    // A build compiles the pipeline, which `--version` never did: the cache is written again, larger. This one runs
    // over an earlier build (made without the cache), so it changes one of V8's flags as it starts (src/cli/build.ts):
    // the cache is made under the start's flags again, or the next start would refuse it.
    const out = path.join(await temp(), "dist");
    const earlier = run(home, ["build", "--content", DEMO_CONTENT, "--out", out], {
      env: { NODE_DISABLE_COMPILE_CACHE: "1" },
    });
    expect([earlier.code, earlier.use]).toEqual([0, "off"]);
    expect(cached(home)).toEqual(made);
    const built = run(home, ["build", "--content", DEMO_CONTENT, "--out", out]);
    expect([built.code, built.use]).toEqual([0, "used"]);
    const grown = cached(home).get(name)!;
    expect(grown.ino).not.toBe(file.ino);
    expect(grown.size).toBeGreaterThan(file.size);
    // …and every command after it uses that one.
    const rebuilt = run(home, ["build", "--content", DEMO_CONTENT, "--out", out]);
    expect([rebuilt.code, rebuilt.use]).toEqual([0, "used"]);
    expect(rebuilt.stdout).toMatch(/is up to date/);
    expect(run(home, ["--version"]).use).toBe("used");
    expect(cached(home).get(name)!.ino).toBe(grown.ino);
  });

  it("replaces a cache V8 refuses, and keeps one for each set of Node flags", async () => {
    const home = await temp();
    run(home, ["--version"]);
    const [name] = [...cached(home).keys()];
    const file = path.join(home, "build-index-site", "compile", name!);
    writeFileSync(file, Buffer.alloc(4096, 7)); // not V8's
    const refused = run(home, ["--version"]);
    expect([refused.code, refused.stdout.trim(), refused.use]).toEqual([0, VERSION, "rejected"]);
    expect(readFileSync(file).equals(Buffer.alloc(4096, 7))).toBe(false);
    expect(run(home, ["--version"]).use).toBe("used");

    // Another V8 flag makes V8 refuse a cache made without it: each has its own, and neither refuses the other's.
    const flagged = run(home, ["--version"], { node: ["--max-semi-space-size=32"] });
    expect([flagged.code, flagged.use]).toEqual([0, "none"]);
    expect(cached(home).size).toBe(2);
    expect(run(home, ["--version"], { node: ["--max-semi-space-size=32"] }).use).toBe("used");
    expect(run(home, ["--version"]).use).toBe("used");
  });

  it("removes the caches of an earlier bundle at the same path, and any not written for 30 days, never another file", async () => {
    const home = await temp();
    const dir = path.join(home, "build-index-site", "compile");
    run(home, ["--version"]);
    const [name] = [...cached(home).keys()];
    const [own, , ...rest] = name!.split("-");
    const earlier = [own, "00000000", ...rest].join("-");
    const otherPath = ["0badc0de", "00000000", ...rest].join("-");
    const stale = ["0badf00d", "00000000", ...rest].join("-");
    const notOurs = "notes.txt";
    for (const n of [earlier, otherPath, stale, notOurs]) writeFileSync(path.join(dir, n), "x");
    const old = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000);
    for (const n of [stale, notOurs]) utimesSync(path.join(dir, n), old, old);
    writeFileSync(path.join(dir, name!), "refused"); // so that the next start writes it again
    expect(run(home, ["--version"]).use).toBe("rejected");
    expect([...cached(home).keys()].sort()).toEqual([name, otherPath, notOurs].sort());
  });

  it("is another cache for another release at the same path, though npm gives both bundles the same size and time", async () => {
    // An installed copy of the package (bin/, lib/, package.json; its dependencies found through a link), whose
    // bundle has the time npm gives every file it unpacks. A release whose bundle is as long differs in lib/'s
    // fingerprint alone: V8 would take the other's cache (it checks the source's length, not its text).
    const home = await temp();
    const copy = await temp();
    for (const part of ["bin", "lib", "package.json"])
      cpSync(path.join(REPO, part), path.join(copy, part), { recursive: true });
    symlinkSync(path.join(REPO, "node_modules"), path.join(copy, "node_modules"));
    const bundle = path.join(copy, "lib/cli-bundle/cli.cjs");
    const npmTime = new Date("1985-10-26T08:15:00Z");
    utimesSync(bundle, npmTime, npmTime);
    const bin = path.join(copy, "bin/build-index-site.js");
    const first = run(home, ["--version"], { bin });
    expect([first.code, first.use]).toEqual([0, "none"]);
    expect(run(home, ["--version"], { bin }).use).toBe("used");
    const [was] = [...cached(home).keys()];
    writeFileSync(path.join(copy, "lib/tool-fingerprint.txt"), "another-release\n");
    utimesSync(bundle, npmTime, npmTime);
    const next = run(home, ["--version"], { bin });
    expect([next.code, next.use]).toEqual([0, "none"]);
    const now = [...cached(home).keys()];
    expect(now).toHaveLength(1); // the other release's, at this path, removed
    expect(now[0]).not.toBe(was);
    expect(now[0]!.split("-")[0]).toBe(was!.split("-")[0]);
  });

  it("is only a cache: a folder that cannot be made, or NODE_DISABLE_COMPILE_CACHE=1, changes nothing but the time", async () => {
    const home = await temp();
    // The cache's folder would be below a file: it cannot be made, and the command runs as it would with one.
    const blocked = path.join(home, "a-file");
    writeFileSync(blocked, "");
    for (let i = 0; i < 2; i++) {
      const r = run(blocked, ["--version"]);
      expect([r.code, r.stdout.trim(), r.use]).toEqual([0, VERSION, "none"]);
    }
    const off = run(home, ["--version"], { env: { NODE_DISABLE_COMPILE_CACHE: "1" } });
    expect([off.code, off.stdout.trim(), off.use]).toEqual([0, VERSION, "off"]);
    expect(cached(home).size).toBe(0);
    // A relative XDG_CACHE_HOME is ignored (the XDG spec): nothing is made in the folder the command runs in.
    const cwd = await temp();
    const relative = spawnSync(process.execPath, [BIN, "--version"], {
      cwd,
      encoding: "utf8",
      env: { ...process.env, BUILD_INDEX_SITE_TIMINGS: "1", XDG_CACHE_HOME: "cache", NODE_OPTIONS: "" },
    });
    expect([relative.status, relative.stdout.trim()]).toEqual([0, VERSION]);
    expect(relative.stderr).toMatch(/code cache off/);
    expect(readdirSync(cwd)).toEqual([]);
    // A command that fails fails the same way with the cache.
    const bad = run(home, ["build", "--no-such-flag"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--no-such-flag/);
  });
});
