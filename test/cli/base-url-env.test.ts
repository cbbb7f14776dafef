// test/cli/base-url-env.test.ts
// Issue 24 point 3: `--base-url from-env` takes the deploy's own URL from the host's build environment (Netlify's
// URL or DEPLOY_PRIME_URL by context, Vercel's VERCEL_PROJECT_PRODUCTION_URL or VERCEL_URL, Cloudflare Pages'
// CF_PAGES_URL), says which variable it used, and falls back to manifest.json's base_url where none is set.

import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeFile } from "node:fs/promises";
import { baseUrlFromEnv } from "../../src/content/base-url-env.js";
import { resolveOptions } from "../../src/cli/options.js";
import { UsageError } from "../../src/errors.js";
import { DEMO_CONTENT, REPO, removeDir, tmpDir } from "../helpers/fixtures.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

/** The demo manifest's base_url (read from the content, not from the code under test). */
const MANIFEST_BASE = (
  JSON.parse(readFileSync(path.join(DEMO_CONTENT, "manifest.json"), "utf8")) as { base_url: string }
).base_url;

/** The build's environment without any host's variables (this test may itself run on a CI host). */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^(NETLIFY|CONTEXT|URL|DEPLOY_PRIME_URL|VERCEL.*|CF_PAGES.*)$/.test(k)) env[k] = v;
  }
  return { ...env, ...extra };
}

async function buildWith(extra: Record<string, string>): Promise<{ code: number | null; stdout: string; url: string }> {
  const root = await tmpDir("bis-base-env-");
  temps.push(root);
  const out = path.join(root, "dist");
  const r = spawnSync(
    process.execPath,
    [
      path.join(REPO, "bin/build-index-site.js"),
      "build",
      "--content",
      DEMO_CONTENT,
      "--out",
      out,
      "--hosts",
      "nginx",
      "--base-url",
      "from-env",
    ],
    { encoding: "utf8", env: cleanEnv(extra) },
  );
  const answer = JSON.parse(readFileSync(path.join(out, "api/findIcon/file/php.json"), "utf8")) as {
    icon: { url: string };
  };
  return { code: r.status, stdout: r.stdout, url: answer.icon.url };
}

describe("--base-url from-env", () => {
  it.each([
    [
      {
        NETLIFY: "true",
        CONTEXT: "production",
        URL: "https://icons.example.net",
        DEPLOY_PRIME_URL: "https://main--x.netlify.app",
      },
      "https://icons.example.net",
      "URL (Netlify, production)",
    ],
    [
      {
        NETLIFY: "true",
        CONTEXT: "deploy-preview",
        URL: "https://icons.example.net",
        DEPLOY_PRIME_URL: "https://deploy-preview-7--x.netlify.app",
      },
      "https://deploy-preview-7--x.netlify.app",
      "DEPLOY_PRIME_URL (Netlify, deploy-preview)",
    ],
    [
      {
        VERCEL: "1",
        VERCEL_ENV: "production",
        VERCEL_PROJECT_PRODUCTION_URL: "icons.example.com",
        VERCEL_URL: "x-abc123.vercel.app",
      },
      "https://icons.example.com",
      "VERCEL_PROJECT_PRODUCTION_URL (Vercel, production)",
    ],
    [
      {
        VERCEL: "1",
        VERCEL_ENV: "preview",
        VERCEL_PROJECT_PRODUCTION_URL: "icons.example.com",
        VERCEL_URL: "x-abc123.vercel.app",
      },
      "https://x-abc123.vercel.app",
      "VERCEL_URL (Vercel, preview)",
    ],
    [
      { CF_PAGES: "1", CF_PAGES_BRANCH: "feature", CF_PAGES_URL: "https://feature.x.pages.dev" },
      "https://feature.x.pages.dev",
      "CF_PAGES_URL (Cloudflare Pages, feature)",
    ],
  ])("%o: answers carry %s, and the build says which variable gave it", async (env, url, source) => {
    const r = await buildWith(env);
    expect(r.code).toBe(0);
    expect(r.url).toBe(`${url}/icons/php.png`);
    expect(r.stdout).toContain(`Base URL ${url} from ${source}.`);
  });

  it("outside a host's build (a local build), manifest.json's base_url, and it says so", async () => {
    const r = await buildWith({});
    expect(r.code).toBe(0);
    expect(r.url).toBe(`${MANIFEST_BASE}/icons/php.png`);
    expect(r.stdout).toMatch(/Base URL \S+ from no deploy URL in the environment .*: manifest\.json base_url\./);
  });

  it("--base-url http://x stays a flag error (exit 2)", () => {
    const r = spawnSync(
      process.execPath,
      [path.join(REPO, "bin/build-index-site.js"), "check", "--content", DEMO_CONTENT, "--base-url", "http://x"],
      { encoding: "utf8", env: cleanEnv({}) },
    );
    expect(r.status).toBe(2);
  });

  it("a value without a scheme gets https://, and a trailing slash is dropped", () => {
    expect(baseUrlFromEnv({ VERCEL: "1", VERCEL_URL: "a.vercel.app/" }).url).toBe("https://a.vercel.app");
    expect(
      baseUrlFromEnv({ NETLIFY: "true", CONTEXT: "branch-deploy", DEPLOY_PRIME_URL: "https://b--x.netlify.app/" }).url,
    ).toBe("https://b--x.netlify.app");
  });
});

