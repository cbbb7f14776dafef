// test/preview/preview-hostile.test.ts
// The preview server against hostile requests: malformed percent-encoding, very long query strings, ".." and
// encoded separators in paths, thousands of parameters, NUL bytes, symlinks in the site. It answers 4xx (or the
// right answer), never crashes, and never serves a byte from outside --dir.

import http from "node:http";
import net from "node:net";
import { symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { startPreview, type Preview } from "../../src/preview/server.js";
import { removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { writeBase } from "../helpers/base-content.js";

const SECRET = "TOP-SECRET-OUTSIDE-THE-SITE";
let root: string;
let content: string;
let preview: Preview;
let port: number;

beforeAll(async () => {
  root = await tmpDir("bis-hostile-");
  content = await writeBase();
  const out = path.join(root, "site", "dist");
  await build({ content, out, sourceDateEpoch: TEST_EPOCH });
  // Secrets beside and above the served folder, and a symlink inside it that points at one.
  await writeFile(path.join(root, "secret.txt"), SECRET);
  await writeFile(path.join(root, "site", "secret.txt"), SECRET);
  await symlink(path.join(root, "secret.txt"), path.join(out, "icons", "link.png"));
  await symlink(root, path.join(out, "style", "up"));
  // The route table exactly: these cases are about routing by it (the handler answers them as the PHP service does,
  // an empty body where json_encode fails on invalid UTF-8: test/edge; each host's own answers: test/hosts).
  preview = await startPreview({ dir: out, port: 0, host: "127.0.0.1", as: "route-table" });
  port = Number(new URL(preview.url).port);
});

afterAll(async () => {
  await preview?.close();
  await removeDir(root);
  await removeDir(content);
});

/** Sends the request target exactly as given (no client-side normalisation of "..", "%", "\\"). */
function raw(target: string, method = "GET"): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write(`${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    });
    const chunks: Buffer[] = [];
    socket.on("data", (d: Buffer) => chunks.push(d));
    socket.on("error", reject);
    socket.on("end", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: text.slice(text.indexOf("\r\n\r\n") + 4) });
    });
  });
}

async function alive(): Promise<void> {
  const r = await raw("/api.php?action=config");
  expect(r.status).toBe(200);
  expect(r.body).toContain(`"success": true`);
}

const TRAVERSALS = [
  "/../secret.txt",
  "/../../secret.txt",
  "/icons/../../secret.txt",
  "/icons/..%2f..%2fsecret.txt",
  "/icons/%2e%2e/%2e%2e/secret.txt",
  "/%2e%2e/%2e%2e/secret.txt",
  "/icons/..\\..\\secret.txt",
  "/icons/%5c..%5c..%5csecret.txt",
  "/icons/....//....//secret.txt",
  "/icons/%252e%252e/%252e%252e/secret.txt",
  "/icons/link.png",
  "/style/up/secret.txt",
  "/style/up/site/secret.txt",
  "//secret.txt",
  "/icons/%00.png",
  "/icons/text.png%00.txt",
  "/api.php/../../secret.txt",
  "/api.php?action=icon&name=../../secret.txt",
  "/api.php?action=icon&name=..%2f..%2fsecret.txt",
  "/api.php?action=findIcon&extension=../../../secret",
  "http://127.0.0.1/../../secret.txt",
];

describe("preview server under hostile requests", () => {
  it.each(TRAVERSALS)("never serves a file outside --dir: %s", async (target) => {
    const r = await raw(target);
    expect(r.status).toBeGreaterThanOrEqual(200);
    expect(r.status).toBeLessThan(500);
    expect(r.body).not.toContain(SECRET);
    if (!target.startsWith("/api.php?")) expect([400, 404]).toContain(r.status);
  });

  it.each(["/icons/%E0%A4%A.png", "/%", "/icons/%zz.png", "/style/%C0%AF", "/%ED%A0%80.png"])(
    "answers malformed percent-encoding in the path with 400 or 404: %s",
    async (target) => {
      const r = await raw(target);
      expect([400, 404]).toContain(r.status);
    },
  );

  it.each([
    "/api.php?action=%E0%A4%A",
    "/api.php?action=config&%",
    "/api.php?%zz=%zz&action=getExtensionSetting&extension=%",
    "/api.php?action=findIcon&extension=%ED%A0%80",
    "/api.php?action=icon&name=%FF%FE.png",
  ])("routes malformed percent-encoding in the query without failing: %s", async (target) => {
    const r = await raw(target);
    expect(r.status).toBeGreaterThanOrEqual(200);
    expect(r.status).toBeLessThan(500);
    expect(() => JSON.parse(r.body) as unknown).not.toThrow();
  });

  it("answers a very long query string with a 4xx (or the exact answer when it fits), and survives", async () => {
    const huge = await raw(`/api.php?action=findIcon&extension=${"a".repeat(200_000)}`);
    expect(huge.status).toBeGreaterThanOrEqual(400);
    expect(huge.status).toBeLessThan(500);
    const long = await raw(`/api.php?action=findIcon&extension=${"a".repeat(10_000)}`);
    expect(long.status).toBe(200);
    expect(long.body).toContain(`"filename": "text.png"`);
    await alive();
  });

  it("answers thousands of parameters (unknown ones ignored, the last action wins)", async () => {
    const junk = Array.from({ length: 2500 }, (_, i) => `${i.toString(36)}=`).join("&");
    const r = await raw(`/api.php?${junk}&action=status&action=config`);
    expect(r.status).toBe(200);
    expect(r.body).toContain(`"config": {`);
    const many = await raw(`/api.php?${"action=x&".repeat(1500)}`);
    expect(many.status).toBe(200); // the info document, as for any unknown action
    await alive();
  });

  it("survives odd methods, targets and broken requests", async () => {
    expect((await raw("*", "OPTIONS")).status).toBeGreaterThanOrEqual(400);
    expect((await raw("/icons/", "GET")).status).toBe(404);
    expect((await raw("/api.php?action=config", "POST")).status).toBeLessThan(500);
    await new Promise<void>((resolve) => {
      const s = net.connect(port, "127.0.0.1", () => {
        s.end("GARBAGE\r\n\r\n");
      });
      s.on("close", () => resolve());
      s.on("error", () => resolve());
      s.resume();
    });
    await new Promise<void>((resolve) => {
      const req = http.request({ port, host: "127.0.0.1", path: "/api.php?action=config" });
      req.on("error", () => resolve());
      req.on("socket", (s) =>
        s.on("connect", () => {
          s.destroy();
          resolve();
        }),
      );
      req.end();
    });
    await alive();
  });
});
