// test/preview/stalled-clients.test.ts
// Clients that ask for a large (streamed) file and never read it, or leave mid-answer, must neither freeze the other
// requests nor keep file descriptors open (issue 8, points 13 and 15: the preview keeps answering).

import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { startPreview, type Preview } from "../../src/preview/server.js";
import { removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { writeBase } from "../helpers/base-content.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
let root = "";
let out = "";
let content = "";
let preview: Preview;
let port = 0;

beforeAll(async () => {
  root = await tmpDir("bis-stalled-");
  content = await writeBase();
  out = path.join(root, "dist");
  await build({ content, out, sourceDateEpoch: TEST_EPOCH });
  // Larger than the preview reads whole (1 MiB): it is streamed. Written into dist/ after the build, as a host would
  // serve whatever lies there.
  await writeFile(path.join(out, "style", "big.css"), Buffer.alloc(12 * 1024 * 1024, 0x61));
  preview = await startPreview({ dir: out, port: 0, host: "127.0.0.1" });
  port = Number(new URL(preview.url).port);
}, 60_000);

afterAll(async () => {
  await preview?.close();
  await removeDir(root);
  await removeDir(content);
});

const openFds = (): number => readdirSync("/proc/self/fd").length;
const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Status of a plain GET, or "timeout" when no answer comes within `ms`. */
async function status(target: string, ms = 5000): Promise<number | string> {
  return fetch(`${preview.url}${target.replace(/^\//, "")}`, { signal: AbortSignal.timeout(ms) }).then(
    async (r) => {
      await r.arrayBuffer();
      return r.status;
    },
    () => "timeout",
  );
}

describe.skipIf(process.platform !== "linux")("stalled clients (needs /proc/self/fd)", () => {
  it("70 clients that never read a streamed file held every file slot and froze all other requests, for good", async () => {
    const before = openFds();
    const sockets: net.Socket[] = [];
    for (let i = 0; i < 70; i += 1) {
      const socket = net.connect(port, "127.0.0.1");
      socket.on("error", () => undefined);
      socket.pause(); // never reads the answer
      socket.write("GET /style/big.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      sockets.push(socket);
    }
    await pause(1000);
    expect(await status("/config.json")).toBe(200);
    expect(await status("/api.php?action=config")).toBe(200);
    for (const socket of sockets) socket.destroy();
    // The streams are closed with their answers: no descriptor is left behind once the clients are gone.
    for (let i = 0; i < 50 && openFds() > before + 5; i += 1) await pause(100);
    expect(openFds()).toBeLessThanOrEqual(before + 5);
    expect(await status("/style/big.css", 20_000)).toBe(200);
  }, 60_000);
});

describe.skipIf(process.platform !== "linux")("a flood of a streamed file (needs /proc and ulimit)", () => {
  it("1,500 unread pipelined requests for a streamed file under ulimit -n 1024 took every descriptor, for good", async () => {
    const lib = path.join(REPO, "lib/preview/server.js");
    if (!existsSync(lib)) throw new Error("lib/ is missing: run `npm run build` first (npm test does).");
    const script = `const { startPreview } = await import(${JSON.stringify(lib)});
const p = await startPreview({ dir: ${JSON.stringify(out)}, port: 0, host: "127.0.0.1" });
console.log(p.url);`;
    const child = spawn(
      "bash",
      ["-c", `ulimit -n 1024; exec node --input-type=module -e '${script.replace(/'/g, "'\\''")}'`],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.once("data", (d: Buffer) => resolve(d.toString().trim()));
        child.once("exit", (code) => reject(new Error(`the preview exited (${code}): ${stderr}`)));
      });
      const port = Number(new URL(url).port);
      const floods: net.Socket[] = [];
      for (let c = 0; c < 3; c += 1) {
        const flood = net.connect(port, "127.0.0.1");
        flood.on("error", () => undefined);
        flood.pause();
        flood.write("GET /style/big.css HTTP/1.1\r\nHost: x\r\n\r\n".repeat(1500));
        floods.push(flood);
      }
      await pause(2000);
      const ask = (target: string): Promise<number | string> =>
        fetch(`${url}${target}`, { signal: AbortSignal.timeout(8000) }).then(
          async (r) => {
            await r.arrayBuffer();
            return r.status;
          },
          () => "timeout",
        );
      expect(await ask("api.php?action=config")).toBe(200);
      expect(await ask("config.json")).toBe(200);
      for (const flood of floods) flood.destroy();
      await pause(500);
      expect(await ask("style/big.css")).toBe(200);
      expect(readdirSync(`/proc/${child.pid}/fd`).length).toBeLessThan(100);
      expect(child.exitCode).toBeNull();
      expect(stderr).toBe("");
    } finally {
      child.kill("SIGTERM");
    }
  }, 60_000);
});
