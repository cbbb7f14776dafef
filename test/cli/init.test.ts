// test/cli/init.test.ts
// Issue 10 point 1: `init` writes a content folder that builds with --strict and no warning, a netlify.toml only
// where there is none, and prints the next commands. Issue 55 point 6: its base_url is a placeholder that is a
// warning (--strict refuses it) until the user sets theirs, and its config reference is served. Since issue 25 it sets up the whole project (see
// init-project.test.ts): a content folder that is there and not empty is left alone (exit 0, nothing in it changed);
// a file where the folder should be is refused (exit 2). Every run names its project folder with --cwd.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { imageSize } from "image-size";
import { afterAll, describe, expect, it } from "vitest";
import { initProject as init } from "../../src/init/project.js";
import { parse as parseToml } from "smol-toml";
import { compile } from "../../src/pipeline/compile.js";
import { startPreview } from "../../src/preview/server.js";
import { removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { cli, STACK_LINE } from "./run.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));
const temp = async (): Promise<string> => {
  const dir = await tmpDir();
  temps.push(dir);
  return dir;
};

describe("init", () => {
  it("writes content that builds with --strict and 0 warnings once it has a base URL; the site answers from it", async () => {
    const cwd = await temp();
    const content = path.join(cwd, "content");
    const r = await cli("init", "--cwd", cwd);
    expect(r.code).toBe(0);
    for (const f of [
      "manifest.json",
      "config.json",
      "config-reference.txt",
      "extensionMap.json",
      "icons.json",
      "icons/text.png",
      "icons/folder.png",
    ]) {
      expect(existsSync(path.join(content, f)), f).toBe(true);
    }
    const baseUrl = "https://icons.example.com";
    const compiled = await compile({ content, strict: true, baseUrl, sourceDateEpoch: TEST_EPOCH });
    expect(compiled.diagnostics).toEqual([]);
    const out = path.join(cwd, "dist");
    const built = await cli("build", "--content", content, "--out", out, "--strict", "--base-url", baseUrl);
    expect(built.code).toBe(0);
    expect(built.stderr).toBe("");
    const json = JSON.parse(readFileSync(path.join(out, "api/findIcon/file/json.json"), "utf8")) as {
      icon: { path: string };
    };
    expect(json.icon.path).toBe("icons/json.png");
  });

  it("writes a placeholder base URL: a warning at build and check time, which --strict refuses", async () => {
    const cwd = await temp();
    const content = path.join(cwd, "content");
    expect((await cli("init", "--cwd", cwd)).code).toBe(0);
    const placeholder = '"https://your-site.example"';
    const warning = new RegExp(
      `^content/manifest\\.json:3:15 #/base_url: warning: base_url is ${placeholder}, the placeholder that \`init\` wrote: every absolute URL in the answers would point there\\. \\[BASE_URL_PLACEHOLDER\\]$`,
      "m",
    );
    const shown = (text: string): string => text.replaceAll(`${cwd}/`, "");
    const checked = await cli("check", "--content", content);
    expect(checked.code).toBe(0);
    expect(shown(checked.stderr)).toMatch(warning);
    const strict = await cli("build", "--content", content, "--out", path.join(cwd, "dist"), "--strict");
    expect(strict.code).toBe(1);
    expect(shown(strict.stderr)).toMatch(/base_url is "https:\/\/your-site\.example", the placeholder/);
    expect(existsSync(path.join(cwd, "dist"))).toBe(false);
    // Without --strict it builds, with the warning; a base URL set in manifest.json leaves no warning.
    expect((await cli("build", "--content", content, "--out", path.join(cwd, "dist"), "-q")).code).toBe(0);
    const manifest = path.join(content, "manifest.json");
    await writeFile(
      manifest,
      readFileSync(manifest, "utf8").replace("https://your-site.example", "https://icons.example.com"),
    );
    expect(await cli("check", "--content", content, "--strict")).toMatchObject({ code: 0, stderr: "" });
  });

  it("serves its config reference: ?action=configReference answers 200 with the file", async () => {
    const cwd = await temp();
    expect((await cli("init", "--cwd", cwd)).code).toBe(0);
    const content = path.join(cwd, "content");
    const out = path.join(cwd, "dist");
    expect((await cli("build", "--content", content, "--out", out, "-q")).code).toBe(0);
    for (const semantics of ["edge", "static"] as const) {
      const preview = await startPreview({ dir: out, port: 0, host: "127.0.0.1", semantics });
      try {
        const response = await fetch(new URL("api.php?action=configReference", preview.url));
        expect(response.status, semantics).toBe(200);
        const body = (await response.json()) as { success: boolean; content: string; format: string };
        // As PHP answers it: the file's text as it is, format "text".
        expect(body).toMatchObject({ success: true, format: "text" });
        expect(body.content).toBe(readFileSync(path.join(content, "config-reference.txt"), "utf8"));
      } finally {
        await preview.close();
      }
    }
  });

  it("writes tiny valid images: text.png and the folder icon are PNGs that image-size reads", async () => {
    const cwd = await temp();
    const content = path.join(cwd, "c");
    await init("c", cwd);
    for (const icon of readdirSync(path.join(content, "icons"))) {
      const bytes = readFileSync(path.join(content, "icons", icon));
      const size = imageSize(bytes);
      expect(size.type, icon).toBe(icon.endsWith(".svg") ? "svg" : "png");
      expect(size.width, icon).toBe(16);
      expect(bytes.length, icon).toBeLessThan(1024);
    }
  });

  it("prints the next three commands (the config file names the content folder: no --content)", async () => {
    const cwd = await temp();
    const r = await cli("init", "site-content", "--cwd", cwd);
    const next = r.stdout.split("\n").slice(r.stdout.split("\n").indexOf("Next:") + 1);
    expect(next).toHaveLength(3);
    expect(next[0]).toMatch(/^ {2}npm install\s+#/);
    expect(next[1]).toMatch(
      /^ {2}npx build-index-site --strict\s+# .*, once base_url in site-content\/manifest\.json is the site's address$/,
    );
    expect(next[2]).toMatch(/^ {2}npx build-index-site preview\s+#/);
    expect(JSON.parse(readFileSync(path.join(cwd, "build-index-site.config.json"), "utf8"))).toMatchObject({
      content: "site-content",
    });
  });

  it("writes netlify.toml in the current folder only when there is none", async () => {
    const cwd = await temp();
    const first = await init("content", cwd);
    expect(first.added.some((l) => l.startsWith("netlify.toml"))).toBe(true);
    const toml = readFileSync(path.join(cwd, "netlify.toml"), "utf8");
    expect(toml).toMatch(/^ {2}command = "npx build-index-site"$/m);
    expect(toml).toMatch(/^ {2}publish = "\.build-index-site\/dist\/hosts\/netlify"$/m);
    const mine = "# my own\n";
    await writeFile(path.join(cwd, "netlify.toml"), mine);
    const second = await init("more", cwd);
    expect(second.kept).toContain("netlify.toml");
    expect(readFileSync(path.join(cwd, "netlify.toml"), "utf8")).toBe(mine);
    // Another content folder: the config file names it, so Netlify's command stays the plain one.
    const other = await temp();
    await init("site/content", other);
    expect(
      (parseToml(readFileSync(path.join(other, "netlify.toml"), "utf8")) as { build: { command: string } }).build
        .command,
    ).toBe("npx build-index-site");
    expect(JSON.parse(readFileSync(path.join(other, "build-index-site.config.json"), "utf8"))).toMatchObject({
      content: "site/content",
    });
  });

  it("leaves a content folder that is not empty alone and says so; refuses a file there with exit 2", async () => {
    const cwd = await temp();
    const dir = path.join(cwd, "mine");
    await mkdir(dir);
    await writeFile(path.join(dir, "notes.txt"), "mine");
    const r = await cli("init", dir, "--cwd", cwd);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Left alone \(already there\):\n(?: {2}.*\n)*? {2}.*mine\/ \(not empty\)$/m);
    expect(readdirSync(dir)).toEqual(["notes.txt"]);
    const file = path.join(dir, "notes.txt");
    const refused = await cli("init", file, "--cwd", cwd);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/notes\.txt exists and is not a folder/);
    expect(refused.stderr).not.toMatch(STACK_LINE);
    expect(readFileSync(file, "utf8")).toBe("mine");
  });

  it("accepts an empty folder", async () => {
    const cwd = await temp();
    const dir = path.join(cwd, "empty");
    await mkdir(dir);
    expect((await cli("init", dir, "--cwd", cwd)).code).toBe(0);
    expect(existsSync(path.join(dir, "icons.json"))).toBe(true);
  });
});
