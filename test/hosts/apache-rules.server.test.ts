// test/hosts/apache-rules.server.test.ts
// Apache's `.htaccess` keeps its size as the site grows (a set is told by its answer files, `RewriteCond … -f`), a set
// whose folder holds other files keeps its list, and the file tests find the site's folder on disk when it is a
// subfolder of the document root or reached through an Alias (answers compared with the preview's).

import { chmod, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { fileTestedSets } from "../../src/hosts/apache/file-sets.js";
import { printHtaccess } from "../../src/hosts/apache/render.js";
import { layoutOf } from "../../src/layout/paths.js";
import { startPreview } from "../../src/preview/server.js";
import type { RouteTable, Rule } from "../../src/routes/route-table.js";
import { compileContent, DEMO_CONTENT, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { canRun } from "../helpers/needs.js";
import { httpAnswerer } from "./answers.js";
import { KNOWN_DIFFERENCES } from "./known-differences.js";
import { generateRequests } from "./requests.js";
import { startApache, type RunningServer } from "./servers.js";

const demo = (await compileContent(DEMO_CONTENT)).routes.table;

/** The table with `extra` more members in every set (the same in each, so that shared folders stay alike). */
function grown(table: RouteTable, extra: number): RouteTable {
  const added = Array.from({ length: extra }, (_, i) => `zz-added-${String(i).padStart(6, "0")}`);
  return {
    ...table,
    rules: table.rules.map((r) => ({
      ...r,
      match: Object.fromEntries(
        Object.entries(r.match).map(([k, p]) => [k, "in" in p ? { ...p, in: [...p.in, ...added] } : p]),
      ),
    })),
  };
}

const rule = (id: string, match: Rule["match"], target: string): Rule => ({
  id,
  match,
  target,
  status: 200,
  headers: {},
});

describe("the .htaccess does not grow with the site", () => {
  test("10,000 more members in every set leave the .htaccess as it was (it listed every member)", () => {
    const text = printHtaccess(demo);
    expect(printHtaccess(grown(demo, 10_000))).toBe(text);
    expect(text.length).toBeLessThan(25_000);
    // Every set of the demo is told by its files.
    expect(fileTestedSets(demo).size).toBe(
      demo.rules.filter((r) => Object.values(r.match).some((p) => "in" in p)).length,
    );
  });

  test("a set whose folder holds a file it does not list keeps its list: -f would accept that file's value", () => {
    const table: RouteTable = {
      ...demo,
      rules: [
        rule("a.small", { action: { eq: "a" }, k: { in: ["one", "two"] } }, "/api/shared/{k}.json"),
        rule("a.large", { action: { eq: "b" }, k: { in: ["one", "three", "two"] } }, "/api/shared/{k}.json"),
        rule(
          "a.any-case",
          { action: { eq: "c" }, k: { in: ["one", "three", "two"], ignoreCase: true } },
          "/api/shared/{k}.json",
        ),
        rule("a.upper", { action: { eq: "d" }, k: { in: ["ONE"] } }, "/api/upper/{k}.json"),
        rule("a.single", { action: { eq: "d" } }, "/api/upper/four.json"),
        rule("a.escaped", { action: { eq: "e" }, k: { eq: "c++" } }, "/api/esc/~632b2b.json"),
        rule("a.esc-set", { action: { eq: "e" }, k: { in: ["c"] } }, "/api/esc/{k}.json"),
        rule("info", {}, "/api/info.json"),
      ],
    };
    const tested = [...fileTestedSets(table).keys()].map((r) => r.id);
    // a.small: three.json lies in its folder; a.upper: four.json does. An upper-case name is out of reach of a set
    // that ignores case, and an escaped name (not a safe value) out of reach of any set.
    expect(tested).toEqual(["a.large", "a.any-case", "a.esc-set"]);
    const text = printHtaccess(table);
    expect(text).toContain("(?:one|two)(?=&|$)");
    expect(text).toContain("(?:ONE)(?=&|$)");
    expect(text).toContain("RewriteCond %{ENV:BIS_DIR}api/shared/%{ENV:BIS_V_k}.json -f");
    expect(text).toContain("RewriteCond %{ENV:BIS_DIR}api/shared/%{ENV:BIS_LC_k}.json -f");
  });
});

describe.skipIf(!canRun("apache"))("the file tests in a subfolder and under an Alias", () => {
  let root = "";
  let out = "";
  const servers: RunningServer[] = [];
  let preview: Awaited<ReturnType<typeof startPreview>> | undefined;

  beforeAll(async () => {
    root = await tmpDir("bis-apache-rules-");
    out = path.join(root, "dist");
    await build({ content: DEMO_CONTENT, out, sourceDateEpoch: TEST_EPOCH, hosts: ["apache"] });
    await chmod(root, 0o755);
    await chmod(out, 0o755);
    preview = await startPreview({ dir: out, port: 0, host: "127.0.0.1" });
  }, 60_000);

  afterAll(async () => {
    await preview?.close();
    for (const s of servers) await s.stop();
    await removeDir(root);
  });

  test("Apache answers every generated request like the preview from /site/ and from an Alias", async () => {
    const site = layoutOf(out).host("apache");
    // The site as a subfolder (/apache/) of the document root, and the same folder as an Alias; under an Alias,
    // mod_rewrite needs the RewriteBase that docs/deploy.md asks for.
    const aliased = path.join(root, "aliased");
    await build({ content: DEMO_CONTENT, out: aliased, sourceDateEpoch: TEST_EPOCH, hosts: ["apache"] });
    const aliasSite = layoutOf(aliased).host("apache");
    const htaccess = path.join(aliasSite, ".htaccess");
    const text = await readFile(htaccess, "utf8");
    await writeFile(htaccess, text.replace("RewriteEngine On\n", "RewriteEngine On\nRewriteBase /icons-alias/\n"));
    await chmod(aliased, 0o755);
    const apache = await startApache(path.dirname(site), [
      `Alias /icons-alias "${aliasSite}"`,
      `<Directory "${aliasSite}">`,
      "  AllowOverride All",
      "  Require all granted",
      "</Directory>",
    ]);
    servers.push(apache);
    const table = JSON.parse(await readFile(layoutOf(out).routes, "utf8")) as RouteTable;
    const known = new Set(KNOWN_DIFFERENCES.apache.map((d) => d.category));
    const requests = generateRequests(table, { membersPerSet: 3 }).filter((r) => !known.has(r.category));
    const expected = httpAnswerer(preview!.url);
    const hosts = [httpAnswerer(`${apache.url}/apache`), httpAnswerer(`${apache.url}/icons-alias`)];
    const differences: string[] = [];
    for (const r of requests) {
      const want = await expected(r.query);
      for (const [i, answer] of hosts.entries()) {
        const got = await answer(r.query);
        if (got.status !== want.status || got.body !== want.body || got.contentType !== want.contentType)
          differences.push(`${i === 0 ? "subfolder" : "alias"} ?${r.query}: ${got.status} ${got.body.slice(0, 60)}`);
      }
    }
    expect(requests.length).toBeGreaterThan(500);
    expect(differences.slice(0, 10)).toEqual([]);
  }, 120_000);
});
