// bench/throughput.mjs
// Requests per second: a fixed mix of /api.php queries over a built site (and the file that answers each), autocannon
// over 127.0.0.1, and the preview rows (`preview` answering the mix beside serve-handler serving the same files by
// path). The nginx rows (bench/nginx.mjs) use the same mix and load.
// I/O: builds a site, starts servers, sends them load.

import { spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { log, round } from "./common.mjs";
import { removeDir } from "./disk.mjs";
import { BIN, REPO, WORK } from "./paths.mjs";
import { buildCmd } from "./timed-run.mjs";
import { requireRuntime } from "../test/runtimes/locate.mjs";

/** Starts a server process and resolves with its URL (the first line matching `re`) and a stop function. */
function startServer(cmd, argv, re) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 15_000);
    child.stdout.on("data", (d) => {
      out += d;
      const m = re.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1],
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done();
              child.once("exit", () => done());
              child.kill("SIGTERM");
              setTimeout(() => child.exitCode === null && child.kill("SIGKILL"), 2000).unref();
            }),
        });
      }
    });
    child.stderr.on("data", (d) => (out += d));
    child.on("error", reject);
  });
}

/** A fixed mix of /api.php queries over the site, and for each the path of the file that answers it. */
export async function requestMix(dir) {
  const { compileTable, matchRoute, parseQuery } = await import("../lib/routes/route-table.js");
  const table = JSON.parse(
    await readFile(path.join(path.dirname(dir), ".build-index-site", path.basename(dir), "routes.json"), "utf8"),
  );
  const compiled = compileTable(table);
  const icons = (await readdir(path.join(dir, "icons"))).filter((n) => n.endsWith(".png")).sort();
  const extensions = (await readdir(path.join(dir, "api/findIcon/file"))).map((n) => n.replace(/\.json$/, "")).sort();
  const versions = (await readdir(path.join(dir, "api/versionCheck"))).map((n) => n.replace(/\.json$/, "")).sort();
  const pick = (xs, i) => xs[(i * 7919) % xs.length];
  const queries = [];
  for (let i = 0; i < 20; i++) {
    const e = encodeURIComponent(pick(extensions, i));
    queries.push(`action=findIcon&type=file&extension=${e}`);
    queries.push(`action=findIcon&extension=${e.toUpperCase()}`);
    queries.push(`action=getExtensionSetting&extension=${e}&type=viewing`);
    queries.push(`action=icon&name=${encodeURIComponent(pick(icons, i))}`);
  }
  for (let i = 0; i < 5; i++)
    queries.push(`action=versionCheck&current_version=${encodeURIComponent(pick(versions, i))}`);
  queries.push(
    "action=config",
    "action=status",
    "action=findIcon&type=folder&extension=x",
    "action=nope",
    "action=findIcon&extension=no-such-ext",
    "action=iconMappings",
    "action=extensionMappings&type=indexing",
  );
  return queries.map((q) => {
    const { rule, target } = matchRoute(compiled, parseQuery(q));
    return { api: `/api.php?${q}`, file: encodeURI(target), status: rule.status };
  });
}

/** A load generator: `load(url, paths)` sends `paths` to `url` (127.0.0.1 only) for `seconds` over `connections`. */
export function makeLoad(seconds, connections) {
  return async function load(url, paths) {
    const autocannon = requireRuntime("autocannon");
    const base = new URL(url);
    if (base.hostname !== "127.0.0.1") throw new Error(`refusing to load anything but 127.0.0.1 (${url})`);
    const result = await autocannon({
      url: `${base.origin}`,
      connections,
      duration: seconds,
      requests: paths.map((p) => ({ method: "GET", path: p })),
    });
    return {
      rps: round(result.requests.average, 0),
      p99Ms: result.latency.p99,
      requests: result.requests.total,
      non2xx: result.non2xx,
      errors: result.errors,
    };
  };
}

/** The preview rows on the site of `content`: `preview` on the mix, serve-handler on the same files by path. */
export async function benchPreview(name, content, load, { seconds, connections }) {
  const root = path.join(WORK, `${name}-preview`);
  const dir = path.join(root, "dist");
  await removeDir(root);
  await buildCmd(content, dir);
  const mix = await requestMix(dir);
  const expectedNon2xx = mix.filter((m) => m.status !== 200).length / mix.length;
  const rows = [];
  for (const [label, cmd, argv, re, paths] of [
    [
      "preview, /api.php mix",
      process.execPath,
      [BIN, "preview", "--dir", dir, "--port", "0", "--host", "127.0.0.1"],
      /Preview: (\S+)/,
      mix.map((m) => m.api),
    ],
    [
      "serve-handler, same files by path",
      process.execPath,
      [path.join(REPO, "bench/serve-files.mjs"), dir],
      /Serving: (\S+)/,
      mix.map((m) => m.file),
    ],
  ]) {
    const server = await startServer(cmd, argv, re);
    try {
      await load(server.url, paths.slice(0, 5)); // warm-up
      const r = await load(server.url, paths);
      rows.push({ server: label, ...r });
      log(
        `  ${label}: ${r.rps} req/s, p99 ${r.p99Ms} ms (${r.non2xx} non-2xx of ${r.requests}, ${round(expectedNon2xx * 100, 0)}% expected)`,
      );
    } finally {
      await server.stop();
    }
  }
  await removeDir(root);
  return { site: name, mixSize: mix.length, connections, seconds, rows, ratio: round(rows[0].rps / rows[1].rps, 2) };
}
