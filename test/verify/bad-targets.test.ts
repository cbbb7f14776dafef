// test/verify/bad-targets.test.ts
// Targets that cannot be checked get one plain line and exit 2, no stack trace, and no socket left open; an SPA that
// answers HTML where JSON is due is a difference (exit 1); Ctrl-C prints the partial report and exits 130.

import { spawn } from "node:child_process";
import { mkdir } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_CONTENT, REPO, removeDir, tmpDir } from "../helpers/fixtures.js";
import { STACK_LINE } from "../cli/run.js";
import { freePort } from "../hosts/servers.js";
import { buildSite, runVerify, type Built } from "./helpers.js";

let site: Built;
beforeAll(async () => {
  site = await buildSite(DEMO_CONTENT, ["nginx"]);
});
afterAll(async () => {
  await removeDir(site.root);
});

interface TestServer {
  url: string;
  /** Open connections now. */
  connections(): Promise<number>;
  close(): Promise<void>;
}

async function serve(handler: http.RequestListener): Promise<TestServer> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    connections: () => new Promise((resolve, reject) => server.getConnections((e, n) => (e ? reject(e) : resolve(n)))),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Waits until the server has no open connection (the client closed every socket), up to 2 s. */
async function expectNoSockets(server: TestServer): Promise<void> {
  const deadline = Date.now() + 2000;
  while ((await server.connections()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  expect(await server.connections()).toBe(0);
}

/** Exit 2 with exactly one line on stderr that matches `line`, nothing on stdout, no stack trace. */
async function expectCannotCheck(args: string[], line: RegExp): Promise<void> {
  const run = await runVerify(args);
  expect(run.code, run.err).toBe(2);
  expect(run.err.split("\n")).toHaveLength(1);
  expect(run.err).toMatch(line);
  expect(run.err).not.toMatch(STACK_LINE);
  expect(run.out).toBe("");
}

describe("verify: targets it cannot check (exit 2, one line)", () => {
  test("connection refused", async () => {
    const port = await freePort();
    await expectCannotCheck(
      [`http://127.0.0.1:${port}/`, "--dir", site.out],
      new RegExp(`^Cannot check http://127\\.0\\.0\\.1:${port}/: 127\\.0\\.0\\.1:${port} refused the connection\\.$`),
    );
  });

  test("DNS failure", async () => {
    await expectCannotCheck(
      ["http://no-such-host.invalid/", "--dir", site.out],
      /^Cannot check http:\/\/no-such-host\.invalid\/: no-such-host\.invalid was not found \(DNS\)\.$/,
    );
  });

  test("TLS error (https to a plain http server)", async () => {
    const server = await serve((_req, res) => res.end("plain"));
    try {
      await expectCannotCheck(
        [server.url.replace("http:", "https:"), "--dir", site.out],
        /^Cannot check https:\/\/127\.0\.0\.1:\d+\/: TLS with 127\.0\.0\.1:\d+ failed: /,
      );
      await expectNoSockets(server);
    } finally {
      await server.close();
    }
  });

  test("time-out: a server that never answers", async () => {
    const server = await serve(() => undefined);
    try {
      const started = Date.now();
      await expectCannotCheck(
        [server.url, "--dir", site.out, "--timeout", "0.3"],
        /gave no whole answer within 0\.3 s\.$/,
      );
      expect(Date.now() - started).toBeLessThan(5000); // asked twice (one retry), 0.3 s each
      await expectNoSockets(server);
    } finally {
      await server.close();
    }
  });

  test("a server that never finishes its answer", async () => {
    const timers = new Set<NodeJS.Timeout>();
    const server = await serve((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      const timer = setInterval(() => res.write(" "), 50);
      timers.add(timer);
      res.on("close", () => clearInterval(timer));
    });
    try {
      await expectCannotCheck(
        [server.url, "--dir", site.out, "--timeout", "0.5"],
        /gave no whole answer within 0\.5 s\.$/,
      );
      await expectNoSockets(server);
    } finally {
      for (const t of timers) clearInterval(t);
      await server.close();
    }
  });

  test("a redirect to another host is reported, not followed", async () => {
    let followed = false;
    const server = await serve((req, res) => {
      if (req.headers.host?.startsWith("elsewhere")) followed = true;
      res.writeHead(302, { Location: "http://elsewhere.invalid/api.php" });
      res.end();
    });
    try {
      await expectCannotCheck(
        [server.url, "--dir", site.out],
        /redirects to http:\/\/elsewhere\.invalid\/api\.php, another host: not followed\./,
      );
      expect(followed).toBe(false);
      await expectNoSockets(server);
    } finally {
      await server.close();
    }
  });

  test("a body of 100 MB", async () => {
    let sent = 0;
    const server = await serve((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": String(100 * 1024 * 1024) });
      const chunk = Buffer.alloc(64 * 1024, 32);
      const pump = (): void => {
        while (sent < 100 * 1024 * 1024 && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) {
            res.once("drain", pump);
            return;
          }
        }
        res.end();
      };
      pump();
    });
    try {
      await expectCannotCheck(
        [server.url, "--dir", site.out],
        /sent more than [\d.]+ MB, far more than the build's answer: stopped reading\.$/,
      );
      expect(sent).toBeLessThan(100 * 1024 * 1024); // it stopped reading long before the end
      await expectNoSockets(server);
    } finally {
      await server.close();
    }
  });

  test("--dir missing, --dir not a build, and bad flags", async () => {
    const empty = await tmpDir("bis-verify-empty-");
    try {
      for (const args of [
        ["http://127.0.0.1:1/", "--dir", path.join(empty, "nope")],
        ["http://127.0.0.1:1/", "--dir", empty],
        ["http://127.0.0.1:1/", "--dir", site.out, "--concurrency", "0"],
        ["http://127.0.0.1:1/", "--dir", site.out, "--header", "no colon"],
        ["ftp://127.0.0.1/", "--dir", site.out],
      ]) {
        const run = await runVerify(args);
        expect(run.code, args.join(" ")).toBe(2);
        expect(run.err, args.join(" ")).not.toMatch(STACK_LINE);
        expect(run.err.split("\n")[0], args.join(" ")).toMatch(/does not exist|is not a build|must be|not an http/);
      }
    } finally {
      await removeDir(empty);
    }
  });
});

describe("verify: its own inputs", () => {
  test("a --header value with CR, LF or a character beyond U+00FF is a usage error (exit 2, one line)", async () => {
    for (const value of ["X-A:one\r\nX-B: two", "X-A:one\ntwo", "X-A:caf\u0100", "X-A:a\u0000b"]) {
      await expectCannotCheck(
        ["http://127.0.0.1:1/", "--dir", site.out, "--header", value],
        /--header.*must have a value/,
      );
    }
  });

  test("a password in the URL is sent as Basic auth and never printed", async () => {
    const seen: Array<string | undefined> = [];
    const server = await serve((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(404, { "content-type": "text/plain" }).end("no");
    });
    try {
      const withUser = server.url.replace("http://", "http://user:s3cret-pw@");
      const run = await runVerify([withUser, "--dir", site.out, "--show", "3"]);
      expect(run.code, run.err).toBe(1);
      expect(`${run.out}\n${run.err}`).not.toContain("s3cret-pw");
      expect(seen.length).toBeGreaterThan(0);
      expect(new Set(seen)).toEqual(new Set([`Basic ${Buffer.from("user:s3cret-pw").toString("base64")}`]));
      const json = await runVerify([withUser, "--dir", site.out, "--json"]);
      expect(json.out).not.toContain("s3cret-pw");
      const bad = await runVerify(["http://user:s3cret-pw@127.0.0.1:abc/", "--dir", site.out]);
      expect(bad.code).toBe(2);
      expect(bad.err).not.toContain("s3cret-pw");
    } finally {
      await server.close();
    }
  });
});

describe("verify: an SPA fallback is a difference, not a failure to check", () => {
  test("HTML for everything: exit 1, each URL with 'expected JSON'", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/html" });
      res.end("<!DOCTYPE html><html><body><div id=root></div></body></html>");
    });
    try {
      const run = await runVerify([server.url, "--dir", site.out]);
      expect(run.code, run.out + run.err).toBe(1);
      expect(run.out).toMatch(
        /GET http:\/\/127\.0\.0\.1:\d+\/api\.php\?action=config\n(.*\n)*? {4}body: expected JSON, received "<!DOCTYPE html>/,
      );
      await expectNoSockets(server);
    } finally {
      await server.close();
    }
  });
});

