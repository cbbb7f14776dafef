// test/diff/fixtures.test.ts
// `diff` between the two real fixtures (indexer-1.1.15 → indexer-1.2.0-r2): as content folders, as builds, and with
// the new site served over HTTP. Every expected change is computed here from the folders' own files (JSON.parse,
// readdir, the PNG header, PHP's version_compare results in test/golden), never by src/diff.

import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { startPreview, type Preview } from "../../src/preview/server.js";
import { cli } from "../cli/run.js";
import { haveRealFixtures, realFixture, removeDir, REPO, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";

const OLD = realFixture("indexer-1.1.15");
const NEW = realFixture("indexer-1.2.0-r2");

// ------------------------------------------------------------------------------ the expectation, from the folders

type Obj = Record<string, unknown>;
const readJson = (dir: string, name: string): Obj => JSON.parse(readFileSync(path.join(dir, name), "utf8")) as Obj;
const strings = (o: unknown): Record<string, string> => o as Record<string, string>;

interface Folder {
  icons: Map<string, Buffer>;
  /** Every regular file in icons/ (findIcon serves any that exists). */
  files: Set<string>;
  iconMap: Record<string, string>;
  indexing: Record<string, string>;
  viewing: Record<string, string>;
  config: Obj;
  versions: string[];
}

function readFolder(dir: string): Folder {
  const files = new Set(
    readdirSync(path.join(dir, "icons")).filter((n) => statSync(path.join(dir, "icons", n)).isFile()),
  );
  const icons = new Map(
    [...files]
      .filter((n) => /\.(png|jpe?g|gif|svg|webp)$/i.test(n))
      .map((n) => [n, readFileSync(path.join(dir, "icons", n))]),
  );
  const ext = readJson(dir, "extensionMap.json");
  return {
    icons,
    files,
    iconMap: strings(readJson(dir, "icons.json")),
    indexing: strings(ext.indexing),
    viewing: strings(ext.viewing),
    config: readJson(dir, "config.json"),
    versions: readJson(dir, "manifest.json").versions as string[],
  };
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(data: Buffer): { width: number; height: number } {
  expect(data.subarray(1, 4).toString("latin1")).toBe("PNG");
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

/** What findIcon serves for an extension, as the reference PHP does it: lower-cased lookup, text.png when unmapped or missing. */
function served(f: Folder, ext: string): { icon: string | null; missing?: string } {
  const mapped = f.iconMap[ext.toLowerCase()] ?? "text.png";
  if (f.files.has(mapped)) return { icon: mapped };
  return { icon: f.files.has("text.png") ? "text.png" : null, missing: mapped };
}

/** PHP's version_compare, from the results PHP itself wrote (test/golden); plain dotted numbers compared where it has no row. */
const GOLDEN = new Map(
  (
    JSON.parse(readFileSync(path.join(REPO, "test/golden/version-compare.php.json"), "utf8")) as {
      cases: Array<[string, string, number]>;
    }
  ).cases.map(([a, b, c]) => [`${a}\u0000${b}`, c]),
);
function phpVersionCompare(a: string, b: string): number {
  const known = GOLDEN.get(`${a}\u0000${b}`);
  if (known !== undefined) return known;
  const x = a.split(/[.-]/);
  const y = b.split(/[.-]/);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (!/^\d+$/.test(x[i]!) || !/^\d+$/.test(y[i]!)) break;
    if (Number(x[i]) !== Number(y[i])) return Number(x[i]) < Number(y[i]) ? -1 : 1;
  }
  if (/^[\d.]+$/.test(a) && /^[\d.]+$/.test(b) && x.length !== y.length) return x.length < y.length ? -1 : 1;
  if (a === b) return 0;
  throw new Error(`No PHP result for version_compare(${a}, ${b}): add the pair to test/golden/version-compare.php.`);
}

/** Every JSON Pointer where two values differ. */
function changedPointers(a: unknown, b: unknown, p = ""): string[] {
  const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
  if (isObj(a) && isObj(b)) {
    return [...new Set([...Object.keys(a), ...Object.keys(b)])].flatMap((k) => {
      const q = `${p}/${k.replaceAll("~", "~0").replaceAll("/", "~1")}`;
      return !(k in a) || !(k in b) ? [q] : changedPointers(a[k], b[k], q);
    });
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [p];
}

function expected() {
  const a = readFolder(OLD);
  const b = readFolder(NEW);
  const added = [...b.icons.keys()].filter((n) => !a.icons.has(n)).sort();
  const removed = [...a.icons.keys()].filter((n) => !b.icons.has(n)).sort();
  const changed = [...a.icons.keys()].filter((n) => b.icons.has(n) && !a.icons.get(n)!.equals(b.icons.get(n)!)).sort();
  const lower = (o: Record<string, string>): string[] => Object.keys(o).map((k) => k.toLowerCase());
  const indexing = new Set([...lower(a.indexing), ...lower(b.indexing)]);
  const viewing = new Set([...lower(a.viewing), ...lower(b.viewing)]);
  const names = [...new Set([...lower(a.iconMap), ...lower(b.iconMap), ...indexing, ...viewing])]
    .filter((n) => n !== "folder")
    .sort();
  const mappingChanges = names
    .map((name) => ({ name, old: served(a, name), new: served(b, name) }))
    .filter((m) => JSON.stringify(m.old) !== JSON.stringify(m.new));
  const folder = (f: Folder) => {
    const mapped = f.iconMap.folder ?? "folder.png";
    return f.files.has(mapped)
      ? { icon: mapped }
      : { icon: f.files.has("text.png") ? "text.png" : null, missing: mapped };
  };
  const settings = (x: Record<string, string>, y: Record<string, string>) =>
    [...new Set([...Object.keys(x), ...Object.keys(y)])]
      .sort()
      .filter((k) => x[k] !== y[k])
      .map((extension) => ({ extension, old: x[extension] ?? null, new: y[extension] ?? null }));
  const latest = { old: a.config.version as string, new: b.config.version as string };
  const clientVersions = [...new Set([...b.versions, ...a.versions, latest.old, latest.new])];
  const checks = clientVersions
    .map((version) => ({
      version,
      old: { updateNeeded: phpVersionCompare(version, latest.old) < 0, latest: latest.old },
      new: { updateNeeded: phpVersionCompare(version, latest.new) < 0, latest: latest.new },
    }))
    .filter((c) => c.old.updateNeeded !== c.new.updateNeeded || c.old.latest !== c.new.latest);
  return {
    a,
    b,
    added,
    removed,
    changed,
    latest,
    checks,
    mappings: {
      indexing: mappingChanges.filter((m) => indexing.has(m.name)),
      viewing: mappingChanges.filter((m) => viewing.has(m.name)),
      other: mappingChanges.filter((m) => !indexing.has(m.name) && !viewing.has(m.name)),
      folder:
        JSON.stringify(folder(a)) === JSON.stringify(folder(b))
          ? null
          : { name: "folder", old: folder(a), new: folder(b) },
    },
    settings: { indexing: settings(a.indexing, b.indexing), viewing: settings(a.viewing, b.viewing) },
    versions: {
      added: b.versions.filter((v) => !a.versions.includes(v)),
      removed: a.versions.filter((v) => !b.versions.includes(v)),
    },
    config: changedPointers(a.config, b.config),
  };
}

// ------------------------------------------------------------------------------ what the command says

interface Report {
  diffFormat: number;
  old: { source: string; kind: string };
  new: { source: string; kind: string };
  icons: {
    added: Array<{ name: string; size: number; width: number; height: number }>;
    removed: Array<{ name: string }>;
    changed: Array<{ name: string }>;
  };
  mappings: { indexing: unknown[]; viewing: unknown[]; other: unknown[]; folder: unknown; unmapped: unknown };
  settings: { indexing: unknown[]; viewing: unknown[] };
  versions: {
    listed: boolean;
    added: string[];
    removed: string[];
    latest: { old: string; new: string };
    checks: Array<{ version: string }>;
  };
  config: Array<{ pointer: string; op: string; old?: unknown; new?: unknown }>;
  counts: Record<string, number>;
}

async function diffJson(oldArg: string, newArg: string): Promise<Report> {
  const ran = await cli("diff", oldArg, newArg, "--format", "json");
  expect(ran.stderr).toBe("");
  expect(ran.code).toBe(0);
  return JSON.parse(ran.stdout) as Report;
}

function expectFixtureChanges(report: Report, options: { listed: boolean } = { listed: true }): void {
  const e = expected();
  // Icons: names, and each added icon's bytes and PNG dimensions.
  expect(report.icons.added.map((i) => i.name)).toEqual(e.added);
  expect(report.icons.removed.map((i) => i.name)).toEqual(e.removed);
  expect(report.icons.changed.map((i) => i.name)).toEqual(e.changed);
  for (const icon of report.icons.added) {
    const data = e.b.icons.get(icon.name)!;
    expect({ size: icon.size, width: icon.width, height: icon.height }).toEqual({
      size: data.length,
      ...pngSize(data),
    });
  }
  // The icon each extension gets, per group, and folders.
  expect(report.mappings.indexing).toEqual(e.mappings.indexing);
  expect(report.mappings.viewing).toEqual(e.mappings.viewing);
  expect(report.mappings.other).toEqual(e.mappings.other);
  expect(report.mappings.folder).toEqual(e.mappings.folder);
  expect(report.mappings.unmapped).toBeNull(); // text.png is in both, unchanged
  expect(report.settings).toEqual(e.settings);
  // Versions and versionCheck.
  expect(report.versions.latest).toEqual(e.latest);
  if (options.listed) {
    expect(report.versions.added).toEqual(e.versions.added);
    expect(report.versions.removed).toEqual(e.versions.removed);
    expect(report.versions.checks).toEqual(e.checks);
  } else {
    // A URL lists no versions: only the other side's (and both latest) are compared.
    expect(report.versions.listed).toBe(false);
    expect(report.versions.checks).toEqual(
      e.checks.filter((c) => e.a.versions.includes(c.version) || c.version === e.latest.new),
    );
  }
  // config.json: every changed pointer, with its values.
  expect(report.config.map((c) => c.pointer)).toEqual(e.config);
  for (const c of report.config) {
    const at = (o: Obj): unknown =>
      c.pointer
        .split("/")
        .slice(1)
        .reduce<unknown>((v, k) => (v as Obj | undefined)?.[k], o);
    expect(c.old).toEqual(at(e.a.config));
    expect(c.new).toEqual(at(e.b.config));
  }
}

describe.skipIf(!haveRealFixtures)("diff indexer-1.1.15 → indexer-1.2.0-r2", () => {
  let root: string;
  const previews: Preview[] = [];
  const oldBuild = (): string => path.join(root, "old", "dist");
  const newBuild = (): string => path.join(root, "new", "dist");

  beforeAll(async () => {
    root = await tmpDir("bis-diff-");
    // The old site for nginx (answer files in dist), the new one edge-only (Netlify, Cloudflare): diff reads what both publish.
    await build({ content: OLD, out: oldBuild(), hosts: ["nginx"], sourceDateEpoch: TEST_EPOCH });
    await build({ content: NEW, out: newBuild(), hosts: ["netlify", "cloudflare"], sourceDateEpoch: TEST_EPOCH });
  }, 120_000);
  afterAll(async () => {
    for (const p of previews) await p.close();
    await removeDir(root);
  });

  test("content folders: every change computed from the folders' files", async () => {
    const report = await diffJson(OLD, NEW);
    expect(report.old).toEqual({ source: OLD, kind: "content" });
    expectFixtureChanges(report);
    // The sanity of the expectation itself: the fixtures' known story.
    expect(report.versions.added).toEqual(["1.1.18", "1.1.19", "1.1.19-r1", "1.2.0-r0", "1.2.0-r1", "1.2.0-r2"]);
    expect(report.icons.removed.map((i) => i.name)).toEqual(["pasca.png"]);
    expect(report.mappings.folder).toEqual({
      name: "folder",
      old: { icon: "folder.png" },
      new: { icon: "folder-proto.png" },
    });
  });

  test("builds (one for nginx, one edge-only) give the same report as their content", async () => {
    const fromBuilds = await diffJson(oldBuild(), newBuild());
    expect(fromBuilds.old.kind).toBe("build");
    expectFixtureChanges(fromBuilds);
    const fromContent = await diffJson(OLD, NEW);
    expect({ ...fromBuilds, old: null, new: null }).toEqual({ ...fromContent, old: null, new: null });
    // Mixed: a build against content.
    expectFixtureChanges(await diffJson(oldBuild(), NEW));
  });

  test("deployed sites, read through their API (previews of both builds): versions from their catalogue data", async () => {
    // The old fixture built for an edge host too: asked a version it was not built with, it answers as PHP does.
    await build({
      content: OLD,
      out: path.join(root, "old-edge", "dist"),
      hosts: ["cloudflare"],
      sourceDateEpoch: TEST_EPOCH,
    });
    const old = await startPreview({
      dir: path.join(root, "old-edge", "dist"),
      port: 0,
      host: "127.0.0.1",
      edge: true,
    });
    previews.push(old);
    const now = await startPreview({ dir: newBuild(), port: 0, host: "127.0.0.1", edge: true });
    previews.push(now);
    const report = await diffJson(old.url, now.url);
    expect([report.old.kind, report.new.kind]).toEqual(["url", "url"]);
    expect(report.versions.listed).toBe(true);
    expectFixtureChanges(report);
    expect(report.versions.added).toEqual(["1.1.18", "1.1.19", "1.1.19-r1", "1.2.0-r0", "1.2.0-r1", "1.2.0-r2"]);
    // A build against a URL: the same.
    expectFixtureChanges(await diffJson(oldBuild(), now.url));
  });

  test("a deployed site that publishes no catalogue data: versions not compared, and every output says so", async () => {
    const bare = path.join(root, "new-bare", "dist");
    await build({ content: NEW, out: bare, hosts: ["cloudflare"], sourceDateEpoch: TEST_EPOCH, catalogue: false });
    const site = await startPreview({ dir: bare, port: 0, host: "127.0.0.1", edge: true });
    previews.push(site);
    const report = (await diffJson(oldBuild(), site.url)) as Report & {
      notCompared: string[];
      versions: { unknown: Array<{ source: string; reason: string }> };
    };
    expect(report.new.kind).toBe("url");
    expectFixtureChanges(report, { listed: false });
    expect(report.notCompared).toEqual(["added-version", "removed-version"]);
    expect(report.versions.unknown.map((u) => u.source)).toEqual([site.url]);
    expect(report.versions.unknown[0]!.reason).toContain("does not list the client versions it serves");

    const md = await cli("diff", oldBuild(), site.url, "--format", "md");
    expect(md.code).toBe(0);
    expect(md.stdout).toContain("| Versions added | not compared |\n| Versions removed | not compared |");
    expect(md.stdout).toContain("**Versions could not be compared.**");
    const text = await cli("diff", oldBuild(), site.url, "--format", "text");
    expect(text.stdout).toContain("Versions added: not compared");
    expect(text.stdout).toContain("Versions could not be compared:");

    // --fail-on a kind it could not compare: exit 2 (cannot check), one line; unless another kind named is present.
    const unchecked = await cli("diff", oldBuild(), site.url, "--fail-on", "removed-version", "--format", "md");
    expect(unchecked.code).toBe(2);
    expect(unchecked.stderr.trim().split("\n")).toHaveLength(1);
    expect(unchecked.stderr).toContain("cannot be checked");
    expect(
      (await cli("diff", oldBuild(), site.url, "--fail-on", "removed-icon,removed-version", "--format", "md")).code,
    ).toBe(1);
  });

  test("Markdown: counts first, long lists folded, the changes in words", async () => {
    const e = expected();
    const ran = await cli("diff", OLD, NEW, "--format", "md");
    expect(ran.code).toBe(0);
    const md = ran.stdout;
    const lines = md.split("\n");
    expect(lines[0]).toBe(`## What clients will see change: \`${OLD}\` → \`${NEW}\``);
    // The counts table comes before any list.
    const table = lines.indexOf("| change | count |");
    expect(table).toBe(2);
    expect(lines.slice(table + 2, table + 11)).toEqual([
      `| Icons added | ${e.added.length} |`,
      `| Icons removed | ${e.removed.length} |`,
      `| Icons changed (bytes or dimensions) | ${e.changed.length} |`,
      `| Extensions and names whose icon changes | ${new Set([...e.mappings.indexing, ...e.mappings.viewing, ...e.mappings.other].map((m) => m.name)).size + 1} |`,
      `| Extension settings changed | ${e.settings.indexing.length + e.settings.viewing.length} |`,
      `| Versions added | ${e.versions.added.length} |`,
      `| Versions removed | ${e.versions.removed.length} |`,
      `| Client versions whose versionCheck answer changes | ${e.checks.length} |`,
      `| config.json keys changed | ${e.config.length} |`,
    ]);
    expect(md).toContain(`<details><summary>${e.added.length} icons added</summary>`);
    expect(md).toContain(`<details><summary>${e.mappings.indexing.length} changes for extensions indexed</summary>`);
    expect(md).toContain(`<details><summary>${e.mappings.viewing.length} changes for extensions viewed</summary>`);
    for (const m of e.mappings.indexing) {
      expect(md).toContain(
        `- \`${m.name}\`: \`${m.old.icon}\`${m.old.missing ? ` (\`${m.old.missing}\` is missing)` : ""} → \`${m.new.icon}\``,
      );
    }
    expect(md).toContain("- Folders: `folder.png` → `folder-proto.png`");
    expect(md).toContain("- Clients on `1.1.15` will now be told to update (to `1.2.0-r2`).");
    expect(md).toContain("- Clients on `1.0` will be told to update to `1.2.0-r2` instead of `1.1.15`.");
    expect(md).toContain("- /main/local_icons: false\n");
    expect(md).toContain('+ /main/max_download_size_file: "2048 MB"\n');
    expect(md.match(/<details>/g)?.length).toBe(md.match(/<\/details>/g)?.length);
  });

  test("docs/examples/diff-report.md shows the Markdown the tool prints for the two fixtures", async () => {
    const ran = await cli(
      "diff",
      "../shared/fixtures/indexer-1.1.15",
      "../shared/fixtures/indexer-1.2.0-r2",
      "--format",
      "md",
    );
    const readme = readFileSync(path.join(REPO, "docs/examples/diff-report.md"), "utf8");
    const start = readme.indexOf("<!-- diff-example:start -->");
    const end = readme.indexOf("<!-- diff-example:end -->");
    expect(start).toBeGreaterThan(-1);
    // Quoted (every line starts with ">"), so that it renders as the comment would, inside the page.
    const shown = readme
      .slice(readme.indexOf("\n", start) + 1, end)
      .replace(/\n$/, "")
      .split("\n");
    expect(shown.every((l) => l === ">" || l.startsWith("> "))).toBe(true);
    expect(shown.map((l) => l.replace(/^> ?/, "")).join("\n")).toBe(ran.stdout);
  });

  test("--fail-on: exit 1 only when a change of those kinds is present", async () => {
    expect((await cli("diff", OLD, NEW, "--fail-on", "removed-icon,changed-mapping")).code).toBe(1);
    expect((await cli("diff", OLD, NEW, "--fail-on", "changed-icon,changed-setting,removed-version")).code).toBe(0);
    expect((await cli("diff", OLD, OLD, "--fail-on", "any")).code).toBe(0);
    const bad = await cli("diff", OLD, NEW, "--fail-on", "removed-icons");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("did you mean removed-icon?");
  });
});
