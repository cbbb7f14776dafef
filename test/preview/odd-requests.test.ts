// test/preview/odd-requests.test.ts
// Issue 27's defects in both previews (the static rules and `--edge`), each checked against what RFC 9110/9112 and
// nginx say, never against the preview's own output: backslash paths (1), ranges (2), validators and conditional
// requests (3), absolute-form request lines (4), path forms of /api.php (5), and the SVG policy.

import { readFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { startPreview, type Preview } from "../../src/preview/server.js";
import { DEMO_CONTENT, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { sha1Tag } from "../helpers/manifests.js";

const CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
let root = "";
let out = "";
const previews: Record<"static" | "edge", Preview | undefined> = { static: undefined, edge: undefined };

beforeAll(async () => {
  root = await tmpDir("bis-odd-");
  out = path.join(root, "dist");
  await build({ content: DEMO_CONTENT, out, sourceDateEpoch: TEST_EPOCH });
  previews.static = await startPreview({ dir: out, port: 0, host: "127.0.0.1" });
  previews.edge = await startPreview({ dir: out, port: 0, host: "127.0.0.1", edge: true });
}, 60_000);

afterAll(async () => {
  await previews.static?.close();
  await previews.edge?.close();
  await removeDir(root);
});

interface Raw {
  status: number;
  headers: Map<string, string>;
  body: Buffer;
}

/** Sends the request line and headers exactly as given (no client-side normalisation). */
function raw(
  which: "static" | "edge",
  target: string,
  headers: Record<string, string> = {},
  method = "GET",
): Promise<Raw> {
  const port = Number(new URL(previews[which]!.url).port);
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      const lines = Object.entries({ Host: "127.0.0.1", ...headers, Connection: "close" }).map(
        ([k, v]) => `${k}: ${v}\r\n`,
      );
      socket.write(`${method} ${target} HTTP/1.1\r\n${lines.join("")}\r\n`);
    });
    const chunks: Buffer[] = [];
    socket.on("data", (d: Buffer) => chunks.push(d));
    socket.on("error", reject);
    socket.on("end", () => {
      const all = Buffer.concat(chunks);
      const split = all.indexOf("\r\n\r\n");
      const head = all.subarray(0, split).toString("latin1").split("\r\n");
      const map = new Map(
        head.slice(1).map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
      );
      let body: Buffer = all.subarray(split + 4);
      if (map.get("transfer-encoding") === "chunked") body = unchunk(body);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head[0]!)?.[1]), headers: map, body });
    });
  });
}

function unchunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = data.indexOf("\r\n", at);
    const size = parseInt(data.subarray(at, eol).toString(), 16);
    if (!size) return Buffer.concat(parts);
    parts.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

