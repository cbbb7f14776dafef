// test/docs/claims.test.ts
// What the README and docs/ say a build writes, and the commands they give, hold for the current tool: every path
// under dist/, .build-index-site/, .netlify/, .vercel/ or .wrangler/ that they name exists in a build of the demo
// content with the hosts the text names (a `--hosts` list, else the default hosts and the fallbacks it names), and
// every `build-index-site …`, `npx build-index-site …` or `npm run …` they give parses. Each failure names the doc's
// file:line, the claim, and what the build has instead. docs/hosts.md is left out of the paths: its `dist/` is the
// folder of experiments on the hosts' own engines (netlify-cli's `dist/utils/…`), not a build of this tool.

import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { parseOnly } from "../../src/cli/program.js";
import { SCRIPTS } from "../../src/init/package-json.js";
import { REPO } from "../helpers/fixtures.js";
import { docBuild, removeBuilds } from "./doc-builds.js";
import { commandsOf } from "./doc-commands.js";
import {
  DEFAULT_HOSTS,
  DOCS,
  hostsOf,
  lineOf,
  mentionPattern,
  proseMentions,
  treeMentions,
  units,
  type Mention,
} from "./doc-text.js";

afterAll(removeBuilds);

/** What the build has near a missing path: the paths with the same last name, to say where it went. */
function nearest(paths: readonly string[], mention: string): string {
  const name = path.basename(mention.replace(/\/$/, ""));
  const same = paths.filter((p) => path.basename(p.replace(/\/$/, "")) === name).slice(0, 3);
  return same.length === 0 ? "nothing of that name" : same.join(", ");
}

async function check(mention: Mention): Promise<string | null> {
  const hosts = hostsOf(mention.context);
  const build = await docBuild(hosts);
  const pattern = mentionPattern(mention.path);
  if (build.paths.some((p) => pattern.test(p))) return null;
  return (
    `${mention.unit.doc}:${mention.line}: says a build writes \`${mention.path}\` ` +
    `(built with --hosts ${build.hosts.join(",")}); the build has ${nearest(build.paths, mention.path)}`
  );
}

describe("paths the docs say a build writes", () => {
  for (const doc of DOCS.filter((d) => d !== "docs/hosts.md")) {
    it(`${doc}: each exists in a build of the demo content`, async () => {
      const found = units(doc).flatMap((u) => (u.kind === "prose" ? proseMentions(u) : treeMentions(u)));
      const wrong = (await Promise.all(found.map(check))).filter((w) => w !== null);
      expect(wrong.join("\n"), `${wrong.length} stale:\n${wrong.join("\n")}`).toBe("");
    });
  }
});

const SCRIPT_NAMES = new Set([
  ...Object.keys((JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as { scripts: object }).scripts),
  ...Object.keys(SCRIPTS),
]);

describe("commands the docs give", () => {
  for (const doc of DOCS) {
    it(`${doc}: each parses against the command line`, async () => {
      const wrong: string[] = [];
      const ours = commandsOf(units(doc)).filter((c) => c.tool === "build-index-site" || c.tool === "npm-run");
      for (const c of ours) {
        const problem =
          c.tool === "npm-run"
            ? SCRIPT_NAMES.has(c.args[0] ?? "")
              ? null
              : `no script "${c.args[0]}" (package.json, or the ones init writes)`
            : await parseOnly(c.args);
        if (problem !== null) wrong.push(`${doc}:${c.line}: \`${c.text}\`: ${problem}`);
      }
      expect(wrong.join("\n"), `${wrong.length} stale:\n${wrong.join("\n")}`).toBe("");
    });
  }
});

/** The handler files the default build deploys, by host (each host's entry bundled with src/edge/handler.ts). */
const HANDLERS = [
  ".netlify/v1/edge-functions/build-index-site-api/build-index-site-api.js",
  ".vercel/output/functions/api.php.func/index.js",
  ".build-index-site/dist/hosts/cloudflare/worker/index.js",
];

describe("the handler's size the docs quote", () => {
  it("is the deployed handler's, within 10% (`42 KB (12 KB gzip)`, or `42 KB / 12 KB`)", async () => {
    const build = await docBuild(DEFAULT_HOSTS);
    const sizes = HANDLERS.map((f) => readFileSync(path.join(build.root, f)));
    const bytes = Math.max(...sizes.map((b) => b.length)) / 1000;
    const gzip = Math.max(...sizes.map((b) => gzipSync(b).length)) / 1000;
    const near = (claim: number, actual: number): boolean => Math.abs(claim - actual) <= actual * 0.1;
    const wrong: string[] = [];
    let quoted = 0;
    for (const unit of DOCS.flatMap((doc) => units(doc)).filter((u) => /\bhandler\b/.test(u.text))) {
      for (const m of unit.text.matchAll(/(\d+(?:\.\d+)?) KB(?: \(| \/ )(\d+(?:\.\d+)?) KB(?: gzip\))?/g)) {
        quoted++;
        if (near(Number(m[1]), bytes) && near(Number(m[2]), gzip)) continue;
        wrong.push(`${unit.doc}:${lineOf(unit, m[0])}: says ${m[0]}; the handler is ${bytes} KB (${gzip} KB gzip)`);
      }
    }
    expect(quoted).toBeGreaterThan(0);
    expect(wrong.join("\n"), wrong.join("\n")).toBe("");
  });
});
