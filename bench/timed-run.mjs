// bench/timed-run.mjs
// Runs a process to completion and measures it: wall time around the whole process and its peak RSS; the tool's
// build command so measured; Node's own start.
// I/O: spawns processes, reads /usr/bin/time's output and /proc.

import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { median, round } from "./common.mjs";
import { BIN, WORK } from "./paths.mjs";

/** Fixed build time: reproducible output, so that a rebuild of unchanged content changes no byte. */
export const SOURCE_DATE_EPOCH = "1735689600";
const HAVE_TIME = existsSync("/usr/bin/time");

/**
 * Runs a command to completion: wall time (ms, measured here around the whole process) and peak RSS (MB, from
 * /usr/bin/time when present, else by polling /proc/<pid>/status VmHWM).
 */
export function runTimed(cmd, argv, env = {}) {
  return new Promise((resolve, reject) => {
    const timeFile = path.join(WORK, `time-${process.pid}.txt`);
    const [file, fullArgs] = HAVE_TIME ? ["/usr/bin/time", ["-f", "%M", "-o", timeFile, cmd, ...argv]] : [cmd, argv];
    const started = performance.now();
    const child = spawn(file, fullArgs, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    let hwm = 0;
    const poll = HAVE_TIME
      ? null
      : setInterval(() => {
          readFile(`/proc/${child.pid}/status`, "utf8").then(
            (s) => {
              const kb = Number(/VmHWM:\s+(\d+)/.exec(s)?.[1] ?? 0);
              if (kb > hwm) hwm = kb;
            },
            () => {},
          );
        }, 20);
    child.on("error", reject);
    child.on("close", async (code) => {
      const ms = performance.now() - started;
      if (poll) clearInterval(poll);
      if (code !== 0) return reject(new Error(`${cmd} ${argv.join(" ")} exited with ${code}:\n${out.slice(-2000)}`));
      if (HAVE_TIME) hwm = Number((await readFile(timeFile, "utf8")).trim().split("\n").pop());
      resolve({ ms, rssMb: hwm / 1024, out });
    });
  });
}

/**
 * Every build writes the default hosts (netlify, apache, nginx, vercel, cloudflare: every host, each through its
 * edge output where it has one), as `npx build-index-site` does. The static fallbacks (netlify-static,
 * vercel-static) are left out: they are for sites without functions, and refuse a ×100 site by design.
 */
export const buildCmd = (content, out) =>
  runTimed(process.execPath, [BIN, "build", "--content", content, "--out", out], { SOURCE_DATE_EPOCH });

/**
 * Node's own start (`node -e 0`, median of 10), without NODE_EXTRA_CA_CERTS and, when the environment sets it, with it
 * (alternately). Node reads and parses that certificate file at every start, before any of the tool's code runs, which
 * can cost more than Node's own start. No command the bench runs opens a TLS connection, so they all run without it,
 * and the report says what it would have added.
 */
export function nodeStart() {
  const certs = process.env.NODE_EXTRA_CA_CERTS;
  const time = (env) => {
    const started = performance.now();
    spawnSync(process.execPath, ["-e", "0"], { env });
    return performance.now() - started;
  };
  const plain = [];
  const withCerts = [];
  const { NODE_EXTRA_CA_CERTS: _, ...without } = process.env;
  for (let i = 0; i < 10; i++) {
    plain.push(time(without));
    if (certs !== undefined) withCerts.push(time(process.env));
  }
  return {
    ms: round(median(plain), 1),
    ...(certs === undefined ? {} : { extraCaCerts: certs, withCertsMs: round(median(withCerts), 1) }),
  };
}
