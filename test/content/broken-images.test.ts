// test/content/broken-images.test.ts
// Issue 52 item 13: an image whose header reads right but which clients cannot decode (a PNG cut after its header, an
// SVG that is not well-formed XML, a GIF cut short) is a warning naming the file; --strict refuses it.

import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import { DEMO_CONTENT, removeDir } from "../helpers/fixtures.js";
import { writeBase } from "../helpers/base-content.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

async function check(files: Record<string, string | Buffer>, strict = false): Promise<{ code: number; err: string }> {
  const dir = await writeBase();
  temps.push(dir);
  for (const [name, bytes] of Object.entries(files)) await writeFile(path.join(dir, name), bytes);
  const err: string[] = [];
  const io = { out: (): void => {}, err: (l: string): void => void err.push(l) };
  const args = ["node", "build-index-site", "check", "--content", dir, "--verbose", ...(strict ? ["--strict"] : [])];
  return { code: await main(args, io), err: err.join("\n") };
}

const png = readFileSync(path.join(DEMO_CONTENT, "icons", "php.png"));
const CASES: Record<string, Buffer | string> = {
  "icons/cut.png": png.subarray(0, 33), // the signature and IHDR: image-size reads 16×16
  "icons/bad.svg": `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect></svg>`,
  "icons/cut.gif": Buffer.concat([Buffer.from("GIF89a"), Buffer.from([16, 0, 16, 0, 0, 0, 0])]),
};

describe("images that clients cannot decode", () => {
  it("each is a warning naming the file; the same files whole are not", async () => {
    const { code, err } = await check(CASES);
    expect(code, err).toBe(0);
    for (const name of Object.keys(CASES))
      expect(err).toMatch(
        new RegExp(
          `${name.replace(".", "\\.")}.*ICON_BROKEN|${name.replace(".", "\\.")}: warning: The image cannot be decoded`,
        ),
      );
    const whole = await check({
      "icons/whole.png": png,
      "icons/good.svg": `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect/></svg>`,
    });
    expect(whole.err).not.toMatch(/ICON_BROKEN|cannot be decoded/);
  });

  it("--strict refuses them (exit 1)", async () => {
    const { code, err } = await check({ "icons/cut.png": CASES["icons/cut.png"]! }, true);
    expect(code, err).toBe(1);
    expect(err).toMatch(/cut\.png.*cannot be decoded: it ends before its IEND chunk/);
  });
});
