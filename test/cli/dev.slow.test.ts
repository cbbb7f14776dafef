// test/cli/dev.slow.test.ts
// Issue 10 point 3: `dev` builds, serves, and after a change in the content the same listener answers from the new
// build; a content error is shown and the loop keeps running; one log line per request unless --quiet.

import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { cp, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { dev, type DevFlags } from "../../src/cli.js";
import { DEV_CHILD_ENV, respawnArgs } from "../../src/cli/startup/dev-child.js";
import { squarePng } from "../../src/init/png.js";
import { DEMO_CONTENT, removeDir, REPO, tmpDir } from "../helpers/fixtures.js";
import { captureIo } from "./run.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const configVersion = async (url: string): Promise<string> =>
  ((await (await fetch(`${url}api.php?action=config`)).json()) as { config: { version: string } }).config.version;

async function devLoop(
  flags: Partial<DevFlags>,
  prepare: (content: string, out: string) => Promise<void> = async () => {},
) {
  const root = await tmpDir("bis-dev-");
  temps.push(root);
  const content = path.join(root, "content");
  await cp(DEMO_CONTENT, content, { recursive: true });
  await prepare(content, path.join(root, "dist"));
  const io = captureIo();
  const stop = new AbortController();
  let ready: (url: string) => void = () => {};
  const url = new Promise<string>((resolve) => {
    ready = resolve;
  });
  const done = dev(
    io,
    { content, out: path.join(root, "dist"), port: 0, host: "127.0.0.1", ...flags },
    { stop: stop.signal, onReady: ready },
  );
  return {
    content,
    io,
    url: await url,
    stop: async () => {
      stop.abort();
      return done;
    },
  };
}

/** The icon file findIcon answers for an extension: the route table decides whether it has a rule of its own. */
const iconFor = async (url: string, ext: string): Promise<string> =>
  ((await (await fetch(`${url}api.php?action=findIcon&extension=${ext}`)).json()) as { icon: { filename: string } })
    .icon.filename;

/** The icon's size, or undefined while the site has no such icon (404). */
const iconSize = async (url: string, name: string): Promise<number | undefined> =>
  ((await (await fetch(`${url}api.php?action=icon&name=${name}`)).json()) as { icon?: { size: number } }).icon?.size;

async function mapIcon(content: string, ext: string, icon: string): Promise<void> {
  const file = path.join(content, "icons.json");
  const icons = JSON.parse(await readFile(file, "utf8")) as Record<string, string>;
  icons[ext] = icon;
  await writeFile(file, JSON.stringify(icons, null, 2));
}

async function setConfigVersion(content: string, version: string): Promise<void> {
  const file = path.join(content, "config.json");
  const config = JSON.parse(await readFile(file, "utf8")) as { version: string };
  config.version = version;
  await writeFile(file, JSON.stringify(config, null, 2));
}

describe.each([
  ["file system events", false],
  ["polling", true],
])("dev (%s)", (_name, poll) => {
  it("answers from the new build after a change, keeps running through a content error, logs each request", async () => {
    const loop = await devLoop({ poll });
    try {
      expect(await configVersion(loop.url)).toBe("1.2.0");
      expect(await iconFor(loop.url, "zzz")).toBe("text.png");
      // A new key is a new route rule: only a reloaded table routes it (an answer file rewritten in place would not).
      await mapIcon(loop.content, "zzz", "php.png");
      await until("the new rule", async () => ((await iconFor(loop.url, "zzz")) === "php.png" ? true : undefined));
      await setConfigVersion(loop.content, "9.9.9");
      await until("the rebuilt answer", async () => ((await configVersion(loop.url)) === "9.9.9" ? true : undefined));

      await writeFile(path.join(loop.content, "icons.json"), "{ broken");
      await until("the content error", async () =>
        loop.io.stderr.some((l) => /icons\.json:1:\d+: error/.test(l)) ? true : undefined,
      );
      expect(await configVersion(loop.url)).toBe("9.9.9"); // the last good build is still served

      await cp(path.join(DEMO_CONTENT, "icons.json"), path.join(loop.content, "icons.json"));
      await mapIcon(loop.content, "zzz", "php.png");
      await setConfigVersion(loop.content, "10.0");
      await until("the answer after the fix", async () =>
        (await configVersion(loop.url)) === "10.0" ? true : undefined,
      );
      expect(await iconFor(loop.url, "zzz")).toBe("php.png");
      expect(
        loop.io.stdout.filter((l) => /^GET \/api\.php\?action=config 200 \d+\.\d ms$/.test(l)).length,
      ).toBeGreaterThanOrEqual(4);
      // An icon's new bytes are read again (dev keeps the content's bytes in memory between builds), and each rebuild
      // is an in-place update that says what changed.
      const png = squarePng(33, [9, 9, 9, 255]);
      await writeFile(path.join(loop.content, "icons/php.png"), png);
      await until("the new icon's size", async () =>
        (await iconSize(loop.url, "php.png")) === png.length ? true : undefined,
      );
      // An icon added after builds that kept icons/'s listing (only icons.json and config.json changed): found.
      const added = squarePng(21, [1, 2, 3, 255]);
      await writeFile(path.join(loop.content, "icons/added.png"), added);
      await until("the added icon", async () =>
        (await iconSize(loop.url, "added.png")) === added.length ? true : undefined,
      );
      expect(
        loop.io.stdout.some((l) => /^Updated .* in place: \d+ answers?, .*\d+ files? written, \d+ removed in /.test(l)),
      ).toBe(true);
    } finally {
      expect(await loop.stop()).toBe(0);
    }
  }, 60_000);
});

describe("dev --quiet", () => {
  it("logs no request", async () => {
    const loop = await devLoop({ quiet: true });
    try {
      expect(await configVersion(loop.url)).toBe("1.2.0");
      expect(loop.io.stdout.filter((l) => l.startsWith("GET "))).toEqual([]);
    } finally {
      await loop.stop();
    }
  });
});

describe("dev started with content that does not build (issue 27 defect 8: it said it served, and nothing listened)", () => {
  it("with an earlier build in --out, serves it and says so", async () => {
    const loop = await devLoop({}, async (content, out) => {
      await build({ content, out });
      await writeFile(path.join(content, "icons.json"), "{ broken");
    });
    try {
      expect(await configVersion(loop.url)).toBe("1.2.0");
      expect(loop.io.stderr.join("\n")).toMatch(/the preview serves the previous build in .*dist\/\./);
    } finally {
      expect(await loop.stop()).toBe(0);
    }
  }, 60_000);

  it("without one, serves a page listing the errors (503 for /api.php), then the site once the content is fixed", async () => {
    const loop = await devLoop({}, async (content) => {
      await writeFile(path.join(content, "icons.json"), "{ broken");
    });
    try {
      const page = await fetch(loop.url);
      expect(page.status).toBe(503);
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(await page.text()).toMatch(/icons\.json:1:\d+/);
      const api = await fetch(`${loop.url}api.php?action=config`);
      expect(api.status).toBe(503);
      expect(((await api.json()) as { success: boolean }).success).toBe(false);
      expect(loop.io.stderr.join("\n")).toMatch(/the preview serves a page that lists the content errors/);

      await cp(path.join(DEMO_CONTENT, "icons.json"), path.join(loop.content, "icons.json"));
      await until("the site after the fix", async () =>
        (await fetch(`${loop.url}api.php?action=config`)).status === 200 ? true : undefined,
      );
      expect(await configVersion(loop.url)).toBe("1.2.0");
      expect(loop.io.stdout.join("\n")).toMatch(
        /The content builds: the preview serves .*dist\/ \(as (netlify|apache|nginx|vercel|cloudflare): /,
      );
    } finally {
      expect(await loop.stop()).toBe(0);
    }
  }, 60_000);
});

describe("dev started on an up-to-date build", () => {
  /** Every file the build wrote beside the content (the records' own bookkeeping aside): inode and modification time. */
  const stamps = (root: string): Map<string, string> => {
    const found = new Map<string, string>();
    for (const top of ["dist", ".netlify", ".vercel", ".wrangler", ".build-index-site/dist"]) {
      if (!existsSync(path.join(root, top))) continue;
      for (const e of readdirSync(path.join(root, top), { recursive: true, withFileTypes: true })) {
        if (!e.isFile()) continue;
        const file = path.join(e.parentPath, e.name);
        const st = statSync(file);
        found.set(path.relative(root, file), `${st.ino} ${st.mtimeMs}`);
      }
    }
    return found;
  };

  it("fills its memory with an update in place that writes nothing, says when it is ready, and the first edit is in place", async () => {
    let root = "";
    let before = new Map<string, string>();
    const loop = await devLoop({}, async (content, out) => {
      await build({ content, out });
      root = path.dirname(out);
      before = stamps(root);
    });
    try {
      const ready = await until("the ready line", async () =>
        loop.io.stdout.find((l) => l.startsWith("Ready for edits: the site is held in memory (")),
      );
      expect(loop.io.stdout.indexOf(ready)).toBeGreaterThan(loop.io.stdout.findIndex((l) => /is up to date/.test(l)));
      expect(before.size).toBeGreaterThan(20);
      expect(stamps(root)).toEqual(before);
      expect(loop.io.stdout.filter((l) => /^(Updated|Built) /.test(l))).toEqual([]);
      await mapIcon(loop.content, "zzz", "php.png");
      await until("the edit", async () => ((await iconFor(loop.url, "zzz")) === "php.png" ? true : undefined));
      expect(loop.io.stdout.filter((l) => /^(Updated|Built) /.test(l))).toEqual([
        expect.stringMatching(/^Updated .* in place: /),
      ]);
    } finally {
      expect(await loop.stop()).toBe(0);
    }
  }, 60_000);

  it("says it is ready after a first build in place too, with no build after it", async () => {
    const loop = await devLoop({}, async (content, out) => {
      await build({ content, out });
      await mapIcon(content, "zzz", "php.png");
    });
    try {
      await until("the ready line", async () =>
        loop.io.stdout.find((l) => /^Ready for edits: the site is held in memory \(.* after start\)\.$/.test(l)),
      );
      expect(loop.io.stdout.filter((l) => /^(Updated|Built) /.test(l))).toEqual([
        expect.stringMatching(/^Updated .* in place: /),
      ]);
      expect(await iconFor(loop.url, "zzz")).toBe("php.png");
    } finally {
      expect(await loop.stop()).toBe(0);
    }
  }, 60_000);
});

describe("dev and editors that save by renaming a new file over the old one", () => {
  // Node 20's recursive fs.watch on Linux follows a file by its inode: as a command, dev saw the first such save (or
  // two) and then no other, and went on serving the old answers. Run as the installed command runs (lib/ is built).
  it("rebuilds after every save, not only the first", async () => {
    const root = await tmpDir("bis-dev-rename-");
    temps.push(root);
    const content = path.join(root, "content");
    await cp(DEMO_CONTENT, content, { recursive: true });
    const child = spawn(
      process.execPath,
      [
        path.join(REPO, "bin/build-index-site.js"),
        "dev",
        "--content",
        content,
        "--out",
        path.join(root, "dist"),
        "--port",
        "0",
        "--quiet",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    try {
      const url = await until("the preview", async () => /^Preview: (http:\/\/\S+\/)/m.exec(out)?.[1]);
      for (const icon of ["php.png", "folder.png", "php.png", "folder.png"]) {
        const file = path.join(content, "icons.json");
        const icons = JSON.parse(await readFile(file, "utf8")) as Record<string, string>;
        icons.zzz = icon;
        await writeFile(`${file}.new`, JSON.stringify(icons, null, 2));
        await rename(`${file}.new`, file);
        await until(`zzz → ${icon}`, async () => ((await iconFor(url, "zzz")) === icon ? true : undefined));
      }
    } finally {
      const exited = new Promise((done) => (child.exitCode !== null ? done(null) : child.once("exit", done)));
      child.kill("SIGTERM");
      await exited;
    }
  }, 90_000);
});

describe("dev in a child process with a larger young generation (src/cli/startup/dev-child.ts)", () => {
  it("is asked for by `dev` alone, once, and never over the user's own Node flags", () => {
    const argv = (...args: string[]): string[] => ["/usr/bin/node", "/x/bin/build-index-site.js", ...args];
    expect(respawnArgs(argv("dev", "--port", "0"), [], {})).toEqual([
      "--max-semi-space-size=64",
      "/x/bin/build-index-site.js",
      "dev",
      "--port",
      "0",
    ]);
    expect(respawnArgs(argv("dev"), ["--no-warnings"], {})).toEqual([
      "--no-warnings",
      "--max-semi-space-size=64",
      "/x/bin/build-index-site.js",
      "dev",
    ]);
    for (const other of [argv("build"), argv(), argv("preview"), argv("--", "dev")])
      expect(respawnArgs(other, [], {})).toBeNull();
    expect(respawnArgs(argv("dev"), [], { [DEV_CHILD_ENV]: "1" })).toBeNull();
    expect(respawnArgs(argv("dev"), ["--inspect=9229"], {})).toBeNull();
    expect(respawnArgs(argv("dev"), ["--max-semi-space-size=8"], {})).toBeNull();
    expect(respawnArgs(argv("dev"), [], { NODE_OPTIONS: "--max_semi_space_size=8" })).toBeNull();
    expect(respawnArgs(argv("dev"), [], { NODE_OPTIONS: "--inspect-brk" })).toBeNull();
  });

  // The installed command: its process waits for the child that runs dev, which has the flag; a signal to the command
  // alone (a supervisor's) or to its whole process group (a terminal's Ctrl-C reaches both) stops dev with the exit
  // code of that signal, and leaves no process behind.
  const children = (pid: number): number[] =>
    readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  for (const [signal, group, code] of [
    ["SIGTERM", false, 143],
    ["SIGINT", false, 130],
    ["SIGINT", true, 130],
  ] as const) {
    it(`exits ${code} on ${signal} sent to ${group ? "its process group" : "the command alone"}, with no process left`, async () => {
      if (!existsSync("/proc/self/task")) throw new Error("this test reads /proc (Linux)");
      const root = await tmpDir("bis-dev-child-");
      temps.push(root);
      const content = path.join(root, "content");
      await cp(DEMO_CONTENT, content, { recursive: true });
      const command = spawn(
        process.execPath,
        [
          path.join(REPO, "bin/build-index-site.js"),
          "dev",
          "--content",
          content,
          "--out",
          path.join(root, "dist"),
          "--port",
          "0",
          "--quiet",
        ],
        { stdio: ["ignore", "pipe", "pipe"], detached: true },
      );
      let out = "";
      command.stdout.on("data", (d: Buffer) => (out += d.toString()));
      command.stderr.on("data", (d: Buffer) => (out += d.toString()));
      const exited = new Promise<number | null>((done) => command.once("exit", (c) => done(c)));
      try {
        const url = await until("the preview", async () => /^Preview: (http:\/\/\S+\/)/m.exec(out)?.[1]);
        expect(await configVersion(url)).toBeTruthy();
        const [child] = children(command.pid!);
        expect(child, "the command's child").toBeDefined();
        expect(readFileSync(`/proc/${child}/cmdline`, "utf8").split("\0")).toContain("--max-semi-space-size=64");
        expect(children(child!), "dev runs in the child itself").toEqual([]);
        if (group) process.kill(-command.pid!, signal);
        else command.kill(signal);
        expect(await exited, out).toBe(code);
        expect(existsSync(`/proc/${child}`), "the child is gone").toBe(false);
        expect(out).not.toMatch(/Error|at .*\.js:\d+/);
      } finally {
        if (command.exitCode === null) process.kill(-command.pid!, "SIGKILL");
      }
    }, 60_000);
  }
});
