// test/preview/serve.test.ts
// `npx serve dist`, the preview users try first, run for real: it serves the plain files and the answer files, cannot
// route /api.php queries, and finds none of the build's own files (docs/layout.md: they live beside dist/).

import { spawn, type ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { mimeTypesTable } from "../../src/layout/serve-config.js";
import { INTERNAL_FILES } from "../../src/routes/internal-files.js";
import { freePort } from "../hosts/servers.js";
import { DEMO_CONTENT, removeDir, REPO, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";

describe("npx serve dist", () => {
  let root: string;
  let child: ChildProcess;
  let base: string;
  beforeAll(async () => {
    root = await tmpDir();
    const out = path.join(root, "dist");
    await build({
      content: DEMO_CONTENT,
      out,
      sourceDateEpoch: TEST_EPOCH,
      hosts: ["netlify", "netlify-static", "apache", "nginx", "vercel", "vercel-static", "cloudflare"],
    });
    const port = await freePort();
    child = spawn(
      process.execPath,
      [path.join(REPO, "test/node_modules/serve/build/main.js"), "-n", "-L", "-l", `tcp://127.0.0.1:${port}`, out],
      { stdio: "ignore" },
    );
    base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      const up = await fetch(`${base}/config.json`).then(
        () => true,
        () => false,
      );
      if (up) break;
      if (i > 100) throw new Error("serve did not start");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 30_000);
  afterAll(async () => {
    child.kill();
    await removeDir(root);
  });

  it("serves plain files and the answer files, and cannot route /api.php queries", async () => {
    expect((await fetch(`${base}/icons/php.png`)).headers.get("content-type")).toBe("image/png");
    expect((await fetch(`${base}/config.json`)).status).toBe(200);
    expect((await fetch(`${base}/api/findIcon/file/php.json`)).status).toBe(200);
    expect((await fetch(`${base}/api.php?action=config`)).status).toBe(404);
  });

  it("finds none of the build's own files, with every host built", async () => {
    const names = [
      ...INTERNAL_FILES,
      "build.json",
      "site.manifest",
      ".build-index-site/dist/routes.json",
      "../.build-index-site/dist/routes.json",
    ];
    for (const file of names)
      expect({ file, status: (await fetch(`${base}/${file}`)).status }).toEqual({ file, status: 404 });
  });
});

describe("the Content-Type table the package ships (lib/output/content-types.generated.json)", () => {
  it("is what mime-types gives every extension, and only that", async () => {
    const shipped = JSON.parse(
      await readFile(path.join(REPO, "lib/output/content-types.generated.json"), "utf8"),
    ) as Record<string, string>;
    const mime = (await import("mime-types")).default;
    expect(Object.keys(shipped).sort()).toEqual(
      Object.keys(mime.types)
        .filter((e) => mime.contentType(e) !== false)
        .sort(),
    );
    for (const [ext, type] of Object.entries(shipped)) expect(type, ext).toBe(mime.contentType(ext));
    expect([shipped.png, shipped.svg, shipped.json, shipped.css]).toEqual([
      "image/png",
      "image/svg+xml",
      "application/json; charset=utf-8",
      "text/css; charset=utf-8",
    ]);
    expect(mimeTypesTable()).toEqual(shipped);
  });
});
