// test/cli/help-and-log.test.ts
// Issue 55 point 8: the help says what each command does with --out (check writes nothing; a build updates in place,
// it is not "replaced atomically"), shows every default one way, and gives -q one meaning in dev and preview; the
// request log of preview and dev lists a client's requests, not the edge handler's own reads of /_edge-data/.

import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { logRequests } from "../../src/cli/watch.js";
import { startPreview } from "../../src/preview/server.js";
import { DEMO_CONTENT, removeDir, tmpDir } from "../helpers/fixtures.js";
import { cli } from "./run.js";

const COMMANDS = ["build", "check", "preview", "dev", "init", "verify", "diff"] as const;
const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

/** A command's help as one line per option (commander wraps long texts onto the next lines). */
async function options(command: string): Promise<Map<string, string>> {
  const r = await cli(command, "--help");
  expect(r.code).toBe(0);
  const found = new Map<string, string>();
  let last = "";
  for (const line of r.stdout.split("\n")) {
    const m = /^ {2}(-\S.*?)(?: {2,}(.*))?$/.exec(line);
    if (m !== null) found.set((last = m[1]!.trim()), m[2] ?? "");
    else if (last !== "" && /^ {4,}\S/.test(line)) found.set(last, `${found.get(last)} ${line.trim()}`);
  }
  return found;
}

describe("the help of every command", () => {
  it("shows each default one way: (default: x) at the end, never quoted by commander", async () => {
    for (const command of COMMANDS) {
      for (const [flag, text] of await options(command)) {
        const defaults = text.match(/default:/gi) ?? [];
        const shown = text.match(/\(default: [^"[][^)]*\)/g) ?? [];
        expect(shown.length, `${command} ${flag}: ${text}`).toBe(defaults.length);
      }
    }
  });

  it("says what --out is to each command: no command's output is 'replaced atomically'", async () => {
    const out = async (command: string): Promise<string> => (await options(command)).get("--out <dir>")!;
    for (const command of ["build", "check", "dev"]) expect(await out(command)).not.toMatch(/atomic/);
    expect(await out("check")).toMatch(/check writes nothing/);
    expect(await out("build")).toBe("output folder: the public site (default: dist)");
  });

  it("gives -q one meaning in dev and preview: no line per request", async () => {
    const quiet = async (command: string): Promise<string> => (await options(command)).get("-q, --quiet")!;
    expect(await quiet("dev")).toMatch(/^no line per request \(/);
    expect(await quiet("preview")).toMatch(/^no line per request \(/);
    // build and check: nothing but errors.
    expect(await quiet("build")).toBe("print nothing but errors");
    expect(await quiet("check")).toBe("print nothing but errors");
  });
});

/** Waits for `done` (checked every few milliseconds; the test's time-out bounds it). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe("the request log of preview and dev", () => {
  it("lists the client's requests, not the edge handler's own reads of its data", async () => {
    const out = path.join(await tmpDir("bis-log-"), "dist");
    temps.push(path.dirname(out));
    expect((await cli("build", "--content", DEMO_CONTENT, "--out", out, "-q")).code).toBe(0);
    const preview = await startPreview({ dir: out, port: 0, host: "127.0.0.1", semantics: "edge" });
    const lines: string[] = [];
    logRequests(preview.server, (line) => lines.push(line));
    try {
      // The handler's first answer reads its data (/_edge-data/core.json, a shard) from the preview itself.
      const res = await fetch(new URL("api.php?action=findIcon&extension=php", preview.url));
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      const icon = await fetch(new URL("icons/php.png", preview.url));
      await icon.arrayBuffer();
      // A line is written when its answer has finished on the server; the handler's reads finish before its answer.
      await until(() => lines.some((l) => l.startsWith("GET /icons/php.png")));
      expect(lines.map((l) => l.replace(/ [\d.]+ ms$/, ""))).toEqual([
        "GET /api.php?action=findIcon&extension=php 200",
        "GET /icons/php.png 200",
      ]);
      // A client that asks for /_edge-data/ itself is logged like any client.
      await (await fetch(new URL("_edge-data/core.json", preview.url))).arrayBuffer();
      await until(() => lines.length === 3);
      expect(lines[2]).toMatch(/^GET \/_edge-data\/core\.json \d{3} /);
    } finally {
      await preview.close();
    }
  });
});
