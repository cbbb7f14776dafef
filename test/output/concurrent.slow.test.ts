// test/output/concurrent.slow.test.ts
// Issue 8 points 3 and 4, with the real command:
// - Leftovers: a SIGKILLed build left `.dist.tmp-*` and `.dist.old-*` behind and later builds never removed them
//   (18 after 33 kills, 1 GB). Now the next build removes the temporary folders whose name carries the pid of a
//   process that is gone, and only those.
// - Two builds into one --out could fail with ENOTEMPTY and leak a full copy. Now the first takes a lock beside
//   --out and the second exits 2 with a message naming it; a lock whose process is gone is taken over.

import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readlinkSync } from "node:fs";
import { mkdir, readdir, readFile, stat, utimes, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { UsageError } from "../../src/errors.js";
import { acquireLock } from "../../src/output/claim/lock.js";
import { claimOutput } from "../../src/output/claim/claim.js";
import { writeOutput } from "../../src/output/write/full.js";
import { removeDir, REPO, IN_OUT_HOSTS, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { PNG, writeBase } from "../helpers/base-content.js";

const BIN = path.join(REPO, "bin/build-index-site.js");
const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

/** A content folder with a few thousand icons, so that a build takes long enough to be killed or overlapped. */
let big: string;
beforeAll(async () => {
  if (!existsSync(path.join(REPO, "lib/cli.js")))
    throw new Error("lib/ is missing: run `npm run build` first (npm test does).");
  big = await writeBase();
  temps.push(big);
  await Promise.all(Array.from({ length: 3000 }, (_, i) => writeFile(path.join(big, "icons", `icon-${i}.png`), PNG)));
});

interface Run {
  child: ReturnType<typeof spawn>;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

function start(out: string, ...extra: string[]): Run {
  const child = spawn(
    process.execPath,
    [BIN, "build", "--content", big, "--out", out, "--hosts", IN_OUT_HOSTS.join(","), ...extra],
    { env: { ...process.env, SOURCE_DATE_EPOCH: TEST_EPOCH }, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  return {
    child,
    done: new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal, stderr }))),
  };
}

async function waitFor(what: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 5000 && !(await what()); i++) await new Promise((r) => setTimeout(r, 2));
  expect(await what()).toBe(true);
}

