// test/helpers/interrupt/servers.fixture.ts
// Run only by test/helpers/run-cleanup.server.test.ts (through ./vitest.config.ts): starts nginx and Apache (when
// installed), a detached server standing in for wrangler, Deno and php -S, and a plain child standing in for Chromium,
// makes a temporary folder, writes what it started to $BIS_INTERRUPT_REPORT, then waits to be interrupted.

import { spawn } from "node:child_process";
import { rename, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { test } from "vitest";
import { startApache, startNginx, haveApache, haveNginx } from "../../hosts/servers.js";
import { tmpDir } from "../fixtures.js";
import { spawnServer } from "../processes.js";

test("starts servers, then waits for Ctrl-C", async () => {
  const site = await tmpDir("bis-interrupt-site-");
  await writeFile(path.join(site, "index.html"), "<p>waiting</p>\n");
  await writeFile(path.join(site, "http.conf"), "");
  await writeFile(path.join(site, "server.conf"), "");
  const started: string[] = [];
  if (haveNginx)
    started.push((await startNginx(site, path.join(site, "http.conf"), path.join(site, "server.conf"))).url);
  if (haveApache) started.push((await startApache(site)).url);
  const detached = spawnServer("sleep", ["3600"]);
  const child = spawn("sleep", ["3601"], { stdio: "ignore" });
  // Written beside its place, then renamed into it: the test polls for the file and must never read half of it.
  const report = process.env.BIS_INTERRUPT_REPORT!;
  await writeFile(
    `${report}.tmp`,
    JSON.stringify({ urls: started, pids: [detached.pid, child.pid, process.pid], site, tmp: os.tmpdir() }),
  );
  await rename(`${report}.tmp`, report);
  await new Promise((resolve) => setTimeout(resolve, 110_000));
});
