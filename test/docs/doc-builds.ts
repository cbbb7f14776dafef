// test/docs/doc-builds.ts
// I/O: builds of the demo content (content/) for the docs tests, one per set of hosts, each into a folder of its own
// and kept for the test file's run; and every path each build wrote, relative to the folder that holds --out.

import { readdir } from "node:fs/promises";
import path from "node:path";
import { buildIfChanged } from "../../src/pipeline/pipeline.js";
import type { HostName } from "../../src/hosts/names.js";
import { DEMO_CONTENT, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { DEFAULT_HOSTS } from "./doc-text.js";

export interface DocBuild {
  /** The folder that holds dist/ (the project's root, where the docs run their commands). */
  root: string;
  hosts: readonly string[];
  /** Every file and folder under root, relative to it; folders end with "/". */
  paths: readonly string[];
}

const builds = new Map<string, Promise<DocBuild>>();
const roots: string[] = [];

/** Removes every build made by this test file (call from afterAll). */
export const removeBuilds = async (): Promise<void> => {
  await Promise.all(roots.map(removeDir));
};

async function listAll(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.map((e) => {
    const rel = path.relative(root, path.join(e.parentPath, e.name));
    return e.isDirectory() ? `${rel}/` : rel;
  });
}

/** The demo content built with these hosts (the default ones when they are the default set): once per run. */
export function docBuild(hosts: readonly string[]): Promise<DocBuild> {
  const sorted = [...new Set(hosts)].sort();
  const isDefault = sorted.join(",") === [...DEFAULT_HOSTS].sort().join(",");
  const key = sorted.join(",");
  let made = builds.get(key);
  if (made === undefined) {
    made = (async () => {
      const root = await tmpDir("bis-docs-");
      roots.push(root);
      await buildIfChanged({
        content: DEMO_CONTENT,
        out: path.join(root, "dist"),
        sourceDateEpoch: TEST_EPOCH,
        ...(isDefault ? {} : { hosts: sorted as HostName[] }),
      });
      return { root, hosts: sorted, paths: await listAll(root) };
    })();
    builds.set(key, made);
  }
  return made;
}
