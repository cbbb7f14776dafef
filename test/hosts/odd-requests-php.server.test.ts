// test/hosts/odd-requests-php.server.test.ts
// Issue 27's differential table, the query half: requests that differ only in their query (long, repeated, malformed
// and escaped parameters), and HEAD and OPTIONS, on /api.php, to `preview --edge` and to the reference PHP service
// under `php -S` (../shared/reference/serve-reference.sh): the same status and body, compared as `verify` compares
// them (`timestamp` ignored, an icon's `path` by its ending). Path forms and queries over 8 KB are nginx's to judge.

import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { startPreview, type Preview } from "../../src/preview/server.js";
import { DEMO_CONTENT, removeDir, tmpDir } from "../helpers/fixtures.js";
import { canRun } from "../helpers/needs.js";
import { startReference } from "../helpers/reference.js";
import type { RunningServer } from "./servers.js";
import { rawRequest } from "./odd-requests.js";

const QUERIES = [
  "",
  "?",
  "?&&&",
  "?action=config",
  "?action=config&action=icons",
  "?action=%63onfig",
  "?ACTION=config",
  "?action=Config",
  "?action=config&%",
  "?%zz=%zz&action=getExtensionSetting&extension=%",
  "?action=icon&name=..%2f..%2fconfig.json",
  "?action=findIcon&extension=PHP",
  "?action=findIcon&extension=%FF",
  "?action=findIcon&extension=php&extension=js",
  `?action=findIcon&extension=${"a".repeat(4000)}`,
  `?${"x=1&".repeat(1000)}action=status`,
  "?action[]=config",
  "?action=versionCheck",
  "?action=versionCheck&current_version=0",
  "?action=versionCheck&current_version=1.0%2B1",
  "?action=icon&name=php.png",
  "?action=icon&name=nope.png",
  "?action=icon",
  "?action=getExtensionSetting&extension=php&type=viewing",
  "?action=findIcon&extension=+php+",
  "?action=findIcon&extension=p%00hp",
  "?action=status&",
  "?=config",
  "?action",
];

interface Case {
  method: string;
  query: string;
}
const CASES: Case[] = [
  ...QUERIES.map((query) => ({ method: "GET", query })),
  { method: "HEAD", query: "?action=config" },
  { method: "HEAD", query: "?action=icon&name=nope.png" },
  { method: "OPTIONS", query: "?action=config" },
  { method: "OPTIONS", query: "" },
];

const need = canRun("shared") && (process.env.CI !== undefined || spawnSync("php", ["-v"]).status === 0);
let root = "";
let preview: Preview | undefined;
let php: RunningServer | undefined;

beforeAll(async () => {
  if (!need) return;
  root = await tmpDir("bis-odd-php-");
  const out = path.join(root, "dist");
  await build({ content: DEMO_CONTENT, out, hosts: ["cloudflare"], baseUrl: "https://api.indexer.ccls.icu" });
  preview = await startPreview({ dir: out, port: 0, host: "127.0.0.1", edge: true });
  php = await startReference(DEMO_CONTENT, path.join(root, "php"));
}, 60_000);

afterAll(async () => {
  await php?.stop();
  await preview?.close();
  if (root !== "") await removeDir(root);
});

/** The body as `verify` compares it: JSON without `timestamp` (and the content's `description`), an icon `path` by its file name. */
function comparable(body: Buffer): unknown {
  const text = body.toString("utf8");
  if (text === "") return "";
  try {
    return JSON.parse(text, (key, value: unknown) => {
      // The info document's description comes from the content's manifest.json; the reference hard-codes its own.
      if (key === "timestamp" || key === "description") return undefined;
      if (key === "path" && typeof value === "string") return value.slice(value.lastIndexOf("/") + 1);
      return value;
    }) as unknown;
  } catch {
    return text;
  }
}

describe.skipIf(!need)("odd queries: preview --edge against the reference PHP service", () => {
  test("the same status and body for every case", async () => {
    const differ: string[] = [];
    for (const c of CASES) {
      const target = `/api.php${c.query}`;
      const [ours, theirs] = [
        await rawRequest(preview!.url, c.method, target),
        await rawRequest(php!.url, c.method, target),
      ];
      const a = { status: ours.status, body: comparable(ours.body) };
      const b = { status: theirs.status, body: comparable(theirs.body) };
      if (JSON.stringify(a) !== JSON.stringify(b))
        differ.push(
          `${c.method} ${target.slice(0, 80)}: ${JSON.stringify(a).slice(0, 200)} vs ${JSON.stringify(b).slice(0, 200)}`,
        );
    }
    expect(differ).toEqual([]);
  });
});
