// test/cli/cli.slow.test.ts
// The installed command as a user runs it (the compiled bin; `npm test` compiles first): help, exit codes,
// one-line reasons without stack traces, and the preview's URL line.

import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { DEMO_CONTENT, REPO, tempDirs, TEST_EPOCH } from "../helpers/fixtures.js";

const BIN = path.join(REPO, "bin/build-index-site.js");
const temp = tempDirs();

function run(args: string[], cwd = REPO) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, SOURCE_DATE_EPOCH: TEST_EPOCH },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const noStack = (text: string): void => expect(text).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);

describe("build-index-site", () => {
  it("has help for the program and each command", () => {
    const top = run(["--help"]);
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/build \[options\]/);
    expect(top.stdout).toMatch(/preview \[options\]/);
    expect(run(["build", "--help"]).stdout).toMatch(/--content <dir>[\s\S]*--out <dir>[\s\S]*--base-url <url>/);
    expect(run(["preview", "--help"]).stdout).toMatch(/--dir <dir>[\s\S]*--port <n>[\s\S]*--host <addr>/);
  });

  it("builds with no arguments from ./content into ./dist (the default command)", async () => {
    const cwd = await temp();
    await mkdir(path.join(cwd, "content"));
    const { cpSync } = await import("node:fs");
    cpSync(DEMO_CONTENT, path.join(cwd, "content"), { recursive: true });
    const r = run([], cwd);
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd()).toMatch(
      /^Built dist\/: \d+ responses, \d+ route rules, \d+ files \(\d+(\.\d)? kB\) in (\d+ ms|\d+(\.\d)? s)\.$/,
    ); // seconds on a busy machine
    expect(existsSync(path.join(cwd, "dist/api/findIcon/file/php.json"))).toBe(true);
    expect(existsSync(path.join(cwd, ".build-index-site/dist/routes.json"))).toBe(true);
    expect(existsSync(path.join(cwd, "dist/routes.json"))).toBe(false);
  });

  it("takes --content, --out and --base-url", async () => {
    const out = path.join(await temp(), "site");
    const r = run(["build", "--content", DEMO_CONTENT, "--out", out, "--base-url", "https://cdn.example.net/indexer"]);
    expect(r.code).toBe(0);
    const { readFileSync } = await import("node:fs");
    const info = JSON.parse(readFileSync(path.join(out, "api/info.json"), "utf8")) as { icon_base_url: string };
    expect(info.icon_base_url).toBe("https://cdn.example.net/indexer/icons/");
  });

  it("fails with exit 1 and a one-line reason per problem for a folder without content files", async () => {
    const r = run(["build", "--content", await temp(), "--out", path.join(await temp(), "o")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/manifest\.json.*missing/);
    noStack(r.stderr);
  });

  it("names the file and line:column of a JSON syntax error", async () => {
    const content = await temp();
    const { cpSync } = await import("node:fs");
    cpSync(DEMO_CONTENT, content, { recursive: true });
    await writeFile(path.join(content, "icons.json"), '{\n  "php": "php.png",\n  "js" "js.svg"\n}\n');
    const r = run(["build", "--content", content, "--out", path.join(await temp(), "o")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/icons\.json:3:8/);
    noStack(r.stderr);
  });

  it("exits 2 on usage mistakes", () => {
    expect(run(["--bogus"]).code).toBe(2);
    expect(run(["preview", "--port", "http"]).code).toBe(2);
    expect(run(["build", "--content", path.join(REPO, "no-such-folder")]).code).toBe(2);
    const r = run(["build", "--content", DEMO_CONTENT, "--out", DEMO_CONTENT]);
    expect(r.code).toBe(2);
    noStack(r.stderr);
  });

  it("prints its version, and a typo of a command is not taken as an argument of build", () => {
    const v = run(["--version"]);
    expect(v.code).toBe(0);
    expect(v.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const typo = run(["chek"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^error: unknown command 'chek' \(did you mean check\?\)$/m);
    noStack(typo.stderr);
  });

  it("prints no colour codes to a pipe, and colours with FORCE_COLOR=1 (unless FORCE_COLOR=0)", async () => {
    const out = path.join(await temp(), "site");
    const env = (extra: Record<string, string>) => ({
      ...process.env,
      SOURCE_DATE_EPOCH: TEST_EPOCH,
      NO_COLOR: "",
      FORCE_COLOR: "",
      ...extra,
    });
    const piped = spawnSync(process.execPath, [BIN, "build", "--content", DEMO_CONTENT, "--out", out, "--force"], {
      encoding: "utf8",
      env: env({}),
    });
    expect(piped.stdout).toMatch(/^Built /);
    expect(piped.stdout).not.toMatch(/\x1b\[/);
    const forced = spawnSync(process.execPath, [BIN, "build", "--content", DEMO_CONTENT, "--out", out, "--force"], {
      encoding: "utf8",
      env: env({ FORCE_COLOR: "1" }),
    });
    expect(forced.stdout).toMatch(/^\x1b\[32mBuilt\x1b\[39m /);
    const off = spawnSync(process.execPath, [BIN, "build", "--content", DEMO_CONTENT, "--out", out, "--force"], {
      encoding: "utf8",
      env: env({ FORCE_COLOR: "0" }),
    });
    expect(off.stdout).not.toMatch(/\x1b\[/);
  });

  it("runs the documented programmatic API example as written (against the compiled package)", async () => {
    const readme = readFileSync(path.join(REPO, "docs/reference.md"), "utf8");
    const example = /## Programmatic API\n\n```js\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const cwd = await temp();
    cpSync(DEMO_CONTENT, path.join(cwd, "content"), { recursive: true });
    const script = path.join(cwd, "example.mjs");
    await writeFile(
      script,
      example!.replace(
        'from "build-index-site"',
        `from ${JSON.stringify(pathToFileURL(path.join(REPO, "lib/index.js")).href)}`,
      ),
    );
    const r = spawnSync(process.execPath, [script], { cwd, encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/answers: \d+, rules: \d+, files: \d+, bytes: \d+/);
    expect(r.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/m);
    // hosts: ["netlify"] is Netlify's edge output: the Frameworks API folder beside dist/, and no other host's files.
    expect(existsSync(path.join(cwd, ".netlify/v1/config.json"))).toBe(true);
    expect(existsSync(path.join(cwd, ".build-index-site/dist/hosts/netlify-static"))).toBe(false);
    expect(existsSync(path.join(cwd, ".build-index-site/dist/hosts/vercel-static"))).toBe(false);
    expect(existsSync(path.join(cwd, ".build-index-site/dist/hosts/apache"))).toBe(false);
  });

  it("refuses to preview a folder that is not a built site", async () => {
    const r = run(["preview", "--dir", await temp(), "--port", "0"]);
    expect(r.code).toBe(2); // a folder that is not a build could not be checked
    expect(r.stderr).toMatch(/is not a build of build-index-site: .*build\.json is missing/);
    noStack(r.stderr);
  });

  it("previews on port 0, printing one line with the URL, until killed", async () => {
    const out = path.join(await temp(), "site");
    expect(run(["build", "--content", DEMO_CONTENT, "--out", out]).code).toBe(0);
    const child = spawn(process.execPath, [BIN, "preview", "--dir", out, "--port", "0"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let text = "";
        child.stdout.on("data", (chunk: Buffer) => {
          text += chunk.toString();
          const m = /Preview: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(text);
          if (m) resolve(m[1]!);
        });
        child.on("exit", (code) => reject(new Error(`preview exited with ${code}`)));
      });
      const res = await fetch(`${url}api.php?action=config`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { version: string }).version).toBe("1.2.0");
      // One line per request: method, the URL as sent, status, milliseconds.
      const logged = await new Promise<string>((resolve) => {
        let text = "";
        const check = (): void => {
          const m = /^GET \/api\.php\?action=config 200 \d+\.\d ms$/m.exec(text);
          if (m) resolve(m[0]);
        };
        child.stdout.on("data", (chunk: Buffer) => {
          text += chunk.toString();
          check();
        });
        setTimeout(() => resolve(text), 5000);
      });
      expect(logged).toMatch(/^GET \/api\.php\?action=config 200 \d+\.\d ms$/);
    } finally {
      child.kill("SIGTERM");
    }
  });
});
