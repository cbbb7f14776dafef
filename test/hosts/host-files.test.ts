// test/hosts/host-files.test.ts
// The emitted host files for the demo content (snapshots checked by eye), their validity under each host's own
// parser or schema, the --hosts registry, and hostile literals that must never break a host's syntax.

import { writeFile } from "node:fs/promises";
import path from "node:path";
import { Ajv } from "ajv";
import { describe, expect, test } from "vitest";
import { headersSchema, normalizeRoutes, rewritesSchema } from "@vercel/routing-utils";
import { UsageError } from "../../src/errors.js";
import { DEFAULT_HOSTS, HOST_NAMES, HOSTS, parseHosts, renderHosts } from "../../src/hosts/index.js";
import { printRedirects } from "../../src/hosts/netlify-static/render.js";
import { toVercelJson } from "../../src/hosts/vercel-static/render.js";
import { vercelConfig } from "../../src/hosts/vercel/render.js";
import { API_ENTRY, type RouteTable } from "../../src/routes/route-table.js";
import { compileContent, DEMO_CONTENT, removeDir, tmpDir } from "../helpers/fixtures.js";
import { tableInput } from "./edge-input.js";
import { loadNetlifyEngine } from "./netlify-engine.js";

const demo = await compileContent(DEMO_CONTENT);
const table = demo.routes.table;

describe("host files for the demo content", () => {
  for (const host of HOST_NAMES) {
    test(`${host} files match their snapshots`, async () => {
      const { files, beside = [] } = HOSTS[host].render(tableInput(table));
      for (const file of files) await expect(file.data).toMatchFileSnapshot(`__snapshots__/${host}/${file.path}`);
      // Edge hosts: their folders beside the output, rendered with a stand-in handler bundle and data.
      for (const folder of beside) {
        for (const file of folder.files)
          await expect(file.data).toMatchFileSnapshot(`__snapshots__/${host}/${folder.dir}/${file.path}`);
      }
    });
  }

  test("the build writes the default hosts' files, and no dist/api.php that would shadow Netlify's rules", () => {
    const paths = demo.site.map((f) => f.path);
    expect(demo.hosts.map((h) => h.name)).toEqual(["netlify", "apache", "nginx", "cloudflare"]);
    expect(demo.hosts.map((h) => h.files.map((f) => f.path))).toEqual(
      renderHosts(tableInput(table)).folders.map((h) => h.files.map((f) => f.path)),
    );
    expect(demo.beside.map((f) => f.dir)).toEqual([".netlify/v1", ".vercel/output", ".wrangler/deploy"]);
    expect(paths).not.toContain(API_ENTRY.slice(1));
  });

  test("adapters are pure: the same table gives the same text", () => {
    expect(renderHosts(tableInput(table), HOST_NAMES)).toEqual(
      renderHosts(tableInput(structuredClone(table)), HOST_NAMES),
    );
  });

  test("vercel.json passes Vercel's own schema and limits", () => {
    const json = toVercelJson(table);
    const ajv = new Ajv({ allErrors: true, strict: false });
    expect(ajv.validate(rewritesSchema, json.rewrites), JSON.stringify(ajv.errors)).toBe(true);
    expect(ajv.validate(headersSchema, json.headers), JSON.stringify(ajv.errors)).toBe(true);
  });

  test("the Vercel Build Output config.json's routes pass Vercel's own route normalizer", () => {
    const config = vercelConfig();
    const normalized = normalizeRoutes(config.routes as Parameters<typeof normalizeRoutes>[0]);
    expect(normalized.error).toBeNull();
    expect(normalized.routes).toHaveLength(config.routes.length);
  });

  test("Netlify's parser reads every _redirects line, none bare, none dropped", async () => {
    const dir = await tmpDir();
    try {
      const { text, lines, omitted } = printRedirects(table);
      await writeFile(path.join(dir, "_redirects"), text);
      const engine = await loadNetlifyEngine(path.join(dir, "_redirects"));
      expect(engine.ruleCount).toBe(lines);
      expect(omitted).toEqual([]);
      for (const line of text.split("\n").filter((l) => l.startsWith(API_ENTRY))) {
        const tokens = line.split(/\s+/);
        const query = tokens.slice(
          1,
          tokens.findIndex((t, i) => i > 0 && t.startsWith("/")),
        );
        expect(
          query.every((t) => t.includes("=")),
          line,
        ).toBe(true);
      }
    } finally {
      await removeDir(dir);
    }
  });
});

describe("--hosts", () => {
  test("a comma list, in registry order; default or empty means every host but the fallbacks, all every host", () => {
    expect(parseHosts("vercel,netlify")).toEqual(["netlify", "vercel"]);
    expect(parseHosts("vercel-static,netlify-static")).toEqual(["netlify-static", "vercel-static"]);
    expect(parseHosts("all")).toEqual([...HOST_NAMES]);
    expect(parseHosts("default")).toEqual([...DEFAULT_HOSTS]);
    expect(parseHosts("")).toEqual([...DEFAULT_HOSTS]);
    expect(DEFAULT_HOSTS).toEqual(["netlify", "apache", "nginx", "vercel", "cloudflare"]);
  });
  test("an unknown name is a usage error that lists the hosts", () => {
    expect(() => parseHosts("netlify,gh-pages")).toThrow(UsageError);
    try {
      parseHosts("gh-pages");
    } catch (error) {
      expect((error as UsageError).hint).toMatch(
        /netlify, netlify-static, apache, nginx, vercel, vercel-static, cloudflare/,
      );
    }
  });
});

/** A table whose literals hold every character that could break a config syntax. */
function hostileTable(): RouteTable {
  const literals = [
    "a b",
    "a#b",
    "a\nb",
    "a&b=c",
    "100%",
    "%41",
    '"q"',
    "'q'",
    "a;b",
    "{x}",
    "$1",
    "%{ENV:X}",
    "${x}",
    "\\",
    "é",
    "c++",
    "a/b",
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
  ];
  return {
    ...table,
    rules: [
      ...literals.map((v, i) => ({
        id: `hostile.${i}.escaped`,
        match: { action: { eq: "hostile" }, key: { eq: v } },
        target: `/api/hostile/~${Buffer.from(v).toString("hex")}.json`,
        status: 200 as const,
        headers: {},
      })),
      ...table.rules,
    ],
  };
}

describe("hostile literals", () => {
  test("every adapter renders them without throwing, and Netlify leaves out exactly those it cannot spell", async () => {
    const hostile = hostileTable();
    expect(() => renderHosts(tableInput(hostile), HOST_NAMES)).not.toThrow();
    const { text, omitted } = printRedirects(hostile);
    const dir = await tmpDir();
    try {
      await writeFile(path.join(dir, "_redirects"), text);
      const engine = await loadNetlifyEngine(path.join(dir, "_redirects"));
      // Every kept literal matches its own encoded request, and nothing else was injected.
      hostile.rules.slice(0, 27).forEach((rule) => {
        const v = (rule.match.key as { eq: string }).eq;
        const m = engine.match(API_ENTRY, `action=hostile&key=${encodeURIComponent(v)}`);
        if (omitted.includes(rule.id)) expect(m?.to).not.toBe(rule.target);
        else expect(m?.to, JSON.stringify(v)).toBe(rule.target);
      });
      expect(
        text
          .split("\n")
          .filter((l) => l.startsWith("/api.php"))
          .every((l) => l.trim().split(/\s+/).length >= 3),
      ).toBe(true);
    } finally {
      await removeDir(dir);
    }
  });
});