describe.each(["static", "edge"] as const)("preview (%s)", (which) => {
  test("defect 1: a backslash is no separator: internal files never leak through one", async () => {
    for (const target of [
      "/\\_worker.js",
      "/\\routes.json",
      "/icons\\..\\.build-manifest",
      "/%5c_worker.js",
      "/%5Croutes.json",
      "/icons%5c..%5c.build-manifest",
      "/icons/..\\..\\routes.json",
      "/\\.build-manifest",
      "/style\\..\\serve.json",
    ]) {
      const r = await raw(which, target);
      expect(r.status, target).toBe(404);
      expect(r.body.toString(), target).not.toMatch(/build-index-site manifest|createApiHandler|"rules"|"headers"/);
    }
  });

  test("defect 2: 416 has an empty body; an unknown unit is ignored; several ranges are multipart/byteranges", async () => {
    const file = await readFile(path.join(out, "config.json"));
    const beyond = await raw(which, "/config.json", { Range: `bytes=${file.length + 10}-` });
    expect([beyond.status, beyond.headers.get("content-range"), beyond.body.length]).toEqual([
      416,
      `bytes */${file.length}`,
      0,
    ]);
    const items = await raw(which, "/config.json", { Range: "items=0-1" });
    expect([items.status, items.body.equals(file)]).toEqual([200, true]);
    const multi = await raw(which, "/config.json", { Range: "bytes=0-1,-2" });
    expect(multi.status).toBe(206);
    const boundary = /^multipart\/byteranges; boundary=(.+)$/.exec(multi.headers.get("content-type") ?? "")?.[1];
    expect(boundary).toBeDefined();
    const text = multi.body.toString("latin1");
    expect(text).toContain(
      `Content-Range: bytes 0-1/${file.length}\r\n\r\n${file.subarray(0, 2).toString("latin1")}\r\n--${boundary}`,
    );
    expect(text).toContain(
      `Content-Range: bytes ${file.length - 2}-${file.length - 1}/${file.length}\r\n\r\n${file.subarray(-2).toString("latin1")}\r\n--${boundary}--`,
    );
    const suffix = await raw(which, "/config.json", { Range: `bytes=-${file.length * 2}` });
    expect([suffix.status, suffix.headers.get("content-range")]).toEqual([
      206,
      `bytes 0-${file.length - 1}/${file.length}`,
    ]);
  });

  test("defect 3: a strong ETag from the content hash; revalidations get 304", async () => {
    const icon = await readFile(path.join(out, "icons", "php.png"));
    const first = await raw(which, "/icons/php.png");
    expect(first.headers.get("etag")).toBe(sha1Tag(icon));
    const lastModified = first.headers.get("last-modified")!;
    for (const h of [
      { "If-None-Match": sha1Tag(icon) } as Record<string, string>,
      { "If-None-Match": `"x", W/${sha1Tag(icon)}` },
      { "If-Modified-Since": lastModified },
    ]) {
      const r = await raw(which, "/icons/php.png", h);
      expect([r.status, r.body.length, r.headers.get("etag")], JSON.stringify(h)).toEqual([304, 0, sha1Tag(icon)]);
    }
    expect((await raw(which, "/icons/php.png", { "If-None-Match": '"other"' })).status).toBe(200);
    expect((await raw(which, "/icons/php.png", { "If-Modified-Since": "Mon, 01 Jan 2001 00:00:00 GMT" })).status).toBe(
      200,
    );
    expect((await raw(which, "/icons/php.png", { "If-Match": '"other"' })).status).toBe(412);
    expect((await raw(which, "/icons/php.png", { "If-Range": sha1Tag(icon), Range: "bytes=0-3" })).status).toBe(206);
    // The answers of /api.php too: the static preview's file, the edge handler's body.
    const api = await raw(which, "/api.php?action=config");
    expect(api.headers.get("etag")).toBe(sha1Tag(api.body));
    const again = await raw(which, "/api.php?action=config", { "If-None-Match": sha1Tag(api.body) });
    expect([again.status, again.body.length]).toEqual([304, 0]);
  });

  test("defect 4: absolute-form request lines (RFC 9112 §3.2.2)", async () => {
    const origin = await raw(which, "/api.php?action=config");
    for (const target of ["http://127.0.0.1:8080/api.php?action=config", "HTTP://example.org/api.php?action=config"]) {
      const r = await raw(which, target);
      expect([r.status, r.body.toString()], target).toEqual([200, origin.body.toString()]);
    }
    expect((await raw(which, "http://127.0.0.1/icons/php.png")).status).toBe(200);
  });

  test("defect 5: //api.php, /./api.php and /api.php/extra (PATH_INFO) are /api.php", async () => {
    const origin = await raw(which, "/api.php?action=config");
    for (const target of [
      "//api.php?action=config",
      "/./api.php?action=config",
      "/api.php/extra?action=config",
      "/icons/../api.php?action=config",
    ]) {
      const r = await raw(which, target);
      expect([r.status, r.body.toString()], target).toEqual([200, origin.body.toString()]);
    }
  });

  test("SVG icons carry a Content-Security-Policy that keeps scripts from running", async () => {
    const r = await raw(which, "/icons/css.svg");
    expect([r.status, r.headers.get("content-type"), r.headers.get("content-security-policy")]).toEqual([
      200,
      "image/svg+xml",
      CSP,
    ]);
  });
});
