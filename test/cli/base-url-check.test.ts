// test/cli/base-url-check.test.ts
// Every base URL is checked in one place (src/content/base-url.ts): it must parse with WHATWG's URL parser, use
// https (http too for verify), have a host with no empty label and a valid port, hold only valid percent-escapes and
// carry no credentials. The flag, the environment (from-env), manifest.json and verify --base-url all use it.

import { spawnSync } from "node:child_process";
import { cp, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { baseUrlProblem } from "../../src/content/base-url.js";
import { DEMO_CONTENT, REPO, removeDir, tmpDir } from "../helpers/fixtures.js";

const BAD = [
  "https://x.org:abc",
  "https://x.org:99999",
  "https://[::1",
  "https://x.org/%zz",
  "https://.",
  "https://a..b.org",
  "https://user:pw@x.org",
  "https://user@x.org",
];
const GOOD = ["https://x.org", "https://x.org:8443", "https://[::1]", "https://x.org/a%20b", "https://x.org/indexer"];

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));
const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [path.join(REPO, "bin/build-index-site.js"), ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH, ...env },
  });

describe("base URLs", () => {
  it("baseUrlProblem refuses each bad form and takes the good ones", () => {
    for (const url of BAD) expect(baseUrlProblem(url), url).not.toBeNull();
    for (const url of GOOD) expect(baseUrlProblem(url), url).toBeNull();
    expect(baseUrlProblem("http://localhost:8080", { http: true })).toBeNull();
    expect(baseUrlProblem("http://localhost:8080")).not.toBeNull();
  });

  it("check --base-url refuses them: exit 2, one line naming the flag", () => {
    for (const url of BAD) {
      const r = cli(["check", "--content", DEMO_CONTENT, "--base-url", url]);
      expect(r.status, `${url}: ${r.stderr}`).toBe(2);
      expect(r.stderr.split("\n")[0], url).toMatch(/^(error: )?--base-url .* cannot be used: /);
    }
  });

  it("from-env refuses what the environment gives when it is not a URL", () => {
    const r = cli(["check", "--content", DEMO_CONTENT, "--base-url", "from-env"], {
      NETLIFY: "true",
      CONTEXT: "production",
      URL: "javascript:alert(1)",
    });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /URL \(Netlify, production\) gives "https:\/\/javascript:alert\(1\)", which cannot be used/,
    );
  });

  it("manifest.json's base_url is a content error at /base_url (exit 1)", async () => {
    const dir = await tmpDir("bis-base-url-");
    temps.push(dir);
    await cp(DEMO_CONTENT, dir, { recursive: true });
    const file = path.join(dir, "manifest.json");
    const manifest = JSON.parse(await readFile(file, "utf8")) as { base_url: string };
    manifest.base_url = "https://x.org:99999";
    await writeFile(file, JSON.stringify(manifest, null, 2));
    const r = cli(["check", "--content", dir]);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(
      /manifest\.json:\d+:\d+ #\/base_url: error: base_url "https:\/\/x\.org:99999" cannot be used/,
    );
  });

  it("verify --base-url takes the same check (http allowed): exit 2", () => {
    const r = cli(["verify", "http://127.0.0.1:1/", "--base-url", "https://x.org:abc"]);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--base-url "https:\/\/x\.org:abc" cannot be used/);
  });
});
