// test/output/beside-crash.test.ts
// The folders beside --out (.netlify/v1, .vercel/output) hold no mark of this tool: the records name them by their
// identity. A build killed (SIGKILL) between swapping a folder in and writing the records that name it must leave
// nothing the next build refuses: the folder is named first in the pending record. Proven by killing a real build
// right before and after each swap, then building again as a user would: it takes every folder, finishes the build,
// and leaves what a fresh build of the same site leaves.

import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { layoutOf } from "../../src/layout/paths.js";
import { readBuild } from "../../src/layout/read-build.js";
import type { HostName } from "../../src/hosts/names.js";
import { build, buildIfChanged } from "../../src/pipeline/pipeline.js";
import { DEMO_CONTENT, removeDir, REPO, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { untrueManifestLines } from "../helpers/manifests.js";
import { runCrashChild } from "../helpers/processes.js";

const LIB = path.join(REPO, "lib/pipeline/pipeline.js");
const HOSTS: HostName[] = ["netlify", "vercel", "nginx"];
const BESIDE = [".netlify/v1", ".vercel/output"];

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));
beforeAll(() => {
  if (!existsSync(LIB)) throw new Error(`${LIB} is missing: run \`npm run build\` first (npm test does).`);
});

/** A build process that SIGKILLs itself right before or after the rename that swaps the folder `target` (relative
 * to the folder that holds --out) into place. */
const CHILD = `
import { build } from ${JSON.stringify(LIB)};
import * as fs from "node:fs/promises";
import path from "node:path";
const { content, out, hosts, baseUrl, epoch, target, when } = JSON.parse(process.env.CRASH_SPEC);
const swapped = path.join(await fs.realpath(path.dirname(out)), target);
const die = () => { process.kill(process.pid, "SIGKILL"); return new Promise(() => {}); };
await build({
  content, out, hosts, baseUrl, sourceDateEpoch: epoch,
  write: {
    methods: {
      rename: async (from, to) => {
        if (to === swapped && when === "before") await die();
        await fs.rename(from, to);
        if (to === swapped && when === "after") await die();
      },
    },
  },
});
process.stdout.write("finished without being killed\\n");
`;

function killedBuild(
  out: string,
  baseUrl: string,
  target: string,
  when: "before" | "after",
): Promise<{ signal: NodeJS.Signals | null; stdout: string }> {
  const spec = { content: DEMO_CONTENT, out, hosts: HOSTS, baseUrl, epoch: TEST_EPOCH, target, when };
  return runCrashChild(CHILD, spec);
}

/** Every file of --out and of the folders beside it → sha1 of its bytes. */
async function served(root: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const top of ["dist", ...BESIDE]) {
    for (const e of await readdir(path.join(root, top), { recursive: true, withFileTypes: true })) {
      if (!e.isFile()) continue;
      const rel = path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join("/");
      files.set(
        rel,
        createHash("sha1")
          .update(await readFile(path.join(root, rel)))
          .digest("hex"),
      );
    }
  }
  return files;
}

const options = (root: string, baseUrl: string) => ({
  content: DEMO_CONTENT,
  out: path.join(root, "dist"),
  hosts: HOSTS,
  baseUrl,
  sourceDateEpoch: TEST_EPOCH,
});

/** What a fresh build of each base URL leaves, built once. */
const fresh = new Map<string, Map<string, string>>();
async function freshBuild(baseUrl: string): Promise<Map<string, string>> {
  let files = fresh.get(baseUrl);
  if (files === undefined) {
    const root = await tmpDir("bis-beside-fresh-");
    temps.push(root);
    await build(options(root, baseUrl));
    fresh.set(baseUrl, (files = await served(root)));
  }
  return files;
}

const A = "https://a.example.org";
const B = "https://b.example.org";
/** [whether a first build (A) is there before, the folder whose swap is cut, before or after it, what it shows]. */
const CASES: Array<[boolean, string, "before" | "after", string]> = [
  [false, "dist", "after", "a first build stopped before any record: --out named only by the pending record"],
  [false, ".netlify/v1", "after", "a first build stopped after its first folder beside --out"],
  [false, ".vercel/output", "after", "a first build stopped before its records"],
  [true, ".vercel/output", "before", "a rebuild stopped between two folders beside --out"],
  [true, ".vercel/output", "after", "a rebuild stopped before its records: they name the old folders"],
  [true, ".build-index-site/dist", "after", "a rebuild stopped after its records, before the pending record goes"],
];

describe("a build killed around the swap of a folder beside --out", () => {
  it.each(CASES)(
    "earlier build %s, killed at %s (%s): the next build takes every folder",
    async (earlier, target, when) => {
      const root = await tmpDir("bis-beside-crash-");
      temps.push(root);
      if (earlier) await build(options(root, A));
      const killed = await killedBuild(path.join(root, "dist"), B, target, when);
      expect(killed.signal, killed.stdout).toBe("SIGKILL");

      await build(options(root, B));
      const layout = layoutOf(path.join(root, "dist"));
      expect(existsSync(layout.pending)).toBe(false);
      expect(untrueManifestLines(layout.out)).toEqual([]);
      expect((await readBuild(layout.out)).complete).toBe(true);
      expect(await served(root)).toEqual(await freshBuild(B));
      expect("model" in (await buildIfChanged(options(root, B)))).toBe(false); // up to date
    },
    60_000,
  );
});