describe("--base-url request", () => {
  const cli = (args: string[], extra: Record<string, string> = {}) =>
    spawnSync(process.execPath, [path.join(REPO, "bin/build-index-site.js"), ...args], {
      encoding: "utf8",
      env: cleanEnv(extra),
    });

  it("is refused (exit 2) when only static hosts are built: their answer files cannot take the request's origin", async () => {
    const root = await tmpDir("bis-base-request-");
    temps.push(root);
    const r = cli([
      "build",
      "--content",
      DEMO_CONTENT,
      "--out",
      path.join(root, "dist"),
      "--hosts",
      "nginx,apache",
      "--base-url",
      "request",
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--base-url request needs an edge host/);
  });

  it("with an edge host: the handler's data says so; a static host beside it gets a warning and the env's base URL", async () => {
    const root = await tmpDir("bis-base-request-");
    temps.push(root);
    const out = path.join(root, "dist");
    const r = cli(
      ["build", "--content", DEMO_CONTENT, "--out", out, "--hosts", "cloudflare,nginx", "--base-url", "request"],
      { NETLIFY: "true", CONTEXT: "deploy-preview", DEPLOY_PRIME_URL: "https://deploy-preview-7--x.netlify.app" },
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(
      "Base URL https://deploy-preview-7--x.netlify.app from DEPLOY_PRIME_URL (Netlify, deploy-preview).",
    );
    expect(r.stderr).toMatch(/warning: the static hosts \(nginx\) cannot answer with the request's origin/);
    const core = JSON.parse(readFileSync(path.join(out, "_edge-data/core.json"), "utf8")) as {
      requestOrigin?: boolean;
    };
    expect(core.requestOrigin).toBe(true);
    const answer = JSON.parse(readFileSync(path.join(out, "api/findIcon/file/php.json"), "utf8")) as {
      icon: { url: string };
    };
    expect(answer.icon.url).toBe("https://deploy-preview-7--x.netlify.app/icons/php.png");
  });

  it("an explicit https:// base URL or from-env leaves the handler on the build's base URL", async () => {
    const root = await tmpDir("bis-base-request-");
    temps.push(root);
    const out = path.join(root, "dist");
    expect(
      cli([
        "build",
        "--content",
        DEMO_CONTENT,
        "--out",
        out,
        "--hosts",
        "cloudflare",
        "--base-url",
        "https://icons.example.com",
      ]).status,
    ).toBe(0);
    const core = JSON.parse(readFileSync(path.join(out, "_edge-data/core.json"), "utf8")) as {
      requestOrigin?: boolean;
      baseUrl: string;
    };
    expect([core.requestOrigin, core.baseUrl]).toEqual([undefined, "https://icons.example.com"]);
  });
});

describe('"baseUrl": "request" in the config file', () => {
  it("is valid, and the flag takes precedence over it", async () => {
    const dir = await tmpDir("bis-base-request-config-");
    temps.push(dir);
    await writeFile(path.join(dir, "build-index-site.config.json"), JSON.stringify({ baseUrl: "request" }));
    const env = cleanEnv({
      NETLIFY: "true",
      CONTEXT: "deploy-preview",
      DEPLOY_PRIME_URL: "https://deploy-preview-7--x.netlify.app",
    });
    const fromConfig = resolveOptions({}, dir, env);
    expect([fromConfig.requestOrigin, fromConfig.baseUrl]).toEqual([true, "https://deploy-preview-7--x.netlify.app"]);
    const flag = resolveOptions({ baseUrl: "https://icons.example.com" }, dir, env);
    expect([flag.requestOrigin, flag.baseUrl]).toEqual([false, "https://icons.example.com"]);
  });

  it("with static hosts only, is a usage error", async () => {
    const dir = await tmpDir("bis-base-request-config-");
    temps.push(dir);
    await writeFile(
      path.join(dir, "build-index-site.config.json"),
      JSON.stringify({ baseUrl: "request", hosts: ["apache"] }),
    );
    expect(() => resolveOptions({}, dir, cleanEnv({}))).toThrow(UsageError);
  });
});
