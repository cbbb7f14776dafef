// test/diff/bad-input.test.ts
// What `diff` cannot compare gets one line on stderr and exit 2, never a stack trace: a folder that is neither a
// build nor content, a missing path, a file, content with errors, an unreachable URL, a server that is no indexer API.

import { mkdir, readFile, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { cli, STACK_LINE } from "../cli/run.js";
import { build } from "../../src/pipeline/pipeline.js";
import { LAYOUT_FORMAT } from "../../src/layout/stamp.js";
import { copyContent, DEMO_CONTENT, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";

let root: string;
let broken: string;
beforeAll(async () => {
  root = await tmpDir("bis-diff-bad-");
  await mkdir(path.join(root, "empty"));
  await writeFile(path.join(root, "file.txt"), "x");
  broken = await copyContent(DEMO_CONTENT);
  await writeFile(path.join(broken, "icons.json"), "{ not json");
});
afterAll(async () => {
  await removeDir(root);
  await removeDir(broken);
});

async function expectOneLine(args: string[], pattern: RegExp): Promise<void> {
  const ran = await cli("diff", ...args);
  expect(ran.code).toBe(2);
  expect(ran.stdout).toBe("");
  expect(ran.stderr.split("\n")).toHaveLength(1);
  expect(ran.stderr).toMatch(pattern);
  expect(ran.stderr).not.toMatch(STACK_LINE);
}

describe("diff: bad input is one line and exit 2", () => {
  test("without --format, a pipe gets Markdown", async () => {
    const ran = await cli("diff", DEMO_CONTENT, DEMO_CONTENT);
    expect(ran).toMatchObject({ code: 0, stderr: "" });
    expect(ran.stdout).toMatch(/^## What clients will see change: .*\n\nNo change a client can see\.$/);
  });

  test("a folder that is neither a build nor content", async () => {
    await expectOneLine(
      [path.join(root, "empty"), DEMO_CONTENT],
      /is neither a build of build-index-site nor a content folder/,
    );
  });
  test("a path that does not exist, and a file", async () => {
    await expectOneLine([DEMO_CONTENT, path.join(root, "nothing")], /nothing does not exist\./);
    await expectOneLine([path.join(root, "file.txt"), DEMO_CONTENT], /file\.txt is a file, not a folder\./);
  });
  test("content with errors", async () => {
    await expectOneLine([broken, DEMO_CONTENT], /is a content folder with 1 error: there is no site to compare\./);
  });
  test("an unreachable URL, and a scheme that is not http", async () => {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await expectOneLine(
      [DEMO_CONTENT, `http://127.0.0.1:${port}/`],
      /^Cannot read http:\/\/127\.0\.0\.1:\d+\/api\.php: .* refused the connection\.$/,
    );
    await expectOneLine([DEMO_CONTENT, "ftp://example.org/"], /is not an http or https URL/);
  });
  test("a server that is not the indexer API", async () => {
    const server = http.createServer((_req, res) =>
      res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><p>SPA</p>"),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      await expectOneLine(
        [`http://127.0.0.1:${port}/`, DEMO_CONTENT],
        /does not answer like the indexer API: \/api\.php\?action=\w+ gave status 200 and no JSON\./,
      );
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
  test("builds of different tool formats", async () => {
    const a = path.join(root, "a", "dist");
    const b = path.join(root, "b", "dist");
    await build({ content: DEMO_CONTENT, out: a, hosts: ["nginx"], sourceDateEpoch: TEST_EPOCH });
    await build({ content: DEMO_CONTENT, out: b, hosts: ["nginx"], sourceDateEpoch: TEST_EPOCH });
    expect((await cli("diff", a, b)).code).toBe(0);
    const edit = async (file: string, from: string, to: string): Promise<void> => {
      const text = await readFile(file, "utf8");
      expect(text).toContain(from);
      await writeFile(file, text.replace(from, to));
    };
    await edit(path.join(root, "b", ".build-index-site", "dist", "routes.json"), '"version": 1', '"version": 2');
    await expectOneLine(
      [a, b],
      /b\/dist was built by another version of build-index-site \(route table version 2; this one reads 1\)\.$/,
    );
    const [now, other] = [LAYOUT_FORMAT, LAYOUT_FORMAT + 1];
    await edit(
      path.join(root, "b", ".build-index-site", "dist", "build.json"),
      `"format": ${now}`,
      `"format": ${other}`,
    );
    await expectOneLine(
      [a, b],
      new RegExp(
        `b/dist was built by another version of build-index-site \\(layout format ${other}; this one reads ${now}\\)\\.$`,
      ),
    );
  });

  test("--json: the failure as one JSON object on stdout", async () => {
    const ran = await cli("diff", path.join(root, "empty"), DEMO_CONTENT, "--json");
    expect(ran.code).toBe(2);
    expect(JSON.parse(ran.stdout)).toMatchObject({ ok: false, exitCode: 2 });
  });
});
