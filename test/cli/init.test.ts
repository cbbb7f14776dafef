// test/cli/init.test.ts
// Issue 10 point 1: `init` writes a content folder that builds with --strict and no warning, a netlify.toml only
// where there is none, prints the next two commands, and refuses a folder that is not empty (exit 2, nothing changed).

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { imageSize } from "image-size";
import { afterAll, describe, expect, it } from "vitest";
import { init } from "../../src/cli/init.js";
import { compile } from "../../src/build.js";
import { removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { cli } from "./run.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));
const temp = async (): Promise<string> => {
  const dir = await tmpDir();
  temps.push(dir);
  return dir;
};

describe("init", () => {
  it("writes content that builds with --strict and 0 warnings, then the site answers findIcon from it", async () => {
    const cwd = await temp();
    const content = path.join(cwd, "content");
    const r = await cli("init", content);
    expect(r.code).toBe(0);
    for (const f of ["manifest.json", "config.json", "extensionMap.json", "icons.json", "icons/text.png", "icons/folder.png"]) {
      expect(existsSync(path.join(content, f)), f).toBe(true);
    }
    const compiled = await compile({ content, strict: true, sourceDateEpoch: TEST_EPOCH });
    expect(compiled.diagnostics).toEqual([]);
    const out = path.join(cwd, "dist");
    const built = await cli("build", "--content", content, "--out", out, "--strict");
    expect(built.code).toBe(0);
    expect(built.stderr).toBe("");
    const json = JSON.parse(readFileSync(path.join(out, "api/findIcon/file/json.json"), "utf8")) as { icon: { path: string } };
    expect(json.icon.path).toBe("icons/json.png");
  });

  it("writes tiny valid images: text.png and the folder icon are PNGs that image-size reads", async () => {
    const content = path.join(await temp(), "c");
    await init(content);
    for (const icon of readdirSync(path.join(content, "icons"))) {
      const bytes = readFileSync(path.join(content, "icons", icon));
      const size = imageSize(bytes);
      expect(size.type, icon).toBe(icon.endsWith(".svg") ? "svg" : "png");
      expect(size.width, icon).toBe(16);
      expect(bytes.length, icon).toBeLessThan(1024);
    }
  });

  it("prints the next two commands", async () => {
    const content = path.join(await temp(), "site-content");
    const r = await cli("init", content);
    const next = r.stdout.split("\n").slice(r.stdout.split("\n").indexOf("Next:") + 1);
    expect(next).toHaveLength(2);
    expect(next[0]).toMatch(new RegExp(`^  npx build-index-site --content ${content.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} --strict\\s+#`));
    expect(next[1]).toMatch(/^ {2}npx build-index-site preview\s+#/);
  });

  it("writes netlify.toml in the current folder only when there is none", async () => {
    const cwd = await temp();
    const first = await init("content", cwd);
    expect(first.netlify).toBe(true);
    const toml = readFileSync(path.join(cwd, "netlify.toml"), "utf8");
    expect(toml).toMatch(/^ {2}command = "npx build-index-site"$/m);
    expect(toml).toMatch(/^ {2}publish = "dist"$/m);
    const mine = "# my own\n";
    await writeFile(path.join(cwd, "netlify.toml"), mine);
    const second = await init("more", cwd);
    expect(second.netlify).toBe(false);
    expect(readFileSync(path.join(cwd, "netlify.toml"), "utf8")).toBe(mine);
    const other = await temp();
    await init("site/content", other);
    expect(readFileSync(path.join(other, "netlify.toml"), "utf8")).toMatch(/^ {2}command = "npx build-index-site --content site\/content"$/m);
  });

  it("refuses a folder that is not empty with exit 2 and changes nothing", async () => {
    const dir = await temp();
    await writeFile(path.join(dir, "notes.txt"), "mine");
    const r = await cli("init", dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not empty: init only writes into a new or empty folder, and nothing was changed\./);
    expect(readdirSync(dir)).toEqual(["notes.txt"]);
    const file = path.join(dir, "notes.txt");
    expect((await cli("init", file)).code).toBe(2);
    expect(readFileSync(file, "utf8")).toBe("mine");
  });

  it("accepts an empty folder", async () => {
    const dir = path.join(await temp(), "empty");
    await mkdir(dir);
    expect((await cli("init", dir)).code).toBe(0);
    expect(existsSync(path.join(dir, "icons.json"))).toBe(true);
  });
});
