// test/edge/wrangler.ts
// Starts `wrangler dev` (workerd, from test/runtimes) in the folder that holds a build's --out: it finds
// the emitted wrangler.json through .wrangler/deploy/config.json, as `wrangler deploy` does. Used by the Cloudflare
// runtime suite (test/edge/wrangler.server.test.ts) and verify's (test/verify/workerd.server.test.ts).
// Offline: Request.cf fetching is disabled and wrangler's update check points at a closed port.

import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { spawnServer, stopServer } from "../helpers/processes.js";
import { freePort, type RunningServer } from "../hosts/servers.js";
import { runtimeBin } from "../runtimes/locate.mjs";

/**
 * `wrangler dev` on 127.0.0.1 in `root` (the folder that holds the built --out), its state under `root/state`. Resolves
 * once /api.php?action=status answers 200, and checks that the emitted (redirected) config was used. `stop` ends the
 * process group it started (wrangler and its workerd); it does not remove `root`.
 */
export async function startWrangler(root: string): Promise<RunningServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(root);
    } catch (error) {
      // Another suite took a port between freePort's check and wrangler's bind: draw new ones.
      if (attempt === 3 || !(error instanceof PortTaken)) throw error;
    }
  }
}

class PortTaken extends Error {}

async function startOnce(root: string): Promise<RunningServer> {
  const port = await freePort();
  const inspector = await freePort();
  let log = "";
  const wrangler = runtimeBin("wrangler");
  if (wrangler === null) throw new Error("wrangler is not installed: run `node scripts/test-runtimes.mjs`.");
  const child: ChildProcess = spawnServer(
    wrangler,
    [
      "dev",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--inspector-port",
      String(inspector),
      "--persist-to",
      path.join(root, "state"),
    ],
    {
      cwd: root,
      env: {
        ...process.env,
        CLOUDFLARE_CF_FETCH_ENABLED: "false",
        WRANGLER_SEND_METRICS: "false",
        npm_config_registry: "http://127.0.0.1:9/",
        NO_COLOR: "1",
      },
    },
  );
  child.stdout!.on("data", (d: Buffer) => {
    log += d.toString();
  });
  child.stderr!.on("data", (d: Buffer) => {
    log += d.toString();
  });
  // The process group this helper started: wrangler and its workerd.
  const stop = (): Promise<void> => stopServer(child);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      const message = `wrangler dev exited (${child.exitCode}):\n${log}`;
      throw /Address already in use/.test(log) ? new PortTaken(message) : new Error(message);
    }
    const ok = await fetch(`${url}/api.php?action=status`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`wrangler dev did not answer within 60 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  if (!/Using redirected Wrangler configuration/.test(log)) {
    await stop();
    throw new Error(`wrangler dev did not use the emitted config:\n${log}`);
  }
  return { url, stop };
}
