// test/hosts/host-fuzz.server.test.ts
// Hostile extension keys, icon names and versions through the whole build and every host file:
// 1. random keys (seeded) → each emitted host file still parses with that host's own parser (Netlify's redirect
//    parser, Vercel's routing-utils, `nginx -t`, `apache2 -t`, `node --check`), one parsed rule per emitted line;
// 2. a fixed set with every dangerous character → every host answers every request like the preview (parity),
//    so no key can add or change a rule;
// 3. control characters (a newline) are refused before anything is written.

import { spawnSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseAllRedirects } from "@netlify/redirect-parser";
import { getTransformedRoutes } from "@vercel/routing-utils";
import { afterAll, describe, expect, it } from "vitest";
import { compile } from "../../src/pipeline/compile.js";
import { ContentError } from "../../src/errors.js";
import type { OutputFile } from "../../src/output/plan/files.js";
import { STATIC_HOSTS } from "./parity.js";
import { compileContent, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { canRun } from "../helpers/needs.js";
import { hostileContent, hostileParity, type Hostile } from "./hostile-keys.js";
import { prng } from "../../scripts/prng.mjs";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

/** Characters that break or inject into host configs (quotes, separators, comment and variable marks, non-ASCII). */
const HOSTILE = [..." #&=%'\"+;:\\/?*$`{}[]()<>|^!~,@.-_", "é", "ü", "中", "😀", "\u00a0", "\u2028"];
const PLAIN = [..."abcxyz019"];

function randomKey(next: () => number): string {
  const length = 1 + Math.floor(next() * 7);
  let key = "";
  for (let i = 0; i < length; i++) {
    const pool = next() < 0.6 ? HOSTILE : PLAIN;
    key += pool[Math.floor(next() * pool.length)]!;
  }
  return key;
}

/** Keys the build accepts: no case twins (an error by design), no empty key, no "." or ".." file names. */
function acceptable(keys: string[]): string[] {
  const seen = new Set<string>();
  return keys.filter((k) => {
    const lower = k.replace(/[A-Z]/g, (c) => c.toLowerCase());
    if (k === "" || seen.has(lower)) return false;
    seen.add(lower);
    return true;
  });
}

const text = (files: OutputFile[], p: string): string => {
  const f = files.find((x) => x.path === p);
  if (f === undefined || !("data" in f)) throw new Error(`${p} was not emitted`);
  return typeof f.data === "string" ? f.data : Buffer.from(f.data).toString("utf8");
};

// Outside CI, `nginx -t` / `apache2 -t` are left out where the server is not installed (the run says so once).
const haveNginx = canRun("nginx");
const haveApache = canRun("apache");

/** Every host file of one build, checked with the host's own parser. Returns the problems found. */
async function checkHostFiles(files: OutputFile[], work: string): Promise<string[]> {
  const problems: string[] = [];
  await mkdir(work, { recursive: true });

  // Netlify: the parser the Netlify CLI uses; every rule line is one redirect, nothing more, nothing less.
  const redirects = text(files, "_redirects");
  await writeFile(path.join(work, "_redirects"), redirects);
  const parsed = await parseAllRedirects({
    redirectsFiles: [path.join(work, "_redirects")],
    netlifyConfigPath: undefined,
    configRedirects: [],
    minimal: false,
  });
  if (parsed.errors.length > 0)
    problems.push(`netlify _redirects: ${parsed.errors.map((e: Error) => e.message).join("; ")}`);
  const ruleLines = redirects.split("\n").filter((l) => l.trim() !== "" && !l.trimStart().startsWith("#")).length;
  if (parsed.redirects.length !== ruleLines)
    problems.push(`netlify _redirects: ${ruleLines} rule lines but ${parsed.redirects.length} parsed redirects`);
  const headers = text(files, "_headers");
  for (const line of headers.split("\n")) {
    if (line !== "" && !line.startsWith("#") && !line.startsWith("/") && !/^ {2}[A-Za-z-]+: [^\r\n]*$/.test(line))
      problems.push(`netlify _headers: odd line ${JSON.stringify(line)}`);
  }

  // Vercel: the routing-utils that the Vercel build uses to compile vercel.json.
  const vercel = JSON.parse(text(files, "vercel.json")) as Parameters<typeof getTransformedRoutes>[0];
  const transformed = getTransformedRoutes(vercel);
  if (transformed.error) problems.push(`vercel.json: ${transformed.error.message}`);

  // Cloudflare: the Worker must be valid JavaScript; wrangler.json valid JSON.
  const workerFile = path.join(work, "worker.mjs");
  await writeFile(workerFile, text(files, "worker/index.js"));
  const check = spawnSync(process.execPath, ["--check", workerFile], { encoding: "utf8" });
  if (check.status !== 0) problems.push(`cloudflare worker/index.js: ${check.stderr}`);
  for (const p of ["wrangler.json"]) {
    try {
      JSON.parse(text(files, p));
    } catch (error) {
      problems.push(`${p}: ${String(error)}`);
    }
  }

  // nginx: `nginx -t` with both snippets included where the docs say.
  if (haveNginx) {
    const nginxDir = path.join(work, "nginx");
    await mkdir(nginxDir, { recursive: true });
    await writeFile(path.join(nginxDir, "http.conf"), text(files, "nginx-http.conf"));
    await writeFile(path.join(nginxDir, "server.conf"), text(files, "nginx.conf"));
    await writeFile(
      path.join(nginxDir, "nginx.conf"),
      [
        `pid ${nginxDir}/nginx.pid;`,
        `error_log ${nginxDir}/error.log;`,
        "events {}",
        "http {",
        `  include ${nginxDir}/http.conf;`,
        "  server {",
        "    listen 127.0.0.1:1;",
        `    root ${work};`,
        `    include ${nginxDir}/server.conf;`,
        "  }",
        "}",
        "",
      ].join("\n"),
    );
    const t = spawnSync("/usr/sbin/nginx", ["-p", nginxDir, "-c", path.join(nginxDir, "nginx.conf"), "-t", "-q"], {
      encoding: "utf8",
    });
    if (t.status !== 0) problems.push(`nginx -t: ${t.stderr}`);
  }

  // Apache: `apache2 -t` with the .htaccess content inside a <Directory> block.
  if (haveApache) {
    const apacheDir = path.join(work, "apache");
    await mkdir(apacheDir, { recursive: true });
    const modules = ["mpm_event", "authz_core", "rewrite", "headers", "mime", "setenvif", "alias", "dir"].map(
      (m) => `LoadModule ${m}_module /usr/lib/apache2/modules/mod_${m}.so`,
    );
    await writeFile(
      path.join(apacheDir, "httpd.conf"),
      [
        `ServerRoot ${apacheDir}`,
        "ServerName 127.0.0.1",
        "Listen 127.0.0.1:1",
        `PidFile ${apacheDir}/httpd.pid`,
        `ErrorLog ${apacheDir}/error.log`,
        ...modules,
        `DocumentRoot "${work}"`,
        `<Directory "${work}">`,
        text(files, ".htaccess"),
        "</Directory>",
        "",
      ].join("\n"),
    );
    const t = spawnSync("/usr/sbin/apache2", ["-t", "-f", path.join(apacheDir, "httpd.conf")], {
      encoding: "utf8",
      env: { ...process.env, APACHE_RUN_DIR: apacheDir, APACHE_LOCK_DIR: apacheDir, APACHE_LOG_DIR: apacheDir },
    });
    if (t.status !== 0) problems.push(`apache2 -t: ${t.stderr}`);
  }
  return problems;
}

describe("hostile keys through the whole build", () => {
  const SEEDS = Array.from({ length: 12 }, (_, i) => 1000 + i);

  it.each(SEEDS)("seed %i: every host file still parses with its host's parser", async (seed) => {
    const next = prng(seed);
    const h: Hostile = {
      extensions: acceptable(Array.from({ length: 8 }, () => randomKey(next))),
      versions: [...new Set(Array.from({ length: 3 }, () => randomKey(next)))],
      iconNames: acceptable(Array.from({ length: 3 }, () => randomKey(next).replace(/[/\\]/g, "_"))).filter(
        (n) => n !== "." && n !== ".." && !n.startsWith("."),
      ),
    };
    const dir = await hostileContent(h, temps);
    const { hosts, diagnostics } = await compile({
      content: dir,
      sourceDateEpoch: TEST_EPOCH,
      hosts: [...STATIC_HOSTS, "cloudflare"],
    }).catch((error: unknown) => {
      throw new Error(
        `seed ${seed} ${JSON.stringify(h)}: ${error instanceof ContentError ? JSON.stringify(error.diagnostics) : String(error)}`,
      );
    });
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const work = await tmpDir("bis-fuzz-");
    temps.push(work);
    expect(
      await checkHostFiles(
        hosts.flatMap((h) => h.files.map((f) => ({ path: f.path, data: f.data }))),
        work,
      ),
      `seed ${seed}: ${JSON.stringify(h)}`,
    ).toEqual([]);
  });

  it("refuses control characters (a newline in a key, a tab in a version) before writing anything", async () => {
    const dir = await hostileContent({ extensions: ["a\nb"], versions: ["1\t2"], iconNames: [] }, temps);
    const error = await compileContent(dir).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ContentError);
    const codes = (error as ContentError).diagnostics.map((d) => `${path.basename(d.file)} ${d.code} ${d.pointer}`);
    expect(codes).toContain("extensionMap.json VALUE_UNSAFE /indexing/a\nb");
    expect(codes).toContain("icons.json VALUE_UNSAFE /a\nb");
    expect(codes).toContain("manifest.json VALUE_UNSAFE /versions/3");
  });

  // The servers' half of the parity on the dangerous keys; host-fuzz-parity.test.ts runs the in-process engines' half.
  hostileParity(["apache", "nginx"], temps);
});
