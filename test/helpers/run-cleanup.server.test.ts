// test/helpers/run-cleanup.server.test.ts
// Ctrl-C on a run stops every server it started and removes its temporary folder (test/helpers/run-cleanup.ts): a
// real vitest run of test/helpers/interrupt (nginx, Apache, a detached server, a plain child) is interrupted, then
// no process it started is left and its folder is gone.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { REPO, tempDirs } from "./fixtures.js";
import { descendants } from "./run-cleanup.js";
import { spawnServer, stopServer } from "./processes.js";

const VITEST = path.join(REPO, "test", "node_modules", "vitest", "vitest.mjs");
const CONFIG = path.join(REPO, "test", "helpers", "interrupt", "vitest.config.ts");
const tmp = tempDirs("bis-interrupt-");

interface Report {
  urls: string[];
  pids: number[];
  site: string;
  tmp: string;
}

/** Alive and not a zombie waiting for its parent. */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

async function until<T>(what: string, probe: () => T | undefined, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts the interrupted suite in a process group of its own, as a terminal would, and waits for its servers. */
async function startSuite(dir: string) {
  const reportFile = path.join(dir, "report.json");
  const child = spawnServer(process.execPath, [VITEST, "run", "--config", CONFIG], {
    cwd: REPO,
    env: { ...process.env, TMPDIR: dir, BIS_INTERRUPT_REPORT: reportFile, NO_COLOR: "1" },
  });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const report = await until(
    "the suite's servers starting",
    () => (existsSync(reportFile) ? (JSON.parse(readFileSync(reportFile, "utf8")) as Report) : undefined),
    60_000,
  ).catch(async (error: Error) => {
    await stopServer(child);
    throw new Error(`${error.message}:\n${output}`);
  });
  return { child, report, exited, started: descendants(child.pid!), output: () => output };
}

describe("Ctrl-C on a test run", () => {
  test.each([
    ["SIGINT to the whole process group (Ctrl-C in a terminal)", true, "SIGINT"],
    ["SIGINT to vitest alone (a tool stopping it)", false, "SIGINT"],
    ["SIGTERM to vitest alone", false, "SIGTERM"],
  ] as const)("%s: no process it started is left, and its folder is gone", async (_, group, signal) => {
    const dir = await tmp();
    const { child, report, exited, started, output } = await startSuite(dir);
    // Listening (the answer itself does not matter: a worker may not read a folder made by mkdtemp).
    for (const url of report.urls) expect((await fetch(url)).status).toBeGreaterThan(0);
    expect(started.length).toBeGreaterThan(report.urls.length + 2);
    expect(report.tmp.startsWith(dir)).toBe(true);

    process.kill(group ? -child.pid! : child.pid!, signal);
    await until(
      "the run ending",
      () => (child.exitCode !== null || child.signalCode !== null ? true : undefined),
      30_000,
    );
    await exited;

    const left = await until(
      "every process stopping",
      () => {
        const alive = started.filter(running);
        return alive.length === 0 ? alive : undefined;
      },
      10_000,
    ).catch(() => started.filter(running));
    expect(left, output()).toEqual([]);
    for (const url of report.urls) await expect(fetch(url)).rejects.toThrow();
    expect(existsSync(report.tmp)).toBe(false);
    expect(readdirSync(dir)).toEqual(["report.json"]);
  });
});
