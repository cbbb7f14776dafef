// test/preview/stalled-clients.test.ts
// Clients that ask for a large (streamed) file and never read it, or leave mid-answer, must neither freeze the other
// requests nor keep file descriptors open (issue 8, points 13 and 15: the preview keeps answering).

import { readdirSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../src/build.js";
import { startPreview, type Preview } from "../../src/preview/server.js";
import { removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { writeBase } from "../validation/base-content.js";

let root = "";
let content = "";
let preview: Preview;
let port = 0;

beforeAll(async () => {
  root = await tmpDir("bis-stalled-");
  content = await writeBase();
  const out = path.join(root, "dist");
  await build({ content, out, sourceDateEpoch: TEST_EPOCH });
  // Larger than the preview reads whole (8 MiB): it is streamed. Written into dist/ after the build, as a host would
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
  return fetch(`${preview.url}${target.replace(/^\//, "")}`, { signal: AbortSignal.timeout(ms) })
    .then(async (r) => { await r.arrayBuffer(); return r.status; }, () => "timeout");
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
