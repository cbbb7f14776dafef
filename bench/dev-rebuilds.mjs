// bench/dev-rebuilds.mjs
// One mapping edited again and again under `dev` (one process kept up, the content in memory): each rebuild's time as
// `dev` prints it, and the time of the answer that follows it.
// I/O: runs `dev`, writes the content's icons.json, asks the preview.

import { spawn } from "node:child_process";
import { rename, writeFile } from "node:fs/promises";
import { BIN } from "./paths.mjs";
import { SOURCE_DATE_EPOCH } from "./timed-run.mjs";

/** Starts `dev` and returns it with `waitFor(re, from)`: the first match of `re` in what it printed after `from`. */
function startDev(content, out) {
  const child = spawn(process.execPath, [BIN, "dev", "--content", content, "--out", out, "--port", "0"], {
    env: { ...process.env, SOURCE_DATE_EPOCH },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const dev = { child, text: "" };
  const waiters = [];
  const onData = (d) => {
    dev.text += d;
    // A copy: a waiter that matches removes itself from the list.
    for (const w of waiters.slice()) w();
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  dev.waitFor = (re, from) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`dev did not print ${re} in time:\n${dev.text.slice(-2000)}`)),
        180_000,
      );
      const check = () => {
        const m = re.exec(dev.text.slice(from));
        if (m === null) return;
        clearTimeout(timer);
        waiters.splice(waiters.indexOf(check), 1);
        resolve(m);
      };
      waiters.push(check);
      check();
    });
  return dev;
}

/** Stops `dev` and waits for it to exit. */
async function stopDev(child) {
  const exited = new Promise((done) => (child.exitCode !== null ? done() : child.once("exit", done)));
  child.kill("SIGTERM");
  await exited;
}

/**
 * `dev` on `content` into `out` (built already): `runs` edits of icons.json (`key` alternating between `values`),
 * each waited for until `dev` says the output is updated; returns each rebuild's milliseconds as `dev` prints them,
 * and the milliseconds of the request that follows each (`findIcon` of `key`, checked to name the new icon).
 */
export async function devMappingRebuilds(content, out, mapFile, map, key, values, runs) {
  const dev = startDev(content, out);
  const times = [];
  const answers = [];
  const started = performance.now();
  let readyMs = 0;
  try {
    const url = (await dev.waitFor(/^Preview: (http\S+)/m, 0))[1];
    // dev first holds the site in memory (an update in place of the output it found up to date, writing nothing).
    await dev.waitFor(/^Ready for edits/m, 0);
    readyMs = performance.now() - started;
    for (let i = 0; i < runs; i++) {
      map[key] = map[key] === values[0] ? values[1] : values[0]; // each edit is a change
      const from = dev.text.length;
      const tmp = `${mapFile}.new`;
      await writeFile(tmp, `${JSON.stringify(map, null, 4)}\n`);
      await rename(tmp, mapFile);
      const m = await dev.waitFor(/^Updated .* in ([\d.]+) (ms|s) /m, from);
      times.push(Number(m[1]) * (m[2] === "s" ? 1000 : 1));
      const asked = performance.now();
      const res = await fetch(new URL(`api.php?action=findIcon&extension=${encodeURIComponent(key)}`, url));
      const body = await res.text();
      answers.push(performance.now() - asked);
      if (!body.includes(JSON.stringify(map[key])))
        throw new Error(
          `dev answered findIcon for ${key} without ${map[key]} after the rebuild: ${body.slice(0, 300)}`,
        );
    }
  } finally {
    await stopDev(dev.child);
  }
  return { times, answers, readyMs };
}
