// test/hosts/serve-static.ts
// Starts the real `serve` package (test/runtimes' install, what `npx serve dist` runs) on 127.0.0.1: a static file server that
// routes no query, so /api.php gets its own 404 page. The newcomer's first preview, for the tests of what the
// catalogue and `verify` make of it.

import { spawn } from "node:child_process";
import { runtimeBin } from "../runtimes/locate.mjs";
import { freePort, type RunningServer } from "./servers.js";

const SERVE = runtimeBin("serve") ?? "serve";

/** `serve <dir>` on a free port, as `npx serve dist` starts it (no clipboard, no other port). */
export async function startServe(dir: string): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(SERVE, ["--no-clipboard", "--no-port-switching", "-L", "-l", `tcp://127.0.0.1:${port}`, dir], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}/`;
  for (let tries = 0; ; tries++) {
    if (child.exitCode !== null) throw new Error(`serve exited before listening:\n${output}`);
    const up = await fetch(url).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (tries > 300) throw new Error(`serve did not listen on ${port} within 30 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
