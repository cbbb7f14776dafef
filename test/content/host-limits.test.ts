// test/content/host-limits.test.ts
// A per-host limit (more than 20,000 _redirects lines for one rule) is a content error that names the rule and the
// limit, found by compile({ hosts }) (what `check --hosts` runs), not an INTERNAL error with a stack trace.

import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compile } from "../../src/pipeline/compile.js";
import { ContentError } from "../../src/errors.js";
import { removeDir } from "../helpers/fixtures.js";
import { writeBase } from "../helpers/base-content.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

describe("per-host limits are content errors", () => {
  it("netlify-static-redirects-over-20000-lines-is-a-content-error", async () => {
    const dir = await writeBase();
    temps.push(dir);
    const file = path.join(dir, "icons.json");
    const icons = JSON.parse(await readFile(file, "utf8")) as Record<string, string>;
    for (let i = 0; i < 21_000; i++) icons[`x${i}`] = "text.png";
    await writeFile(file, JSON.stringify(icons));
    const error = await compile({ content: dir, hosts: ["netlify-static"] }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ContentError);
    const d = (error as ContentError).diagnostics.find((x) => x.code === "HOST_LIMIT");
    expect(d, JSON.stringify((error as ContentError).diagnostics.slice(0, 3))).toBeDefined();
    expect(d!.message).toMatch(/^[\w.-]+ needs [\d,]+ _redirects lines; Netlify's static output is limited to 20,000/);
    // Without netlify-static the same content compiles.
    await expect(compile({ content: dir, hosts: ["cloudflare"] })).resolves.toBeDefined();
  }, 120_000);
});
