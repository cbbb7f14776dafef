// test/diff/bad-input.test.ts
// What `diff` cannot compare gets one line on stderr and exit 2, never a stack trace: a folder that is neither a
// build nor content, a missing path, a file, content with errors, an unreachable URL, a server that is no indexer API.

import { mkdir, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { cli, STACK_LINE } from "../cli/run.js";
import { copyContent, DEMO_CONTENT, removeDir, tmpDir } from "../helpers/fixtures.js";

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
  test("a folder that is neither a build nor content", async () => {
    await expectOneLine([path.join(root, "empty"), DEMO_CONTENT], /is neither a build of build-index-site nor a content folder/);
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
    await expectOneLine([DEMO_CONTENT, `http://127.0.0.1:${port}/`], /^Cannot read http:\/\/127\.0\.0\.1:\d+\/api\.php: .* refused the connection\.$/);
    await expectOneLine([DEMO_CONTENT, "ftp://example.org/"], /is not an http or https URL/);
  });
  test("a server that is not the indexer API", async () => {
    const server = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><p>SPA</p>"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      await expectOneLine([`http://127.0.0.1:${port}/`, DEMO_CONTENT], /does not answer like the indexer API: \/api\.php\?action=\w+ gave status 200 and no JSON\./);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
  test("--json: the failure as one JSON object on stdout", async () => {
    const ran = await cli("diff", path.join(root, "empty"), DEMO_CONTENT, "--json");
    expect(ran.code).toBe(2);
    expect(JSON.parse(ran.stdout)).toMatchObject({ ok: false, exitCode: 2 });
  });
});
