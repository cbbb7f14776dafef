// test/preview/abuse.test.ts
// The preview survives abuse and behaves like a host (issue 8, points 13–17; issue 10, the dev loop's reload and
// request log). Each test is named after the defect it proves fixed.

import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { BuildError } from "../../src/errors.js";
import { INTERNAL_FILES } from "../../src/routes/internal-files.js";
import { startPreview, type Preview } from "../../src/preview/server.js";
import { HOST_NAMES } from "../../src/hosts/index.js";
import { removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { edit, writeBase } from "../helpers/base-content.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
let root: string;
let content: string;
let out: string;
let preview: Preview;
let port: number;
const logged: string[] = [];

beforeAll(async () => {
  root = await tmpDir("bis-abuse-");
  content = await writeBase();
  out = path.join(root, "dist");
  await build({ content, out, sourceDateEpoch: TEST_EPOCH, hosts: HOST_NAMES }); // every host: every internal file exists
  preview = await startPreview({ dir: out, port: 0, host: "127.0.0.1", log: (line) => logged.push(line) });
  port = Number(new URL(preview.url).port);
});

afterAll(async () => {
  await preview?.close();
  await removeDir(root);
  await removeDir(content);
});

interface Answer {
  status: number;
  headers: string;
  body: string;
}

/** Sends one request exactly as written (request line and headers) and reads the whole answer. */
function rawRequest(p: number, head: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(p, "127.0.0.1", () => socket.write(`${head}Connection: close\r\n\r\n`));
    const chunks: Buffer[] = [];
    socket.on("data", (d: Buffer) => chunks.push(d));
    socket.on("error", reject);
    socket.on("end", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const cut = text.indexOf("\r\n\r\n");
      resolve({
        status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0),
        headers: text.slice(0, cut).toLowerCase(),
        body: text.slice(cut + 4),
      });
    });
  });
}

const get = (target: string, extra = "", p = port): Promise<Answer> =>
  rawRequest(p, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}`);

describe("the preview behaves like a host (issue 8 point 17)", () => {
  it("OPTIONS /api.php answered 200 with an empty body and the reference's CORS headers", async () => {
    const r = await rawRequest(port, "OPTIONS /api.php?action=config HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    expect(r.status).toBe(200);
    expect(r.body).toBe("");
    expect(r.headers).toContain("\r\ncontent-type: application/json\r\n");
    expect(r.headers).toContain("\r\naccess-control-allow-origin: *\r\n");
    expect(r.headers).toContain("\r\naccess-control-allow-methods: get, post, options\r\n");
    expect(r.headers).toContain("\r\naccess-control-allow-headers: content-type, authorization\r\n");
  });

  it("a Range request with a mismatched If-Range got 206 instead of the full 200", async () => {
    const full = await get("/style/site.css");
    const ranged = await get("/style/site.css", "Range: bytes=0-3\r\n");
    expect(ranged.status).toBe(206);
    expect(ranged.body).toBe(full.body.slice(0, 4));
    for (const validator of ['"some-etag"', "Mon, 01 Jan 2001 00:00:00 GMT"]) {
      const r = await get("/style/site.css", `Range: bytes=0-3\r\nIf-Range: ${validator}\r\n`);
      expect(r.status).toBe(200);
      expect(r.body).toBe(full.body);
    }
    // The file's own Last-Modified as If-Range keeps the range.
    const exact = await new Promise<string>((resolve) => {
      http.get(`${preview.url}style/site.css`, (res) => {
        res.resume();
        resolve(String(res.headers["last-modified"]));
      });
    });
    expect((await get("/style/site.css", `Range: bytes=0-3\r\nIf-Range: ${exact}\r\n`)).status).toBe(206);
  });

  it("an absolute-form request line for /api.php was not routed", async () => {
    const plain = await get("/api.php?action=config");
    const absolute = await get(`http://127.0.0.1:${port}/api.php?action=config`);
    expect(plain.status).toBe(200);
    expect(absolute.status).toBe(200);
    expect(absolute.body).toBe(plain.body);
    expect(absolute.body).toContain('"success": true');
  });

  it("API answers carried Content-Disposition", async () => {
    for (const target of [
      "/api.php?action=config",
      "/api.php?action=icon&name=text.png",
      "/api.php?action=nope",
      "/icons/text.png",
    ]) {
      const r = await get(target);
      expect(r.status).toBeLessThan(500);
      expect(r.headers).not.toContain("content-disposition");
    }
  });
});

