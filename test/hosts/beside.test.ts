// test/hosts/beside.test.ts
// The edge hosts' folders beside --out (.netlify/v1, .vercel/output): written whole and atomically by the writer
// (their manifests and identities in --out's records, no file of ours inside), never over a folder the build did not
// write, and rebuilt when missing.

import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build, buildIfChanged } from "../../src/pipeline/pipeline.js";
import type { BuildOptions } from "../../src/pipeline/options.js";
import { UsageError } from "../../src/errors.js";
import { DEMO_CONTENT, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { layoutOf } from "../../src/layout/paths.js";
import { folderId } from "../../src/layout/stamp.js";
import { untrueManifestLines } from "../helpers/manifests.js";

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

async function setup(): Promise<BuildOptions & { root: string }> {
  const root = await tmpDir("bis-beside-");
  temps.push(root);
  return {
    root,
    content: DEMO_CONTENT,
    out: path.join(root, "dist"),
    sourceDateEpoch: TEST_EPOCH,
    hosts: ["netlify", "vercel"],
  };
}

/** The folders beside --out that the records' site.id names, with their identities. */
async function folderIds(out: string): Promise<Record<string, string>> {
  const lines = (await readFile(layoutOf(out).siteId, "utf8")).split("\n").slice(1, -1);
  return Object.fromEntries(lines.map((l) => [l.split(" ")[2]!, l.split(" ")[1]!]));
}

/** A folder's identity as the records print it. */
const idOf = async (dir: string): Promise<string> => folderId(await stat(dir, { bigint: true }));

/** The records name each folder beside --out as it is, their manifests of them are true, and none holds a mark. */
async function expectRecorded(options: { root: string; out: string }): Promise<void> {
  const dirs = [".netlify/v1", ".vercel/output"];
  const ids = await Promise.all(dirs.map(async (d) => idOf(path.join(options.root, d))));
  expect(await folderIds(options.out)).toEqual(Object.fromEntries(dirs.map((d, i) => [d, ids[i]])));
  expect(untrueManifestLines(options.out)).toEqual([]);
  for (const dir of dirs) {
    const files = await list(path.join(options.root, dir));
    expect(
      files.filter((f) => f.startsWith(".build-")),
      dir,
    ).toEqual([]);
  }
}

/** Every file of a folder with its bytes. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const files = await list(dir);
  return Object.fromEntries(await Promise.all(files.map(async (f) => [f, await readFile(path.join(dir, f), "utf8")])));
}

const list = async (dir: string): Promise<string[]> =>
  (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join("/"))
    .sort();

describe("folders beside --out", () => {
  it("the edge outputs write .netlify/v1 and .vercel/output in the folder that holds --out, and nothing else there", async () => {
    const options = await setup();
    await build(options);
    expect((await readdir(options.root)).sort()).toEqual([".build-index-site", ".netlify", ".vercel", "dist"]);
    expect(await list(path.join(options.root, ".netlify/v1"))).toEqual([
      "config.json",
      "edge-functions/build-index-site-api/build-index-site-api.js",
    ]);
    // Their manifests are in the records, each true of its folder, and site.id names each folder.
    const records = layoutOf(options.out).records;
    expect((await list(path.join(records, "beside"))).sort()).toEqual([
      ".netlify/v1.manifest",
      ".vercel/output.manifest",
    ]);
    expect(untrueManifestLines(options.out)).toEqual([]);
    expect(await folderIds(options.out)).toEqual({
      ".netlify/v1": await idOf(path.join(options.root, ".netlify/v1")),
      ".vercel/output": await idOf(path.join(options.root, ".vercel/output")),
    });
    // The handler's data files are in --out (Netlify publishes its copy of it), and no answer file is there.
    const dist = await list(options.out);
    expect(dist).toContain("_edge-data/core.json");
    expect(dist.filter((p) => p.startsWith("api/"))).toEqual([]);
    const config = JSON.parse(await readFile(path.join(options.root, ".netlify/v1/config.json"), "utf8"));
    expect(config).toMatchObject({
      edge_functions: [
        { function: "build-index-site-api", path: "/api.php", cache: "manual" },
        { function: "build-index-site-api", path: "/api.php/*", cache: "manual" },
      ],
      // The static files' headers: an SVG opened from the site's origin runs no script; the site's pages (the
      // catalogue) load scripts and styles from the site only.
      headers: [
        ...["/icons/*", "/style/*", "/favicon/*"].map((p) => ({
          for: p,
          values: { "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox" },
        })),
        ...["/", "/index.html", "/catalogue/*"].map((p) => ({
          for: p,
          values: {
            "Content-Security-Policy":
              "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
          },
        })),
      ],
    });
  });

  it("Vercel's static/ holds the output folder's plain files (hard links), without answer or internal files", async () => {
    const options = await setup();
    await build(options);
    const vercel = path.join(options.root, ".vercel/output");
    const dist = await list(options.out);
    const statics = (await list(vercel)).filter((p) => p.startsWith("static/")).map((p) => p.slice("static/".length));
    expect(statics).toEqual(dist.filter((p) => !p.startsWith("api/")));
    expect(statics).toContain("icons/php.png");
    expect(statics).toContain("config.json");
    expect(statics).not.toContain("routes.json");
    for (const p of statics) {
      const [copy, original] = await Promise.all([
        stat(path.join(vercel, "static", p)),
        stat(path.join(options.out, p)),
      ]);
      expect(copy.ino, p).toBe(original.ino);
    }
    expect(JSON.parse(await readFile(path.join(vercel, "functions/api.php.func/.vc-config.json"), "utf8"))).toEqual({
      runtime: "edge",
      entrypoint: "index.js",
    });
    expect(JSON.parse(await readFile(path.join(vercel, "config.json"), "utf8")).version).toBe(3);
  });

  it("refuses a .netlify/v1 it did not write, before writing anything", async () => {
    const options = await setup();
    await mkdir(path.join(options.root, ".netlify/v1"), { recursive: true });
    await writeFile(path.join(options.root, ".netlify/v1/config.json"), "{}");
    await expect(build(options)).rejects.toThrow(UsageError);
    await expect(build(options)).rejects.toThrow(/\.netlify\/v1 exists and was not written by build-index-site/);
    expect(existsSync(options.out)).toBe(false);
    expect(await readFile(path.join(options.root, ".netlify/v1/config.json"), "utf8")).toBe("{}");
  });

  it("two sites built into one folder do not overwrite each other's .netlify/v1 (refused, exit 2, nothing written)", async () => {
    const options = await setup();
    await build(options);
    const before = await snapshot(path.join(options.root, ".netlify/v1"));
    const other = { ...options, out: path.join(options.root, "public"), baseUrl: "https://b.example.org" };
    await expect(build(other)).rejects.toThrow(UsageError);
    await expect(build(other)).rejects.toThrow(/\.netlify\/v1 belongs to the build of .*dist, not of --out .*public/);
    expect(existsSync(other.out)).toBe(false);
    expect(await snapshot(path.join(options.root, ".netlify/v1"))).toEqual(before);
    // The first site still builds, and a site without a folder beside --out shares the base folder freely.
    expect("model" in (await build({ ...other, hosts: ["nginx"] }))).toBe(true);
    expect("model" in (await build(options))).toBe(true);
  });

  it("names the other --out, and what its build left, in the refusal's hint", async () => {
    const options = await setup();
    await build(options);
    const other = { ...options, out: path.join(options.root, "public") };
    const error = await build(other).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UsageError);
    const hint = (error as UsageError).hint ?? "";
    for (const p of ["dist", ".build-index-site/dist", ".netlify/v1", ".vercel/output"])
      expect(hint, p).toContain(path.relative(process.cwd(), path.join(options.root, p)));
  });

  it("takes an empty folder, and refuses one the records do not name (made again by hand)", async () => {
    const options = await setup();
    await mkdir(path.join(options.root, ".vercel/output"), { recursive: true });
    await build(options);
    expect(existsSync(path.join(options.root, ".vercel/output/config.json"))).toBe(true);
    // Removed and made again with a file of its own: not the folder the records name.
    await rm(path.join(options.root, ".vercel/output"), { recursive: true });
    await mkdir(path.join(options.root, ".vercel/output"));
    await writeFile(path.join(options.root, ".vercel/output/mine.txt"), "mine\n");
    await expect(build({ ...options, force: true })).rejects.toThrow(
      /\.vercel\/output exists and was not written by build-index-site/,
    );
    expect(await readFile(path.join(options.root, ".vercel/output/mine.txt"), "utf8")).toBe("mine\n");
  });

  it("takes a folder an older build of this --out wrote (its marks inside), and refuses another --out's", async () => {
    const options = await setup();
    const old = (out: string): string => `${JSON.stringify({ format: 3, out, beside: [".netlify/v1"] })}\n`;
    const netlify = path.join(options.root, ".netlify/v1");
    await mkdir(netlify, { recursive: true });
    await writeFile(path.join(netlify, ".build-manifest"), "build-index-site manifest 1\n");
    await writeFile(path.join(netlify, ".build-inputs"), old("public"));
    await expect(build(options)).rejects.toThrow(/\.netlify\/v1 belongs to the build of .*public, not of --out/);
    expect(existsSync(options.out)).toBe(false);
    await writeFile(path.join(netlify, ".build-inputs"), old("dist"));
    await build(options);
    expect(await list(netlify)).toEqual(["config.json", "edge-functions/build-index-site-api/build-index-site-api.js"]);
    await expectRecorded(options);
  });

  it("a folder of a host a later build leaves out stays there, and this --out's", async () => {
    const options = await setup();
    await build(options);
    const vercel = path.join(options.root, ".vercel/output");
    const before = await snapshot(vercel);
    await build({ ...options, hosts: ["netlify"] });
    expect(await snapshot(vercel)).toEqual(before);
    const other = { ...options, out: path.join(options.root, "public"), hosts: ["vercel" as const] };
    await expect(build(other)).rejects.toThrow(/\.vercel\/output belongs to the build of .*dist, not of --out/);
    await build(options);
    await expectRecorded(options);
  });

  it("a build whose beside folder went missing is not up to date", async () => {
    const options = await setup();
    expect("model" in (await buildIfChanged(options))).toBe(true);
    expect("model" in (await buildIfChanged(options))).toBe(false);
    await rm(path.join(options.root, ".netlify/v1"), { recursive: true });
    expect("model" in (await buildIfChanged(options))).toBe(true);
    expect(existsSync(path.join(options.root, ".netlify/v1/config.json"))).toBe(true);
  });

  it("Ctrl-C once the output folder is swapped in does not stop the folders beside it (no new answers with an old handler)", async () => {
    const options = await setup();
    await build(options);
    const controller = new AbortController();
    // A full build (--force): the handler's file beside --out is written after --out is swapped in. (An in-place
    // update would not write it again: the handler is the same for every site; the case below covers that path.)
    const result = await build({
      ...options,
      baseUrl: "https://other.example.org",
      force: true,
      write: {
        signal: controller.signal,
        onFile: (f) => {
          if (f.path.endsWith("/build-index-site-api.js")) controller.abort();
        },
      },
    });
    expect(controller.signal.aborted).toBe(true);
    expect(result.outDir).toBe(path.resolve(options.out));
    // The records (written last) name each folder and hold its manifest.
    await expectRecorded(options);
    expect(await readFile(path.join(options.root, ".vercel/output/static/_edge-data/core.json"), "utf8")).toContain(
      "other.example.org",
    );
    expect(await readFile(path.join(options.out, "_edge-data/core.json"), "utf8")).toContain("other.example.org");
  });

  it("Ctrl-C during an in-place update does not stop it: every folder ends up with the new build", async () => {
    const options = await setup();
    await build(options);
    const controller = new AbortController();
    const result = await build({
      ...options,
      baseUrl: "https://other.example.org",
      write: { signal: controller.signal, onFile: () => controller.abort() }, // at the first file written
    });
    expect(controller.signal.aborted).toBe(true);
    expect(result.changes.mode).toBe("in place");
    await expectRecorded(options);
    expect(await readFile(path.join(options.root, ".vercel/output/static/_edge-data/core.json"), "utf8")).toContain(
      "other.example.org",
    );
    expect(await readFile(path.join(options.out, "_edge-data/core.json"), "utf8")).toContain("other.example.org");
  });

  it("only the chosen hosts' folders are written", async () => {
    const options = await setup();
    await build({ ...options, hosts: ["apache", "netlify-static"] });
    expect((await readdir(options.root)).sort()).toEqual([".build-index-site", "dist"]);
  });
});