/** Names of every file under a folder with a hash of its bytes. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile())
      out[path.relative(dir, path.join(e.parentPath, e.name))] = createHash("sha1")
        .update(await readFile(path.join(e.parentPath, e.name)))
        .digest("hex");
  }
  return out;
}

/** The pid of a process that has exited (so that nothing runs under it now, barring reuse within the test). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.on("close", resolve));
  return child.pid!;
}

describe("leftovers: a SIGKILLed build's temporary folders are removed by the next build", () => {
  it("kills a real build twice while it writes; each next build removes the gone builds' numbered folders, and only those", async () => {
    const root = await tmpDir("bis-leftovers-");
    temps.push(root);
    const out = path.join(root, "site");
    expect((await start(out).done).code).toBe(0);
    const built = await snapshot(out);

    // Names this tool never makes: kept. (The unnumbered `.tmp-XXXXXX` is what versions before the lock made.)
    const keep = [".site.tmp-Ab12Cd", ".site.notes", ".site.tmp-12-abcdef.bak"];
    await mkdir(path.join(root, keep[0]!));
    await writeFile(path.join(root, keep[1]!), "mine\n");
    await mkdir(path.join(root, keep[2]!));
    // Numbered folders of builds that are gone: one of a pid no process has, one whose pid is alive but is no build
    // of this folder (this test; in another container a pid means nothing): the lock proves no build owns them.
    const gone = [`.site.old-${await deadPid()}-XyZ123`, `.site.tmp-${process.pid}-abcdef`];
    for (const name of gone) await mkdir(path.join(root, name, "site"), { recursive: true });

    for (let kill = 0; kill < 2; kill++) {
      const run = start(out, "--force");
      const ours = (n: string): boolean => n.startsWith(`.site.tmp-${run.child.pid}-`);
      await waitFor(async () => (await readdir(root)).some(ours));
      run.child.kill("SIGKILL");
      expect((await run.done).signal).toBe("SIGKILL");
      const left = await readdir(root);
      // The killed build's folder and lock are there; the earlier killed build's folder was removed by this one.
      expect(left.filter((n) => /^\.site\.(tmp|old)-\d+-[A-Za-z0-9]{6}$/.test(n))).toEqual([left.find(ours)]);
      expect(left).toContain(".site.lock");
      expect(await snapshot(out)).toEqual(built);
    }

    // Nothing changed since the build: the next build is up to date, and still cleans up first.
    const next = await start(out).done;
    expect(next.code).toBe(0);
    expect((await readdir(root)).sort()).toEqual([...keep, ".build-index-site", "site"].sort());
    expect(await snapshot(out)).toEqual(built);
  });
});

describe("two builds into one --out", () => {
  it("a build exits 2 while another holds the lock, naming it, and touches nothing; it runs once the lock is released", async () => {
    const root = await tmpDir("bis-lock-");
    temps.push(root);
    const out = path.join(root, "site");
    expect((await start(out).done).code).toBe(0);
    const built = await snapshot(out);
    const claim = await claimOutput(out);
    try {
      const second = await start(out, "--force").done;
      expect(second.code).toBe(2);
      expect(second.stderr).toMatch(
        new RegExp(
          `^--out .*site is being written by another build \\(pid ${process.pid}, since [^)]+\\): two builds into one folder would mix their files\\.\\n {2}Wait for that build to finish`,
        ),
      );
      expect(second.stderr).not.toMatch(/\n\s+at /);
      expect(await snapshot(out)).toEqual(built);
      expect((await readdir(root)).sort()).toEqual([".build-index-site", ".site.lock", "site"]);
    } finally {
      await claim.release();
    }
    expect((await start(out, "--force").done).code).toBe(0);
    expect((await readdir(root)).sort()).toEqual([".build-index-site", "site"]);
  });

  it("two real builds started together: one builds, the other exits 2 (or runs after it); no leak, no mixed output", async () => {
    const root = await tmpDir("bis-lock-");
    temps.push(root);
    const out = path.join(root, "site");
    expect((await start(out).done).code).toBe(0);
    const built = await snapshot(out);
    const results = await Promise.all([start(out, "--force").done, start(out, "--force").done]);
    const codes = results.map((r) => r.code).sort();
    expect([
      [0, 0],
      [0, 2],
    ]).toContainEqual(codes);
    for (const r of results) if (r.code === 2) expect(r.stderr).toMatch(/is being written by another build \(pid \d+/);
    expect((await readdir(root)).sort()).toEqual([".build-index-site", "site"]);
    expect(await snapshot(out)).toEqual(built);
  });

  it("in one process: the second writer of a folder is refused while the first writes", async () => {
    const root = await tmpDir("bis-lock-");
    temps.push(root);
    const out = path.join(root, "site");
    const files = Array.from({ length: 200 }, (_, i) => ({ path: `f/${i}.json`, data: `${i}\n` }));
    // The first writer is held at its first file until the second has tried: "while the first writes" by design, not
    // by the machine's timing (a loaded machine once let the first finish, and release the lock, before the second
    // asked for it).
    let writing!: () => void;
    const started = new Promise<void>((resolve) => (writing = resolve));
    let resume!: () => void;
    const held = new Promise<void>((resolve) => (resume = resolve));
    const first = writeOutput(out, files, {
      onFile: () => {
        writing();
        return held;
      },
    });
    await started;
    const second = writeOutput(out, files);
    await second.catch(() => {});
    resume();
    const results = await Promise.allSettled([first, second]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const failure = results.find((r): r is PromiseRejectedResult => r.status === "rejected")!.reason as Error;
    expect(failure).toBeInstanceOf(UsageError);
    expect(failure.message).toMatch(/is being written by another build/);
    expect(await readdir(root)).toEqual(["site"]); // writeOutput alone writes one folder, its marker inside
  });

  it("a lock left by a process that is gone is taken over; a live one is not", async () => {
    const root = await tmpDir("bis-lock-");
    temps.push(root);
    const out = path.join(root, "site");
    const lock = path.join(root, ".site.lock");
    const lockText = (pid: number, host: string, pidns: string) =>
      `build-index-site lock 1\npid ${pid}\nhost ${host}\npidns ${pidns}\nstart -\nsince 2024-01-01T00:00:00.000Z\n`;
    const pidns = readlinkSync("/proc/self/ns/pid");
    // This host and pid namespace, a pid that is gone: taken over at once.
    await writeFile(lock, lockText(await deadPid(), hostname(), pidns));
    expect((await start(out).done).code).toBe(0);
    expect((await readdir(root)).sort()).toEqual([".build-index-site", "site"]);

    // Another container or host (its pid cannot be checked here): live while its heartbeat is recent.
    await writeFile(lock, lockText(1, "other-container", "pid:[1]"));
    const busy = await start(out, "--force").done;
    expect(busy.code).toBe(2);
    expect(busy.stderr).toMatch(/being written by another build \(pid 1 on other-container/);
    const minuteAgo = new Date(Date.now() - 60_000);
    await utimes(lock, minuteAgo, minuteAgo);
    expect((await start(out, "--force").done).code).toBe(0);
    expect((await readdir(root)).sort()).toEqual([".build-index-site", "site"]);

    // A lock of a live process here is not taken over (this test's own, through the API).
    const held = await acquireLock(out, "site");
    await expect(acquireLock(out, "site")).rejects.toBeInstanceOf(UsageError);
    await held.release();
    expect((await readdir(root)).sort()).toEqual([".build-index-site", "site"]);
  });

  it("a held lock is touched every 5 s (the heartbeat other containers judge it by), and no longer once released", async () => {
    const root = await tmpDir("bis-lock-");
    temps.push(root);
    const file = path.join(root, ".site.lock");
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      const held = await acquireLock(path.join(root, "site"), "site");
      const old = new Date(Date.now() - 60_000);
      await utimes(file, old, old);
      vi.advanceTimersByTime(5_000);
      await waitFor(async () => Date.now() - (await stat(file)).mtimeMs < 10_000);
      await held.release();
      expect(await readdir(root)).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});
