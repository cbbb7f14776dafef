// test/content/hostile-content.test.ts
// Issue 27: published names that differ only in Unicode normalization are refused (exit 1) naming both files, as
// names that differ only in case already are; SVG files with active content are a warning that --strict refuses.

import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import { removeDir } from "../helpers/fixtures.js";
import { baseContentFolders, PNG, SVG } from "../helpers/base-content.js";

const { base, temps } = baseContentFolders();
afterAll(async () => {
  for (const t of temps) await removeDir(t);
});

async function check(dir: string, strict = false): Promise<{ code: number; text: string }> {
  const printed: string[] = [];
  const io = {
    out: (s: string): void => {
      printed.push(s);
    },
    err: (s: string): void => {
      printed.push(s);
    },
  };
  const code = await main(["node", "build-index-site", "check", "--content", dir, ...(strict ? ["--strict"] : [])], io);
  return { code, text: printed.join("\n") };
}

describe("issue 27: hostile content", () => {
  it("defect 6: café.png as NFC and as NFD is an error naming both files", async () => {
    const dir = await base();
    const nfc = "caf\u00e9.png";
    const nfd = "cafe\u0301.png";
    await writeFile(path.join(dir, "icons", nfc), PNG);
    await writeFile(path.join(dir, "icons", nfd), PNG);
    const r = await check(dir);
    expect(r.code).toBe(1);
    expect(r.text).toContain(nfc);
    expect(r.text).toContain(nfd);
    expect(r.text).toMatch(/normali[sz]ation/i);
  });

  it("names that differ only in case are still refused", async () => {
    const dir = await base();
    await writeFile(path.join(dir, "icons", "Dup.png"), PNG);
    await writeFile(path.join(dir, "icons", "dup.png"), PNG);
    const printed: string[] = [];
    const io = {
      out: (s: string): void => {
        printed.push(s);
      },
      err: (s: string): void => {
        printed.push(s);
      },
    };
    const out = path.join(temps[temps.length - 1]!, "..", `out-${path.basename(dir)}`);
    expect(await main(["node", "build-index-site", "build", "--content", dir, "--out", out], io)).toBe(1);
    expect(printed.join("\n")).toMatch(/Dup\.png[\s\S]*dup\.png|dup\.png[\s\S]*Dup\.png/);
    await removeDir(out);
  });

  it.each([
    ["script", "<script>alert(document.domain)</script>"],
    ["event handler", '<rect width="1" height="1" onload="alert(1)"/>'],
    ["javascript: URL", '<a href="javascript:alert(1)"><rect width="1" height="1"/></a>'],
    ["javascript: URL with entities", '<a href="&#106;avascript:alert(1)"><rect width="1" height="1"/></a>'],
    [
      "foreignObject",
      '<foreignObject width="1" height="1"><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>',
    ],
  ])("an SVG with a %s is a warning, and --strict refuses it", async (_, inner) => {
    const dir = await base();
    await writeFile(path.join(dir, "icons", "evil.svg"), SVG.replace("</svg>", `${inner}</svg>`));
    const plain = await check(dir);
    expect(plain.code).toBe(0);
    expect(plain.text).toContain("evil.svg");
    expect(plain.text).toMatch(/SVG/);
    expect((await check(dir, true)).code).toBe(1);
  });

  it("a plain SVG passes --strict", async () => {
    const dir = await base();
    await writeFile(path.join(dir, "icons", "fine.svg"), SVG);
    expect((await check(dir, true)).code).toBe(0);
  });
});
