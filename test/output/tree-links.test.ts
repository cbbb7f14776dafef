// test/output/tree-links.test.ts
// The links an update in place looks at in the hosts' copies of the site (src/output/plan/tree-links.ts), which asks a set
// of answers once rather than answer by answer: for random trusted folders and rewritten files, on the demo site with
// a static tree, an edge tree and a tree whose own file lies among the answers, it gives what the rule gives file by
// file (each file a tree holds is looked at when every link is, its folder is not trusted, or it was rewritten; the
// others' sizes are added up).

import { describe, expect, it } from "vitest";
import { prng } from "../../scripts/prng.mjs";
import { compile } from "../../src/pipeline/compile.js";
import type { LinkTree } from "../../src/layout/link-trees.js";
import { treeHolds } from "../../src/output/plan/tree-links.js";
import { ManifestEntries } from "../../src/output/manifests/entries.js";
import { folderOf } from "../../src/output/plan/files.js";
import { treeLinks } from "../../src/output/plan/tree-links.js";
import { AnswerOutput } from "../../src/routes/answer-files.js";
import { DEMO_CONTENT } from "../helpers/fixtures.js";

const tree = (host: string, docroot: "site" | "plain", own: string[]): LinkTree => ({
  host,
  prefix: `hosts/${host}/`,
  docroot,
  own: new Set(own),
  ownAmongAnswers: own.some((p) => p.startsWith("api/")),
});

describe("treeLinks", () => {
  it("gives the links the rule gives file by file, in the same order, with the same folders and bytes", async () => {
    const { site } = await compile({ content: DEMO_CONTENT, sourceDateEpoch: "1704067200" });
    expect(site.filter((f) => f instanceof AnswerOutput).length).toBeGreaterThan(100);
    const answerPath = site.find((f) => f instanceof AnswerOutput && f.member !== null)!.path;
    const trees = [
      tree("apache", "site", [".htaccess"]),
      tree("cloudflare", "plain", ["_headers"]),
      tree("odd", "site", [answerPath]),
    ];
    const seed = Number(process.env.TREE_LINKS_SEED ?? 28);
    const next = prng(seed);
    for (let round = 0; round < 40; round++) {
      const entries = new ManifestEntries(site.length);
      site.forEach((_, i) => {
        if (next() > 0.02) entries.set(i, Buffer.alloc(20, i % 251), 1 + Math.floor(next() * 1000));
      });
      const untrusted = new Set(site.filter(() => next() < 0.05).map((f) => folderOf(f)));
      const trusted = (rel: string): boolean =>
        ![...untrusted].some((folder) => rel.endsWith(`/${folder}`) || (folder === "" && rel.split("/").length === 2));
      const rewritten = new Set(site.map((_, i) => i).filter(() => next() < 0.03));
      const all = next() < 0.1;
      const got = treeLinks(trees, { files: site, entries, dir: "/out" }, { trusted, rewritten, all });
      // The rule, file by file.
      const links: string[] = [];
      const folders = new Set<string>();
      let otherBytes = 0;
      for (const t of trees) {
        site.forEach((f, i) => {
          const size = entries.size(i);
          if (size < 0 || !treeHolds(t, f instanceof AnswerOutput, f)) return;
          const folder = folderOf(f);
          const link = folder === "" ? t.prefix.slice(0, -1) : t.prefix + folder;
          for (let d = link; d !== ""; d = d.slice(0, Math.max(0, d.lastIndexOf("/")))) folders.add(d);
          if (all || !trusted(link) || rewritten.has(i)) links.push(t.prefix + f.path);
          else otherBytes += size;
        });
      }
      expect(
        got.links.map((l) => l.path),
        `seed ${seed}, round ${round}`,
      ).toEqual(links);
      expect(got.folders).toEqual(folders);
      expect(got.otherBytes).toBe(otherBytes);
    }
  });
});
