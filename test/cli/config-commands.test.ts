// test/cli/config-commands.test.ts
// Issue 55 point 2: every command that reads content or a build by default (build, check, dev, preview, verify) reads
// the config file, found from the current folder or named by --config: with "out": "public" in it, each works on
// public/ (verify said "dist does not exist" and exited 2). diff takes both sides as arguments and reads no config.

import { execFile, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { cp, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { startPreview } from "../../src/preview/server.js";
import { DEMO_CONTENT, REPO, removeDir, tmpDir } from "../helpers/fixtures.js";
import { cli } from "./run.js";

const BIN = path.join(REPO, "bin/build-index-site.js");
const CONFIG = "build-index-site.config.json";
const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

/** A project: the demo content in site/ and a config file that names it and "out": "public". */
async function project(): Promise<{ dir: string; config: string }> {
  const dir = await tmpDir("bis-config-cmd-");
  temps.push(dir);
  await cp(DEMO_CONTENT, path.join(dir, "site"), { recursive: true });
  await writeFile(path.join(dir, CONFIG), JSON.stringify({ content: "site", out: "public" }));
  return { dir, config: path.join(dir, CONFIG) };
}

/** Runs the installed command in `cwd` (where it finds the config file) to its end. */
const run = (cwd: string, ...args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });

/** Files under a folder, counted on disk. */
const filesIn = (dir: string): number =>
  readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;

/** Starts a serving command (preview, dev) in `cwd`; resolves with its URL once it listens. */
async function serving(
  cwd: string,
  ...args: string[]
): Promise<{ url: string; child: ChildProcess; text: () => string }> {
  const child = spawn(process.execPath, [BIN, ...args, "--port", "0"], { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  child.stderr.on("data", (d: Buffer) => (text += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      text += d.toString();
      const m = /^Preview: (http:\/\/\S+\/)/m.exec(text);
      if (m) resolve(m[1]!);
    });
    child.on("exit", (code) => reject(new Error(`${args[0]} exited with ${code}: ${text}`)));
  });
  return { url, child, text: () => text };
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((done) => (child.exitCode !== null ? done(null) : child.once("exit", done)));
  child.kill("SIGTERM");
  await exited;
}

describe('every command reads the config file ("out": "public")', () => {
  it("build: writes public/, found from the current folder", async () => {
    const { dir } = await project();
    const r = run(dir, "build");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Built public\/: /);
    expect(existsSync(path.join(dir, "public/index.html"))).toBe(true);
    expect(existsSync(path.join(dir, "dist"))).toBe(false);
  });

  it("check: checks site/, and counts the files build writes into public/", async () => {
    const { dir, config } = await project();
    const checked = run(dir, "check");
    expect(checked.status).toBe(0);
    expect(checked.stdout).toMatch(new RegExp(`^Checked site/ \\(config ${CONFIG}\\): no errors`));
    // --config names it from anywhere.
    expect((await cli("check", "--config", config)).code).toBe(0);
    expect(run(dir, "build", "-q").status).toBe(0);
    // Issue 55 point 8: check said 222 files where build wrote 91; both count the files of public/, as on disk.
    const counted = Number(/, (\d+) files would be written/.exec(checked.stdout)![1]);
    expect(counted).toBe(filesIn(path.join(dir, "public")));
    expect(run(dir, "build", "--force").stdout).toMatch(new RegExp(`, ${counted} files \\(`));
  });

  it("preview: serves public/ (and says public does not exist before a build)", async () => {
    const { dir, config } = await project();
    const before = await cli("preview", "--config", config, "--port", "0");
    expect(before.code).toBe(2);
    expect(before.stderr).toMatch(/public does not exist: there is no build to read\./);
    expect(before.stderr).not.toMatch(/dist/);
    expect(run(dir, "build", "-q").status).toBe(0);
    const preview = await serving(dir, "preview");
    try {
      const res = await fetch(`${preview.url}api.php?action=config`);
      expect(res.status).toBe(200);
    } finally {
      await stop(preview.child);
    }
  });

  it("dev: builds site/ into public/ and serves it", async () => {
    const { dir } = await project();
    const dev = await serving(dir, "dev", "-q");
    try {
      expect(existsSync(path.join(dir, ".build-index-site/public/build.json"))).toBe(true);
      expect(existsSync(path.join(dir, "dist"))).toBe(false);
      expect(dev.text()).toMatch(/watching site\//);
      expect((await fetch(`${dev.url}api.php?action=config`)).status).toBe(200);
    } finally {
      await stop(dev.child);
    }
  }, 60_000);

  it("verify: compares with public/ (it said dist does not exist and exited 2)", async () => {
    const { dir, config } = await project();
    expect(run(dir, "build", "-q").status).toBe(0);
    const preview = await startPreview({ dir: path.join(dir, "public"), port: 0, host: "127.0.0.1" });
    try {
      // Found from the current folder, as the issue ran it (async: the preview answers from this process).
      const found = await promisify(execFile)(process.execPath, [BIN, "verify", preview.url], { cwd: dir });
      expect(found.stdout).toMatch(/^OK: every precomputed request matches\.$/m);
      const named = await cli("verify", preview.url, "--config", config);
      expect(named.code).toBe(0);
      // --dir wins over the file's out.
      const flag = await cli("verify", preview.url, "--config", config, "--dir", path.join(dir, "nowhere"));
      expect(flag.code).toBe(2);
      expect(flag.stderr).toMatch(/nowhere does not exist/);
    } finally {
      await preview.close();
    }
  });

  it('after "out" changes, the folders the earlier build left are named with the command that removes them', async () => {
    const { dir } = await project();
    await writeFile(path.join(dir, CONFIG), JSON.stringify({ content: "site" }));
    expect(run(dir, "build", "-q").status).toBe(0);
    await writeFile(path.join(dir, CONFIG), JSON.stringify({ content: "site", out: "public" }));
    const refused = run(dir, "build");
    expect(refused.status).toBe(2);
    const command =
      "rm -rf dist .build-index-site/dist .build-index-site/dist.* .netlify/v1 .vercel/output .wrangler/deploy";
    expect(refused.stderr).toBe(
      '.netlify/v1 belongs to the build of dist, not of the output folder public ("out" in build-index-site.config.json): both sites would write it.\n' +
        `  If dist was this site's earlier output folder, remove what its build left: ${command}. ` +
        "Else build each site in a folder of its own (e.g. site-b/public), or leave the host out of --hosts.\n",
    );
    // The command, run as it is printed, leaves nothing of the earlier build, and the build goes on.
    expect(spawnSync("sh", ["-c", command], { cwd: dir }).status).toBe(0);
    expect(readdirSync(path.join(dir, ".build-index-site"))).toEqual([]);
    expect(run(dir, "build", "-q").status).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(
      [".build-index-site", ".netlify", ".vercel", ".wrangler", CONFIG, "public", "site"].sort(),
    );
  });

  it("diff: takes both sides as arguments and reads no config file (a broken one does not stop it)", async () => {
    const { dir } = await project();
    await writeFile(path.join(dir, CONFIG), '{ "contnet": ');
    const r = run(dir, "diff", "site", DEMO_CONTENT, "--format", "text");
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
  });
});
