// test/cli/config.test.ts
// Issue 25 point 2: the config file (build-index-site.config.json or package.json's "build-index-site" key, or
// --config) feeds every command; flags override it; its mistakes are usage errors (exit 2) with file, line:column and
// the nearest valid key; --json and check name the file that was used. Issue 55 point 5: every mistake at once,
// worded as the content's are, with "did you mean" for hosts too, and never as a flag the user did not pass.

import { spawnSync } from "node:child_process";
import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveOptions } from "../../src/cli/options.js";
import { HOST_NAMES } from "../../src/hosts/names.js";
import { DEMO_CONTENT, REPO, removeDir, tmpDir } from "../helpers/fixtures.js";
import { cli, STACK_LINE } from "./run.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

/** A project folder with a copy of the demo content in site/ and `files` written into it. */
async function project(files: Record<string, string> = {}): Promise<string> {
  const dir = await tmpDir("bis-config-");
  temps.push(dir);
  await cp(DEMO_CONTENT, path.join(dir, "site"), { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  return dir;
}

const CONFIG = "build-index-site.config.json";

describe("the config file", () => {
  it("gives build its content, out, hosts and strict; paths are relative to the config file's folder", async () => {
    const dir = await project({
      [CONFIG]: JSON.stringify({ content: "site", out: "public", hosts: ["apache"], strict: true }),
    });
    const r = await cli("build", "--config", path.join(dir, CONFIG), "--json");
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { ok: boolean; config: string };
    expect(report.ok).toBe(true);
    expect(path.resolve(report.config)).toBe(path.join(dir, CONFIG));
    expect(existsSync(path.join(dir, ".build-index-site/public/hosts/apache/.htaccess"))).toBe(true);
    expect(existsSync(path.join(dir, ".build-index-site/public/hosts/cloudflare"))).toBe(false); // only apache's files: hosts came from the file
    expect(existsSync(path.join(dir, ".netlify"))).toBe(false);
  });

  it("is overridden by flags", async () => {
    const dir = await project({ [CONFIG]: JSON.stringify({ content: "site", out: "public", hosts: ["apache"] }) });
    const out = path.join(dir, "elsewhere");
    const r = await cli("build", "--config", path.join(dir, CONFIG), "--out", out, "--hosts", "nginx", "-q");
    expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(existsSync(path.join(dir, ".build-index-site/elsewhere/hosts/nginx/nginx.conf"))).toBe(true);
    expect(existsSync(path.join(dir, ".build-index-site/elsewhere/hosts/apache"))).toBe(false);
    expect(existsSync(path.join(dir, "public"))).toBe(false);
  });

  it('is found from the current folder upwards, also as package.json\'s "build-index-site" key', async () => {
    const dir = await project({
      "package.json": JSON.stringify({ name: "x", "build-index-site": { content: "site", out: "web" } }),
    });
    await mkdir(path.join(dir, "sub"));
    const bin = path.join(REPO, "bin/build-index-site.js");
    const r = spawnSync(process.execPath, [bin, "check"], { cwd: path.join(dir, "sub"), encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Checked \.\.\/site\/ \(config \.\.\/package\.json\): no errors/);
    const options = resolveOptions({}, path.join(dir, "sub"));
    expect(options).toMatchObject({ content: "../site", out: "../web", config: path.join("..", "package.json") });
  });

  it("without one, check says so and --json reports config: null", async () => {
    const r = await cli("check", "--content", DEMO_CONTENT);
    expect(r.stdout).toMatch(/^Checked .+ \(no config file\): no errors/);
    const json = JSON.parse((await cli("check", "--content", DEMO_CONTENT, "--json")).stdout) as { config: unknown };
    expect(json.config).toBeNull();
  });

  it("sets exclude for the build (replacing the default list)", async () => {
    const dir = await project({
      [CONFIG]: JSON.stringify({ content: "site", out: "public", exclude: ["*.draft.png"] }),
      "site/icons/new.draft.png": "x",
    });
    await writeFile(path.join(dir, "site/icons/Thumbs.db"), "x");
    expect((await cli("build", "--config", path.join(dir, CONFIG), "-q")).code).toBe(0);
    expect(existsSync(path.join(dir, "public/icons/new.draft.png"))).toBe(false);
    expect(existsSync(path.join(dir, "public/icons/Thumbs.db"))).toBe(true); // the default list was replaced
  });

  it("sets preview's folder, port and host (flags win)", async () => {
    const dir = await project({ [CONFIG]: JSON.stringify({ out: "public", port: 0, host: "localhost" }) });
    const file = path.join(dir, CONFIG);
    expect(resolveOptions({ config: file }, dir)).toMatchObject({ out: "public", port: 0, host: "localhost" });
    expect(resolveOptions({ config: file, dir: "other", port: 9000 }, dir)).toMatchObject({
      out: "other",
      port: 9000,
      host: "localhost",
    });
    expect(resolveOptions({}, dir)).toMatchObject({ config: CONFIG, out: "public" });
  });

  it("lists in its schema's hosts every host name, plus default and all", async () => {
    const schema = JSON.parse(
      await readFile(path.join(REPO, "schemas", "build-index-site.config.schema.json"), "utf8"),
    ) as {
      properties: { hosts: { items: { enum: string[] } } };
    };
    expect(schema.properties.hosts.items.enum.sort()).toEqual([...HOST_NAMES, "default", "all"].sort());
  });
});

describe("a mistake in the config file is exit 2 with where it is", () => {
  const mistake = async (files: Record<string, string>, ...args: string[]) => {
    const dir = await project(files);
    const r = await cli(...args.map((a) => a.replace("<dir>", dir)));
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(STACK_LINE);
    return { dir, stderr: r.stderr.replaceAll(`${path.relative(process.cwd(), dir)}/`, "") };
  };
  /** The lines that place a problem (`file:line:column #pointer: error: …`), as content errors are printed. */
  const placed = (stderr: string): string[] => stderr.split("\n").filter((l) => / error: /.test(l));

  it("an unknown key: file, line:column of its entry, and the nearest valid key", async () => {
    const text = '{\n  "content": "site",\n  "contnet": "x"\n}\n';
    const { stderr } = await mistake({ [CONFIG]: text }, "check", "--config", `<dir>/${CONFIG}`);
    // Line 3, column 3: where the key "contnet" starts.
    expect(stderr.split("\n")[0]).toBe(`The config file ${CONFIG} has 1 error.`);
    expect(placed(stderr)).toEqual([
      `${CONFIG}:3:3 #/contnet: error: Unknown key "contnet" (did you mean content?). [CONFIG_KEY]`,
    ]);
    expect(stderr).toMatch(/The keys are content, out, baseUrl, hosts, strict, plan, exclude, catalogue, port, host/);
  });

  it('an unknown key in package.json\'s "build-index-site" object', async () => {
    const text = '{\n  "name": "x",\n  "build-index-site": {\n    "outt": "web"\n  }\n}\n';
    const { stderr } = await mistake({ "package.json": text }, "build", "--config", "<dir>/package.json");
    expect(placed(stderr)).toEqual([
      'package.json:4:5 #/build-index-site/outt: error: Unknown key "outt" (did you mean out?). [CONFIG_KEY]',
    ]);
  });

  it("a value of the wrong type, an unknown host, a base URL that is not https: in words, not the validator's", async () => {
    const port = await mistake({ [CONFIG]: '{ "port": "80" }' }, "check", "--config", `<dir>/${CONFIG}`);
    expect(placed(port.stderr)).toEqual([
      `${CONFIG}:1:11 #/port: error: "port" must be a whole number (got the string "80"). [CONFIG_VALUE]`,
    ]);
    const hosts = await mistake({ [CONFIG]: '{\n"hosts": ["ngnix"]\n}' }, "check", "--config", `<dir>/${CONFIG}`);
    expect(placed(hosts.stderr)).toEqual([
      `${CONFIG}:2:11 #/hosts/0: error: Unknown host "ngnix" in "hosts" (did you mean nginx?). [CONFIG_HOST]`,
    ]);
    const url = await mistake({ [CONFIG]: '{ "baseUrl": "http://x" }' }, "check", "--config", `<dir>/${CONFIG}`);
    expect(placed(url.stderr)).toEqual([
      `${CONFIG}:1:14 #/baseUrl: error: "baseUrl" "http://x" cannot be used: it must be an https:// URL without a trailing slash, query or fragment. [CONFIG_BASE_URL]`,
    ]);
    for (const { stderr } of [port, hosts, url]) expect(stderr).not.toMatch(/must be equal to|must match pattern/);
  });

  it("every mistake at once, in the order of the file, none as a flag the user did not pass", async () => {
    const text = [
      "{",
      '  "content": "contnet",',
      '  "hosts": ["netlfy", "nginx", "nginx"],',
      '  "port": 70000,',
      '  "outt": "public",',
      '  "plan": "pro",',
      '  "exclude": [3],',
      '  "baseUrl": "https://a..b"',
      "}",
    ].join("\n");
    // The project holds content/ (the demo's copy is in site/): "contnet" is near it.
    const { dir } = { dir: await project({ [CONFIG]: text }) };
    await cp(path.join(dir, "site"), path.join(dir, "content"), { recursive: true });
    const r = await cli("build", "--config", path.join(dir, CONFIG));
    expect(r.code).toBe(2);
    const stderr = r.stderr.replaceAll(`${path.relative(process.cwd(), dir)}/`, "");
    expect(stderr.split("\n")[0]).toBe(`The config file ${CONFIG} has 8 errors.`);
    expect(placed(stderr)).toEqual([
      `${CONFIG}:2:14 #/content: error: "content": "contnet" does not exist (did you mean "content"?). [CONFIG_CONTENT]`,
      `${CONFIG}:3:13 #/hosts/0: error: Unknown host "netlfy" in "hosts" (did you mean netlify?). [CONFIG_HOST]`,
      `${CONFIG}:3:32 #/hosts/2: error: "hosts" names "nginx" twice. [CONFIG_VALUE]`,
      `${CONFIG}:4:11 #/port: error: "port" must be from 0 to 65535 (got 70000). [CONFIG_VALUE]`,
      `${CONFIG}:5:3 #/outt: error: Unknown key "outt" (did you mean out?). [CONFIG_KEY]`,
      `${CONFIG}:6:11 #/plan: error: "plan" must be "free" or "paid" (got the string "pro"). [CONFIG_VALUE]`,
      `${CONFIG}:7:15 #/exclude/0: error: Item 1 of "exclude" must be a string (got number 3). [CONFIG_VALUE]`,
      `${CONFIG}:8:14 #/baseUrl: error: "baseUrl" "https://a..b" cannot be used: its host "a..b" has an empty label. [CONFIG_BASE_URL]`,
    ]);
    expect(stderr).not.toMatch(/--content|--out|--hosts|--port/);
    expect(existsSync(path.join(dir, "dist"))).toBe(false);
  });

  it("a content folder the file names that is not there: never reported as --content", async () => {
    const { stderr } = await mistake({ [CONFIG]: '{ "content": "contnet" }' }, "build", "--config", `<dir>/${CONFIG}`);
    expect(placed(stderr)).toEqual([
      `${CONFIG}:1:14 #/content: error: "content": "contnet" does not exist. [CONFIG_CONTENT]`,
    ]);
    expect(stderr).not.toMatch(/--content/);
    // A flag the user passes is named as the flag.
    const flagged = await cli("build", "--content", "/nonexistent/contnet");
    expect(flagged.stderr).toMatch(/^--content \/nonexistent\/contnet is not a folder\./);
  });

  it("no content folder at all: the default is named as the default, with the ways to name one", async () => {
    const dir = await tmpDir("bis-config-");
    temps.push(dir);
    const r = spawnSync(process.execPath, [path.join(REPO, "bin/build-index-site.js"), "check"], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      "No content folder: content/, the default, is not a folder here.\n" +
        `  Pass --content <dir>, set "content" in ${CONFIG}, or run \`build-index-site init\` to start one.\n`,
    );
  });

  it("a message from the build about the output folder names the config key or the default, not --out", async () => {
    const dir = await project({ [CONFIG]: JSON.stringify({ content: "site", out: "public" }), "public/mine.txt": "x" });
    const shown = (text: string): string => text.replaceAll(`${path.relative(process.cwd(), dir)}/`, "");
    const fromFile = await cli("build", "--config", path.join(dir, CONFIG));
    expect(fromFile.code).toBe(2);
    expect(shown(fromFile.stderr)).toMatch(
      new RegExp(`^The output folder public \\("out" in ${CONFIG}\\) is a folder that build-index-site did not write`),
    );
    // Passed as a flag, it is named as the flag.
    const flagged = await cli("build", "--config", path.join(dir, CONFIG), "--out", path.join(dir, "public"));
    expect(flagged.stderr).toMatch(/^--out \S+public is a folder that build-index-site did not write/);
    // The default: in a folder without a config file, with dist/ of the user's own.
    const bare = await tmpDir("bis-config-");
    temps.push(bare);
    await cp(DEMO_CONTENT, path.join(bare, "content"), { recursive: true });
    await mkdir(path.join(bare, "dist"));
    await writeFile(path.join(bare, "dist/mine.txt"), "x");
    const r = spawnSync(process.execPath, [path.join(REPO, "bin/build-index-site.js")], {
      cwd: bare,
      encoding: "utf8",
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^The output folder dist \(the default\) is a folder that build-index-site did not write/);
  });

  it("each command's run names its own folders' origins: dev's too, and two runs at once", async () => {
    const dir = await project({ [CONFIG]: JSON.stringify({ content: "site", out: "public" }), "public/mine.txt": "x" });
    const shown = (text: string): string => text.replaceAll(`${path.relative(process.cwd(), dir)}/`, "");
    const fromFile = new RegExp(`^The output folder public \\("out" in ${CONFIG}\\) is a folder`);
    const dev = await cli("dev", "--config", path.join(dir, CONFIG), "--port", "0", "-q");
    expect(dev.code).toBe(2);
    expect(shown(dev.stderr)).toMatch(fromFile);
    const [a, b] = await Promise.all([
      cli("build", "--config", path.join(dir, CONFIG)),
      cli("build", "--config", path.join(dir, CONFIG), "--out", path.join(dir, "public")),
    ]);
    expect(shown(a.stderr)).toMatch(fromFile);
    expect(b.stderr).toMatch(/^--out \S+public is a folder that build-index-site did not write/);
  });

  it('"default" or "all" beside other hosts, and "request" with only static hosts', async () => {
    const text = '{\n  "baseUrl": "request",\n  "hosts": ["nginx", "all"]\n}';
    const mixed = await mistake({ [CONFIG]: text }, "check", "--config", `<dir>/${CONFIG}`);
    expect(placed(mixed.stderr)).toEqual([
      `${CONFIG}:3:12 #/hosts: error: "hosts" names "all" beside other hosts: it stands for a whole set and goes alone. [CONFIG_HOST]`,
    ]);
    const only = await mistake(
      { [CONFIG]: '{ "baseUrl": "request", "hosts": ["nginx"] }' },
      "check",
      "--config",
      `<dir>/${CONFIG}`,
    );
    expect(placed(only.stderr)).toEqual([
      `${CONFIG}:1:14 #/baseUrl: error: "baseUrl": "request" needs an edge host (netlify, vercel or cloudflare), and "hosts" names only static hosts (nginx), whose answer files are written at build time and cannot take the request's origin. [CONFIG_BASE_URL]`,
    ]);
  });

  it("a file that is not JSON, and a --config that does not exist", async () => {
    const syntax = await mistake({ [CONFIG]: '{ "content": "site", }' }, "check", "--config", `<dir>/${CONFIG}`);
    expect(placed(syntax.stderr)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${CONFIG}:1:20: error: .*a comma after the last property.*The config file is not valid JSON\\. \\[JSON_SYNTAX\\]$`,
        ),
      ),
    ]);
    const missing = await mistake({}, "check", "--config", "<dir>/nope.json");
    expect(missing.stderr).toMatch(/^--config .*nope\.json: no such file\./);
  });

  it("--json reports every config mistake with its place", async () => {
    const dir = await project({ [CONFIG]: '{ "contnet": "x", "port": -1 }' });
    const r = await cli("build", "--config", path.join(dir, CONFIG), "--json");
    expect(r.code).toBe(2);
    const report = JSON.parse(r.stdout) as {
      ok: boolean;
      config: string;
      errors: Array<{ code: string; line: number; column: number }>;
    };
    expect(report.ok).toBe(false);
    expect(path.resolve(report.config)).toBe(path.join(dir, CONFIG));
    expect(report.errors).toMatchObject([
      { code: "CONFIG_KEY", line: 1, column: 3 },
      { code: "CONFIG_VALUE", line: 1, column: 27 },
    ]);
  });
});

describe("every usage error exits 2 without a stack trace", () => {
  it.each([
    ["build", "--base-url", "http://x"],
    ["check", "--base-url", "https://x/"],
    ["dev", "--base-url", "http://x", "--port", "0"],
    ["preview", "--port", "99999"],
    ["build", "--hosts", ""],
    ["build", "--bogus"],
    ["check", "extra-argument"],
    ["init", "--out", "x"],
    ["preview", "--config", "/nonexistent/build-index-site.config.json"],
  ])("%s %s %s", async (...args) => {
    const r = await cli(...args);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toBe("");
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect(r.stderr).not.toMatch(/Internal error/);
  });
});
