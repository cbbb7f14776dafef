// test/verify/broken.server.test.ts
// Broken deploys, one at a time, in a copy of the output served by nginx: each is reported with its URL, exit 1.
// The breaks are made by hand here, on the files as a user would (an edited answer, a deleted rule, a changed
// header), never through the code under test.

import { chmod, cp, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { layoutOf } from "../../src/layout/paths.js";
import { DEMO_CONTENT, removeDir, tmpDir } from "../helpers/fixtures.js";
import { skipReason } from "../helpers/needs.js";
import { buildSite, nginxFor, runVerify, type Built } from "./helpers.js";

let site: Built;
beforeAll(async () => {
  site = await buildSite(DEMO_CONTENT, ["nginx"]);
});
afterAll(async () => {
  await removeDir(site.root);
});

interface Break {
  /** Changes the copied site folder, and the copied nginx-http.conf and nginx.conf texts. */
  site?: (dir: string) => Promise<void>;
  http?: (text: string) => string;
  server?: (text: string) => string;
}

/** Serves a broken copy with nginx, runs verify against it (with --dir the intact build): exit code and output. */
async function verifyBroken(broken: Break, flags: string[] = []): Promise<{ code: number; out: string }> {
  const dir = await tmpDir("bis-verify-broken-");
  await chmod(dir, 0o755); // nginx's worker runs as another user
  try {
    const copy = path.join(dir, "site");
    await cp(site.out, copy, { recursive: true });
    await broken.site?.(copy);
    const hostDir = layoutOf(site.out).host("nginx");
    const http = path.join(dir, "nginx-http.conf");
    const server = path.join(dir, "nginx.conf");
    await writeFile(http, (broken.http ?? ((t) => t))(await readFile(path.join(hostDir, "nginx-http.conf"), "utf8")));
    await writeFile(server, (broken.server ?? ((t) => t))(await readFile(path.join(hostDir, "nginx.conf"), "utf8")));
    const nginx = await nginxFor(copy, site.out, { http, server });
    try {
      const run = await runVerify([nginx.url, "--dir", site.out, "--show", "100", ...flags]);
      return { code: run.code, out: run.out.replaceAll(nginx.url, "") };
    } finally {
      await nginx.stop();
    }
  } finally {
    await removeDir(dir);
  }
}

/** One answer's body edited: config's file gets a field more. */
const editConfig: Break = {
  site: async (dir) => {
    const file = path.join(dir, "api", "config.json");
    const body = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
    await writeFile(file, JSON.stringify({ ...body, edited: true }));
  },
};

/** The text of one `location` block of nginx.conf, changed by `change`. */
const inLocation =
  (name: string, change: (block: string) => string) =>
  (text: string): string => {
    const start = text.indexOf(`location ${name} {`);
    const end = text.indexOf("\n}", start);
    expect(start, `location ${name}`).toBeGreaterThanOrEqual(0);
    return text.slice(0, start) + change(text.slice(start, end)) + text.slice(end);
  };

describe.skipIf(skipReason("nginx") !== undefined)("verify reports a broken deploy on nginx (exit 1)", () => {
  test("the unbroken copy passes (so each failure below is its break)", async () => {
    const run = await verifyBroken({});
    expect(run.code, run.out).toBe(0);
  });

  test("one answer's body edited", async () => {
    const run = await verifyBroken(editConfig);
    expect(run.code, run.out).toBe(1);
    expect(run.out).toContain("GET /api.php?action=config\n    body $.edited: expected (absent), received true");
    // A sample (every request here) compares the answers with their files, not the manifest's records: the same finding.
    const sampled = await verifyBroken(editConfig, ["--sample", "100000"]);
    expect(sampled.code, sampled.out).toBe(1);
    expect(sampled.out).toContain("GET /api.php?action=config\n    body $.edited: expected (absent), received true");
  });

  test("one route rule deleted (config's, in both of nginx's paths)", async () => {
    const run = await verifyBroken({
      http: (t) =>
        t
          .split("\n")
          .filter((line) => !line.includes('/api/config.json"'))
          .join("\n"),
    });
    expect(run.code, run.out).toBe(1);
    expect(run.out).toMatch(
      /GET \/api\.php\?action=config\n {4}cache-control: expected "public, max-age=3600", received \(absent\)/,
    );
  });

  test("a wrong Content-Type", async () => {
    const run = await verifyBroken({
      server: inLocation("= /api/config.json", (b) =>
        b.replace("default_type application/json;", "default_type text/html;"),
      ),
    });
    expect(run.code, run.out).toBe(1);
    expect(run.out).toContain(
      'GET /api.php?action=config\n    content-type: expected "application/json", received "text/html"',
    );
  });

  test("Cache-Control overridden", async () => {
    const run = await verifyBroken({
      server: inLocation("^~ /api/findIcon/", (b) => b.replace("public, max-age=86400", "no-store")),
    });
    expect(run.code, run.out).toBe(1);
    expect(run.out).toMatch(
      /GET \/api\.php\?action=findIcon&\S+\n {4}cache-control: expected "public, max-age=86400", received "no-store"/,
    );
  });

  test("a missing icon", async () => {
    const run = await verifyBroken({ site: (dir) => rm(path.join(dir, "icons", "archive.png")) });
    expect(run.code, run.out).toBe(1);
    expect(run.out).toContain("GET /icons/archive.png\n    status: expected 200, received 404");
  });

  test("an SPA-style fallback that answers index.html for everything", async () => {
    const run = await verifyBroken({
      site: (dir) => writeFile(path.join(dir, "index.html"), "<!doctype html><title>App</title><div id=app></div>\n"),
      http: () => "",
      server: () => "location / { try_files /index.html =404; }\nlocation = /api.php { try_files /index.html =404; }\n",
    });
    expect(run.code, run.out).toBe(1);
    expect(run.out).toMatch(
      /GET \/api\.php\?action=config\n(.*\n)*? {4}body: expected JSON, received "<!doctype html>/,
    );
  });
});
