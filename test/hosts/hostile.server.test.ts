// test/hosts/hostile.server.test.ts
// Literals holding every character that could break or inject into a host's syntax, answered by the real engines:
// each host must answer the rule's own file for its encoded request (or, Netlify, leave the rule out).

import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { HOST_NAMES, renderHosts } from "../../src/hosts/index.js";
import { NGINX_HTTP_FILE, NGINX_SERVER_FILE } from "../../src/hosts/nginx/render.js";
import { printRedirects } from "../../src/hosts/netlify-static/render.js";
import { toVercelJson } from "../../src/hosts/vercel-static/render.js";
import type { RouteTable } from "../../src/routes/route-table.js";
import { tableInput } from "./edge-input.js";
import { removeDir, tmpDir } from "../helpers/fixtures.js";
import { canRun } from "../helpers/needs.js";
import { httpAnswerer, netlifyAnswerer, vercelAnswerer, type Answerer } from "./answers.js";
import { loadNetlifyEngine } from "./netlify-engine.js";
import { haveApache, haveNginx, mustRunServers, startApache, startNginx, type RunningServer } from "./servers.js";

export const HOSTILE_LITERALS = [
  "a b",
  "a#b",
  "a\nb",
  "a\r\nb",
  "a&b=c",
  "100%",
  "%41",
  '"q"',
  "'q'",
  "a;b",
  "{x}",
  "$1",
  "%1",
  "%{ENV:X}",
  "${x}",
  "\\",
  "\\\\n",
  "é",
  "日本",
  "😀",
  "c++",
  "a/b",
  "../x",
  ":name",
  "~x",
  "a\tb",
  "\u2028",
  "(a|b)",
  "[a]",
  "^$",
  "*",
  "#",
  "=",
  "?",
  "<!-- -->",
  "</script>",
  "a`b",
  "x y\"; return 200 '",
  "\u0000",
];

function hostileTable(): RouteTable {
  return {
    version: 1,
    entry: "/api.php",
    duplicateKeys: "last",
    valueCharset: "^[A-Za-z0-9_-][A-Za-z0-9._-]*$",
    rules: [
      ...HOSTILE_LITERALS.map((v, i) => ({
        id: `hostile.${i}.escaped`,
        match: { action: { eq: "hostile" }, key: { eq: v } },
        target: `/api/hostile/~${Buffer.from(v).toString("hex")}.json`,
        status: 200 as const,
        headers: { "Content-Type": "application/json", "Access-Control-Allow-Origin": "*" },
      })),
      {
        id: "info",
        match: {},
        target: "/api/info.json",
        status: 200,
        headers: { "Content-Type": "application/json", "Access-Control-Allow-Origin": "*" },
      },
    ],
  };
}

const table = hostileTable();
let root = "";
let site = "";
const servers: RunningServer[] = [];
const answerers: Record<string, Answerer> = {};
let netlifyOmitted: string[] = [];

beforeAll(async () => {
  root = await tmpDir("bis-hostile-");
  site = path.join(root, "site");
  await mkdir(path.join(site, "api", "hostile"), { recursive: true });
  for (const rule of table.rules)
    await writeFile(path.join(site, rule.target), `${JSON.stringify({ rule: rule.id })}\n`);
  // The static hosts' configs, flat in the site folder (the edge hosts' files are not what this suite runs).
  for (const f of renderHosts(tableInput(table), HOST_NAMES)
    .folders.filter((h) => h.docroot !== "plain")
    .flatMap((h) => h.files)) {
    await writeFile(path.join(site, f.path), f.data);
  }
  await chmod(root, 0o755);
  netlifyOmitted = printRedirects(table).omitted;
  answerers.netlify = await netlifyAnswerer(site, await loadNetlifyEngine(path.join(site, "_redirects")));
  answerers.vercel = await vercelAnswerer(site, toVercelJson(table));
  if (haveApache || mustRunServers) {
    const s = await startApache(site);
    servers.push(s);
    answerers.apache = httpAnswerer(s.url);
  }
  if (haveNginx || mustRunServers) {
    const s = await startNginx(site, path.join(site, NGINX_HTTP_FILE), path.join(site, NGINX_SERVER_FILE));
    servers.push(s);
    answerers.nginx = httpAnswerer(s.url);
  }
}, 60_000);

afterAll(async () => {
  for (const s of servers) await s.stop();
  await removeDir(root);
});

describe("hostile literals through every host's engine", () => {
  // Cloudflare runs the request-time handler (no route table): test/hosts/edge-parity.server.test.ts compares it.
  for (const host of ["netlify", "apache", "nginx", "vercel"]) {
    // Outside CI a host whose server is not installed is skipped (the run says so once); in CI it must run.
    test.skipIf((host === "apache" && !canRun("apache")) || (host === "nginx" && !canRun("nginx")))(host, async () => {
      const answer = answerers[host];
      if (answer === undefined) throw new Error(`${host} has no answerer`);
      for (const rule of table.rules.slice(0, -1)) {
        const v = (rule.match.key as { eq: string }).eq;
        const got = await answer(`action=hostile&key=${encodeURIComponent(v)}`);
        const expected = host === "netlify" && netlifyOmitted.includes(rule.id) ? "info" : rule.id;
        expect({ literal: v, status: got.status, body: got.body.trim() }).toEqual({
          literal: v,
          status: 200,
          body: JSON.stringify({ rule: expected }),
        });
      }
      // A near miss never matches: one more character.
      const near = await answer(`action=hostile&key=${encodeURIComponent("a bx")}`);
      expect(near.body.trim()).toBe(JSON.stringify({ rule: "info" }));
    });
  }
});
