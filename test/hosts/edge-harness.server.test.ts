// test/hosts/edge-harness.server.test.ts
// The runtimes' harnesses themselves, with a stand-in handler: a Netlify edge function written through the
// Frameworks API runs under Deno (declared paths go to it, other paths are the published files), and the Vercel
// edge function runs under edge-runtime.

import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { netlifyEdgeFiles } from "../../src/hosts/netlify/render.js";
import { printVercelFunction } from "../../src/hosts/vercel/render.js";
import type { RouteTable } from "../../src/routes/route-table.js";
import { removeDir, tmpDir } from "../helpers/fixtures.js";
import type { RunningServer } from "./servers.js";
import { tableInput } from "./edge-input.js";
import { startNetlifyDeno } from "./netlify-deno.js";
import { loadVercelFunction } from "./vercel-edge-runtime.js";

const table: RouteTable = { version: 1, entry: "/api.php", rules: [] } as unknown as RouteTable;
let root = "";
let deno: RunningServer | undefined;

beforeAll(async () => {
  root = await tmpDir("bis-harness-");
  for (const f of netlifyEdgeFiles(tableInput(table))) {
    await mkdir(path.dirname(path.join(root, ".netlify/v1", f.path)), { recursive: true });
    await writeFile(path.join(root, ".netlify/v1", f.path), f.data);
  }
  await mkdir(path.join(root, "dist", "style"), { recursive: true });
  await writeFile(path.join(root, "dist", "style", "a.css"), "body{}");
  deno = await startNetlifyDeno(root, path.join(root, "dist"));
}, 60_000);

afterAll(async () => {
  await deno?.stop();
  await removeDir(root);
});

describe("Netlify harness (Deno)", () => {
  test("a declared path is answered by the edge function, PATH_INFO included", async () => {
    for (const p of ["/api.php?action=config", "/api.php/extra?x=1"]) {
      const res = await fetch(`${deno!.url}${p}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ standIn: true, url: `${deno!.url}${p}` });
    }
  });
  test("other paths are the published files, or 404", async () => {
    const css = await fetch(`${deno!.url}/style/a.css`);
    expect([css.status, css.headers.get("content-type"), await css.text()]).toEqual([200, "text/css", "body{}"]);
    expect((await fetch(`${deno!.url}/api.phpx`)).status).toBe(404);
  });
});

describe("Vercel harness (edge-runtime)", () => {
  test("the one-file edge function answers", async () => {
    const fn = await loadVercelFunction(printVercelFunction(tableInput(table)));
    const res = await fn(new Request("https://site.example/api.php?action=config"));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ standIn: true, url: "https://site.example/api.php?action=config" });
    await fn.close();
  });
});