describe("verify: Ctrl-C", () => {
  test("SIGINT stops at once, prints the partial report, exits 130", async () => {
    const server = await serve((_req, res) => {
      setTimeout(() => {
        res.writeHead(404, { "Content-Type": "text/plain" });
        res.end("slow");
      }, 100);
    });
    const tmp = await tmpDir("bis-verify-sigint-");
    try {
      await mkdir(tmp, { recursive: true });
      const child = spawn(
        process.execPath,
        [path.join(REPO, "bin", "build-index-site.js"), "verify", server.url, "--dir", site.out, "--concurrency", "2"],
        {
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => {
        stdout += d.toString();
      });
      child.stderr.on("data", (d: Buffer) => {
        stderr += d.toString();
      });
      await new Promise((r) => setTimeout(r, 1500));
      const sent = Date.now();
      child.kill("SIGINT");
      const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
      expect(Date.now() - sent).toBeLessThan(1500);
      expect(code, stderr).toBe(130);
      expect(stdout).toMatch(/^Stopped: \d+ of \d+ requests checked; the counts above are partial\.$/m);
      expect(stdout).toMatch(/^ {2}config\s+0\/1/m); // the table of what was checked before the stop
      expect(stderr).not.toMatch(STACK_LINE);
    } finally {
      await server.close();
      await removeDir(tmp);
    }
  });
});
