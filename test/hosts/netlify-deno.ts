// test/hosts/netlify-deno.ts
// Starts the Netlify harness (netlify-deno-harness.js) under Deno from npm's `deno` package, over a build's base
// directory (.netlify/v1) and published folder; only reads of those two folders and 127.0.0.1 (as itself or as localhost: two origins) are allowed.

import path from "node:path";
import { fileURLToPath } from "node:url";
import { removeDir, tmpDir } from "../helpers/fixtures.js";
import { denoBinary } from "../helpers/needs.js";
import { spawnServer, stopServer } from "../helpers/processes.js";
import type { RunningServer } from "./servers.js";

const HARNESS = path.join(path.dirname(fileURLToPath(import.meta.url)), "netlify-deno-harness.js");

export async function startNetlifyDeno(
  baseDir: string,
  publishDir: string,
  options: { requireAuth?: string } = {},
): Promise<RunningServer> {
  const deno = denoBinary();
  if (deno === null) throw new Error("npm's deno package has no binary for this platform.");
  const denoDir = await tmpDir("bis-deno-");
  const child = spawnServer(
    deno,
    [
      "run",
      "--quiet",
      "--no-prompt",
      "--no-config",
      "--no-lock",
      "--no-remote",
      "--no-npm",
      `--allow-read=${baseDir},${publishDir}`,
      "--allow-net=127.0.0.1,localhost",
      "--allow-env",
      HARNESS,
      baseDir,
      publishDir,
    ],
    {
      env: {
        ...process.env,
        DENO_DIR: denoDir,
        NO_COLOR: "1",
        DENO_NO_UPDATE_CHECK: "1",
        ...(options.requireAuth === undefined ? {} : { REQUIRE_AUTH: options.requireAuth }),
      },
    },
  );
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`Deno did not start within 30 s:\n${stderr}`)), 30_000);
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`Deno exited (${code}) before listening:\n${stderr}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      await stopServer(child);
      await removeDir(denoDir);
    },
  };
}