describe("the preview survives abuse (issue 8 points 12, 14, 15)", () => {
  it.each(INTERNAL_FILES)("served the internal file /%s", async (file) => {
    // Not in --out (docs/layout.md), and not served however the path is spelled.
    expect(existsSync(path.join(out, file))).toBe(false);
    for (const target of [
      `/${file}`,
      `//${file}`,
      `/${file.toUpperCase()}`,
      `/./${file}`,
      `/icons/../${file}`,
      `/${encodeURIComponent(file).replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`)}`,
    ]) {
      expect((await get(target)).status).toBe(404);
    }
  });

  it("a path segment over 255 bytes got 500 and logged the absolute path", async () => {
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => {
      errors.push(args);
    };
    try {
      for (const name of ["a".repeat(256), "é".repeat(200), `${"x".repeat(300)}.png`]) {
        expect((await get(`/icons/${encodeURIComponent(name)}`)).status).toBe(404);
        expect((await get(`/${encodeURIComponent(name)}/x.css`)).status).toBe(404);
      }
    } finally {
      console.error = original;
    }
    expect(errors).toEqual([]);
  });

  it("four requests for a FIFO inside dist froze every other request", async () => {
    execFileSync("mkfifo", [path.join(out, "icons", "pipe.png")]);
    const fifo = await Promise.all([1, 2, 3, 4, 5].map(() => get("/icons/pipe.png")));
    expect(fifo.map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
    expect((await get("/api.php?action=config")).status).toBe(200);
  });
});

describe("the preview sees a rebuild (issue 8 point 16, issue 10 point 3)", () => {
  it("kept the route table it loaded at start after a rebuild", async () => {
    const before = await get("/api.php?action=findIcon&extension=txt");
    expect(before.body).toContain("text.png");
    await edit(content, "icons.json", '"txt": "text.png"', '"txt": "folder.png"');
    await build({ content, out, sourceDateEpoch: TEST_EPOCH });
    const after = await get("/api.php?action=findIcon&extension=txt");
    expect(after.status).toBe(200);
    expect(after.body).toContain("folder.png");
    expect(after.body).not.toContain("text.png");
  });

  it("logs one line per request: method, URL, status, milliseconds", async () => {
    logged.length = 0;
    await get("/api.php?action=config");
    await get("/nope.txt");
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatch(/^GET \/api\.php\?action=config 200 \d+(\.\d+)?ms$/);
    expect(logged[1]).toMatch(/^GET \/nope\.txt 404 \d+(\.\d+)?ms$/);
  });
});

describe("listen errors are one clear line (issue 8 point 10)", () => {
  it("--host 8.8.8.8 (not an address of this machine) threw EADDRNOTAVAIL with a stack trace", async () => {
    const error = await startPreview({ dir: out, port: 0, host: "8.8.8.8" }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BuildError);
    expect((error as BuildError).message).toContain("8.8.8.8");
    expect((error as BuildError).hint).toContain("--host");
  });
});

describe("a flood (issue 8 point 13)", () => {
  const lib = path.join(REPO, "lib/preview/server.js");

  it("1,500 unread pipelined requests under ulimit -n 1024 crashed the preview with EMFILE", async () => {
    if (!existsSync(lib)) throw new Error("lib/ is missing: run `npm run build` first (npm test does).");
    const script = [
      `const { startPreview } = await import(${JSON.stringify(lib)});`,
      `const p = await startPreview({ dir: ${JSON.stringify(out)}, port: 0, host: "127.0.0.1" });`,
      "console.log(new URL(p.url).port);",
    ].join("\n");
    const child: ChildProcess = spawn(
      "bash",
      ["-c", `ulimit -n 1024; exec node --input-type=module -e ${shellQuote(script)}`],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr!.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    try {
      const childPort = await new Promise<number>((resolve, reject) => {
        child.stdout!.once("data", (d: Buffer) => resolve(Number(d.toString().trim())));
        child.once("exit", (code) => reject(new Error(`the preview exited (${code}): ${stderr}`)));
      });
      // Many files, so that each request opens one; the client never reads a byte of the answers.
      const targets = [
        "/icons/text.png",
        "/icons/folder.png",
        "/style/site.css",
        "/api.php?action=config",
        "/api.php?action=icons",
      ];
      const flood = net.connect(childPort, "127.0.0.1");
      await new Promise<void>((resolve) => flood.once("connect", () => resolve()));
      flood.pause();
      let pipelined = "";
      for (let i = 0; i < 1500; i += 1) pipelined += `GET ${targets[i % targets.length]} HTTP/1.1\r\nHost: x\r\n\r\n`;
      flood.write(pipelined);
      await new Promise((r) => setTimeout(r, 1500));
      expect(child.exitCode).toBeNull();
      const r = await get("/api.php?action=config", "", childPort);
      expect(r.status).toBe(200);
      expect(r.body).toContain('"success": true');
      flood.destroy();
      expect((await get("/icons/text.png", "", childPort)).status).toBe(200);
      expect(child.exitCode).toBeNull();
      expect(stderr).toBe("");
    } finally {
      child.kill("SIGTERM");
    }
  }, 30_000);
});

const shellQuote = (s: string): string => `'${s.replace(/'/g, "'\\''")}'`;

describe("large files", () => {
  it("a file larger than the read-whole limit is streamed whole, and a range of it exactly", async () => {
    const { writeFile } = await import("node:fs/promises");
    const big = Buffer.alloc(9 * 1024 * 1024, 7);
    big.write("START", 0);
    big.write("END", big.length - 3);
    await writeFile(path.join(out, "style", "big.bin"), big);
    const whole = await fetch(`${preview.url}style/big.bin`);
    const body = Buffer.from(await whole.arrayBuffer());
    expect(whole.status).toBe(200);
    expect(body.equals(big)).toBe(true);
    const part = await fetch(`${preview.url}style/big.bin`, { headers: { Range: `bytes=${big.length - 3}-` } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe("END");
  });
});
