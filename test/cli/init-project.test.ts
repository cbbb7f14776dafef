// test/cli/init-project.test.ts
// Issue 25 point 1: `init` sets up a project: it creates what is missing and never overwrites; in package.json and
// .gitignore it only adds; running it twice changes nothing; it prints what it added and what it left alone.

import { chmod, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parse as parseToml } from "smol-toml";
import { afterAll, describe, expect, it } from "vitest";
import { resolveOptions } from "../../src/cli/options.js";
import { removeDir, tmpDir } from "../helpers/fixtures.js";
import { cli, STACK_LINE } from "./run.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));
const temp = async (): Promise<string> => {
  const dir = await tmpDir("bis-init-");
  temps.push(dir);
  return dir;
};

/** Every file under `dir` with its text (content files as bytes in hex), to compare two states. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, file)] = (await readFile(file)).toString("hex");
  }
  return out;
}

const read = async (dir: string, file: string): Promise<string> => readFile(path.join(dir, file), "utf8");

describe("init in an empty folder", () => {
  it("writes content, a config file, package.json, .gitignore and netlify.toml, and says what it added", async () => {
    const cwd = await temp();
    const r = await cli("init", "--cwd", cwd);
    expect(r.code).toBe(0);
    expect((await readdir(cwd)).sort()).toEqual([
      ".gitignore",
      "build-index-site.config.json",
      "content",
      "netlify.toml",
      "package.json",
    ]);
    const added = r.stdout
      .split("\n")
      .slice(
        1,
        r.stdout
          .split("\n")
          .indexOf(
            "build-index-site comes from github:build-index-site/build-index-site (the git repository: the package is not on the npm registry yet).",
          ),
      );
    expect(r.stdout.split("\n")[0]).toBe("Added:");
    expect(added.map((l) => l.trim().split(/[ :]/)[0])).toEqual([
      "content/",
      "build-index-site.config.json",
      "package.json",
      ".gitignore",
      "netlify.toml",
    ]);
    expect(r.stdout).not.toMatch(/Left alone/);

    const pkg = JSON.parse(await read(cwd, "package.json")) as Record<string, unknown>;
    expect(pkg).toEqual({
      name: path.basename(cwd).toLowerCase(),
      private: true,
      scripts: {
        build: "build-index-site",
        dev: "build-index-site dev",
        preview: "build-index-site preview",
        check: "build-index-site check",
      },
      devDependencies: { "build-index-site": "github:build-index-site/build-index-site" },
    });
    expect((await read(cwd, ".gitignore")).split("\n")).toEqual(
      expect.arrayContaining(["dist/", ".netlify/", ".vercel/", ".build-index-site/", ".wrangler/", "node_modules/"]),
    );

    const toml = parseToml(await read(cwd, "netlify.toml")) as {
      build: { command: string; publish: string; environment: { NODE_VERSION: string } };
    };
    expect(toml.build).toEqual({
      command: "npx build-index-site",
      publish: ".build-index-site/dist/hosts/netlify",
      environment: { NODE_VERSION: "22" },
    });
    const comment = (await read(cwd, "netlify.toml"))
      .split("\n")
      .filter((l) => l.startsWith("#"))
      .join(" ");
    expect(comment).toMatch(/dist\//);
    expect(comment).toMatch(/\.netlify\/v1\//);
    expect(comment).not.toMatch(/_redirects|_headers/);

    // The config file is valid and points at the content folder init wrote.
    const options = resolveOptions({}, cwd);
    expect(options).toMatchObject({ config: "build-index-site.config.json", content: "content", out: "dist" });
    const config = JSON.parse(await read(cwd, "build-index-site.config.json")) as { $schema: string };
    expect(config.$schema).toBe("./node_modules/build-index-site/schemas/build-index-site.config.schema.json");
  });

  it("run twice changes nothing and lists everything it left alone", async () => {
    const cwd = await temp();
    expect((await cli("init", "--cwd", cwd)).code).toBe(0);
    const before = await snapshot(cwd);
    const again = await cli("init", "--cwd", cwd);
    expect(again.code).toBe(0);
    expect(await snapshot(cwd)).toEqual(before);
    expect(again.stdout).toMatch(
      /^Nothing to add; left alone \(already there\):\n {2}content\/ \(not empty\)\n {2}build-index-site\.config\.json\n {2}package\.json devDependencies\.build-index-site \("github:build-index-site\/build-index-site"\)\n {2}\.gitignore \(ignores the outputs already\)\n {2}netlify\.toml\n/,
    );
    expect(again.stdout).toMatch(
      /^build-index-site comes from package\.json's own spec: github:build-index-site\/build-index-site\.$/m,
    );
  });
});

describe("init where files exist", () => {
  it("adds to package.json only what is missing: keeps every key, value, script and the indentation", async () => {
    const cwd = await temp();
    const original = {
      name: "mine",
      version: "1.2.3",
      scripts: { build: "make", test: "vitest" },
      dependencies: { lodash: "^4" },
    };
    await writeFile(path.join(cwd, "package.json"), `${JSON.stringify(original, null, 4)}\n`);
    const r = await cli("init", "--cwd", cwd);
    expect(r.code).toBe(0);
    const text = await read(cwd, "package.json");
    expect(text).toMatch(/^\{\n {4}"name": "mine",\n/);
    expect(JSON.parse(text)).toEqual({
      ...original,
      scripts: {
        build: "make",
        test: "vitest",
        dev: "build-index-site dev",
        preview: "build-index-site preview",
        check: "build-index-site check",
      },
      devDependencies: { "build-index-site": "github:build-index-site/build-index-site" },
    });
    expect(r.stdout).toMatch(
      /^ {2}package\.json: scripts dev, preview, check; devDependencies\.build-index-site "github:build-index-site\/build-index-site"$/m,
    );
    expect(r.stdout).toMatch(/^ {2}package\.json scripts\.build \("make"\)$/m);
  });

  it("keeps the tool's existing spec and says so; warns for a path outside the project, not for one inside", async () => {
    const outside = await temp();
    await writeFile(
      path.join(outside, "package.json"),
      JSON.stringify({ devDependencies: { "build-index-site": "file:../build-index-site-0.1.0.tgz" } }),
    );
    const r = await cli("init", "--cwd", outside);
    expect(r.code).toBe(0);
    expect(JSON.parse(await read(outside, "package.json")).devDependencies).toEqual({
      "build-index-site": "file:../build-index-site-0.1.0.tgz",
    });
    expect(r.stdout).toMatch(
      /^build-index-site comes from package\.json's own spec: file:\.\.\/build-index-site-0\.1\.0\.tgz\.$/m,
    );
    expect(r.stderr).toMatch(
      /^warning: .*"file:\.\.\/build-index-site-0\.1\.0\.tgz".*Netlify's build .*cannot install it/,
    );

    const inside = await temp();
    await writeFile(
      path.join(inside, "package.json"),
      JSON.stringify({ dependencies: { "build-index-site": "file:vendor/build-index-site-0.1.0.tgz" } }),
    );
    const ok = await cli("init", "--cwd", inside);
    expect(ok.stderr).toBe("");
    expect(JSON.parse(await read(inside, "package.json"))).not.toHaveProperty("devDependencies");
  });

  it("appends to .gitignore only the lines it lacks (in any spelling), after the user's lines", async () => {
    const cwd = await temp();
    const mine = "# mine\n/dist\n.netlify\nnode_modules/\n*.log";
    await writeFile(path.join(cwd, ".gitignore"), mine);
    const r = await cli("init", "--cwd", cwd);
    expect(r.stdout).toMatch(/^ {2}\.gitignore: \.vercel\/ \.build-index-site\/ \.wrangler\/$/m);
    const text = await read(cwd, ".gitignore");
    expect(text.startsWith(`${mine}\n`)).toBe(true);
    expect(
      text
        .slice(mine.length)
        .split("\n")
        .filter((l) => l !== "" && !l.startsWith("#")),
    ).toEqual([".vercel/", ".build-index-site/", ".wrangler/"]);
    await cli("init", "--cwd", cwd);
    expect(await read(cwd, ".gitignore")).toBe(text);
  });

  it("leaves a config file that is there alone (also package.json's key)", async () => {
    const cwd = await temp();
    await writeFile(
      path.join(cwd, "package.json"),
      JSON.stringify({ name: "x", "build-index-site": { content: "site" } }),
    );
    const r = await cli("init", "site", "--cwd", cwd);
    expect(r.code).toBe(0);
    expect((await readdir(cwd)).includes("build-index-site.config.json")).toBe(false);
    expect(r.stdout).toMatch(/^ {2}package\.json "build-index-site"$/m);
    expect(JSON.parse(await read(cwd, "package.json"))["build-index-site"]).toEqual({ content: "site" });
  });

  it("without [dir], creates the content folder the config file names", async () => {
    const cwd = await temp();
    await writeFile(
      path.join(cwd, "package.json"),
      JSON.stringify({ name: "x", "build-index-site": { content: "src/site" } }),
    );
    expect((await cli("init", "--cwd", cwd)).code).toBe(0);
    expect((await readdir(path.join(cwd, "src/site"))).sort()).toEqual([
      "config-reference.txt",
      "config.json",
      "extensionMap.json",
      "icons",
      "icons.json",
      "manifest.json",
    ]);
    expect((await readdir(cwd)).includes("content")).toBe(false);
  });

  it("refuses a package.json that is not a JSON object with exit 2, and writes nothing at all", async () => {
    const cwd = await temp();
    await writeFile(path.join(cwd, "package.json"), "{ not json");
    const r = await cli("init", "--cwd", cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^package\.json is not a JSON object .*nothing was changed\./);
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect(await readdir(cwd)).toEqual(["package.json"]);
  });

  it("refuses a --cwd that is not a folder with exit 2", async () => {
    const r = await cli("init", "--cwd", path.join(await temp(), "missing"));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^--cwd .*missing is not a folder\./);
  });

  it("a package.json that is a folder: one line naming it, a hint without --out, exit 1, nothing written", async () => {
    const cwd = await temp();
    await mkdir(path.join(cwd, "package.json"));
    const r = await cli("init", "--cwd", cwd);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^Cannot read .*package\.json: illegal operation on a directory\.\n {2}.*package\.json is a folder: move it away, or run init in another folder \(--cwd <dir>\)\.$/,
    );
    expect(r.stderr).not.toMatch(/--out|Internal error/);
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect(await readdir(cwd)).toEqual(["package.json"]);
  });

  it.skipIf(process.getuid?.() === 0)(
    "a folder it may not write: one line naming the file, a hint without --out, exit 1",
    async () => {
      const cwd = await temp();
      await mkdir(path.join(cwd, "ro"));
      await chmod(path.join(cwd, "ro"), 0o555);
      try {
        const r = await cli("init", "--cwd", path.join(cwd, "ro"));
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(/^Cannot write .*ro\/content\/manifest\.json: permission denied\./);
        expect(r.stderr).toMatch(/--cwd/);
        expect(r.stderr).not.toMatch(/--out/);
        expect(r.stderr).not.toMatch(STACK_LINE);
      } finally {
        await chmod(path.join(cwd, "ro"), 0o755);
      }
    },
  );
});
