// test/cli/conventions.test.ts
// Issue 10 point 2 and issue 8's --debug / check --hosts: --version, unknown commands and host names with "did you
// mean", the default command never swallowing a typo, an empty --hosts refused, stack traces only with --debug.

import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatError, UsageError } from "../../src/errors.js";
import { DEMO_CONTENT, REPO, removeDir, tmpDir } from "../helpers/fixtures.js";
import { cli, STACK_LINE } from "./run.js";
import { layoutOf } from "../../src/layout/paths.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));
const temp = async (): Promise<string> => {
  const dir = await tmpDir();
  temps.push(dir);
  return dir;
};

const packageVersion = (JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string })
  .version;

describe("CLI conventions", () => {
  it("--version and -V print the package version and exit 0", async () => {
    for (const flag of ["--version", "-V"]) {
      const r = await cli(flag);
      expect(r).toMatchObject({ code: 0, stdout: packageVersion });
    }
  });

  it("a typo of a command is an unknown command with did-you-mean and exit 2, not too many arguments for build", async () => {
    const r = await cli("chek");
    expect(r.code).toBe(2);
    expect(r.stderr.split("\n")[0]).toBe("error: unknown command 'chek' (did you mean check?)");
    expect(r.stderr).not.toMatch(/too many arguments/);
    expect((await cli("preveiw", "--port", "0")).stderr).toMatch(
      /^error: unknown command 'preveiw' \(did you mean preview\?\)/,
    );
    // Nothing close: no suggestion, still exit 2.
    const far = await cli("deploy-everything");
    expect(far.code).toBe(2);
    expect(far.stderr).toMatch(/^error: unknown command 'deploy-everything'\n/);
  });

  it("with no command, options still go to build (the default command)", async () => {
    const out = path.join(await temp(), "site");
    const r = await cli("--content", DEMO_CONTENT, "--out", out, "--quiet");
    expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(readFileSync(layoutOf(out).routes, "utf8")).toMatch(/"rules"/);
  });

  it("a typo in --hosts gets did-you-mean and exit 2, for build and check", async () => {
    const out = path.join(await temp(), "site");
    for (const args of [
      ["build", "--content", DEMO_CONTENT, "--out", out],
      ["check", "--content", DEMO_CONTENT],
    ]) {
      const r = await cli(...args, "--hosts", "netlify,ngnix");
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^Unknown host 'ngnix' in --hosts \(did you mean nginx\?\)\./);
    }
  });

  it('--hosts "" is an error, not every host', async () => {
    const out = path.join(await temp(), "site");
    const r = await cli("build", "--content", DEMO_CONTENT, "--out", out, "--hosts", "");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^--hosts is empty/);
    expect((await cli("check", "--content", DEMO_CONTENT, "--hosts", " , ")).code).toBe(2);
  });

  it("check takes --hosts and computes only those hosts' files", async () => {
    const all = await cli("check", "--content", DEMO_CONTENT);
    const one = await cli("check", "--content", DEMO_CONTENT, "--hosts", "vercel");
    expect(all.code).toBe(0);
    expect(one.code).toBe(0);
    const files = (text: string): number => Number(/, (\d+) files would be written/.exec(text)![1]);
    expect(files(one.stdout)).toBeLessThan(files(all.stdout));
  });

  it("an internal error prints its message and a hint, and the stack trace only with --debug", () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'x')");
    const plain = formatError(bug);
    expect(plain).toMatch(/^Internal error: Cannot read properties of undefined/);
    expect(plain).toMatch(/--debug/);
    expect(plain).not.toMatch(STACK_LINE);
    expect(formatError(bug, { debug: true })).toMatch(STACK_LINE);
  });

  it("an operating system error is one line with its path and what to do, no stack trace", () => {
    const error = Object.assign(new Error("EACCES: permission denied, mkdir '/root/x'"), {
      code: "EACCES",
      syscall: "mkdir",
      path: "/root/x",
    });
    const text = formatError(error);
    expect(text).toBe(
      "EACCES: permission denied, mkdir '/root/x'\n  Make that folder writable for this user (owner and permissions), or choose another --out.",
    );
    expect(formatError(new UsageError("bad", "fix it"))).toBe("bad\n  fix it");
  });

  it("preview --host with an address this machine does not have is one line and exit 2", async () => {
    const out = path.join(await temp(), "site");
    expect((await cli("build", "--content", DEMO_CONTENT, "--out", out, "-q")).code).toBe(0);
    const r = await cli("preview", "--dir", out, "--port", "0", "--host", "192.0.2.1");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^Cannot listen on 192\.0\.2\.1 port 0: 192\.0\.2\.1 is not an address of this machine\.\n  Pass --host 127\.0\.0\.1/,
    );
    expect(r.stderr).not.toMatch(STACK_LINE);
  });

  it("--debug is accepted anywhere and changes nothing for user mistakes", async () => {
    const r = await cli("build", "--debug", "--hosts", "netlfy");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/did you mean netlify\?/);
    expect(r.stderr).not.toMatch(STACK_LINE);
  });
});

describe("a build's warnings", () => {
  it("are summarised by code when there are many, and listed in full with --verbose", async () => {
    const { cp, readFile, writeFile } = await import("node:fs/promises");
    const content = await temp();
    await cp(DEMO_CONTENT, content, { recursive: true });
    const iconsFile = path.join(content, "icons.json");
    const icons = JSON.parse(await readFile(iconsFile, "utf8")) as Record<string, string>;
    for (let i = 0; i < 20; i++) icons[`x${i}`] = `missing-${i}.png`; // 20 ICON_MISSING warnings
    await writeFile(iconsFile, JSON.stringify(icons, null, 2));
    const out = path.join(await temp(), "site");
    const short = await cli("build", "--content", content, "--out", out);
    expect(short.code).toBe(0);
    expect(short.stderr.split("\n").filter((l) => l.includes("[ICON_MISSING]") && l.includes("warning:"))).toHaveLength(
      3,
    );
    expect(short.stderr).toMatch(/… and 17 more warnings \[ICON_MISSING\]/);
    expect(short.stderr.split("\n").at(-1)).toMatch(/^\d+ warnings: .*ICON_MISSING 20/);
    const verbose = await cli("build", "--content", content, "--out", out, "--verbose", "--force");
    expect(
      verbose.stderr.split("\n").filter((l) => l.includes("[ICON_MISSING]") && l.includes("warning:")),
    ).toHaveLength(20);
  });
});
