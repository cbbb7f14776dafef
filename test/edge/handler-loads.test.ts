// test/edge/handler-loads.test.ts
// `dev` and the preview load the build's handler again after every rebuild (src/layout/read-build.ts: `handler()`),
// each load an instance of its own with an empty cache. A maintainer keeps `dev` up for hours: the instances that are
// no longer used must be let go, with everything their handler cached. An `import()` of each instance kept every one
// in Node's module map (some 0.4 MB of heap per load, with a few answers asked for).

import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { readBuild } from "../../src/layout/read-build.js";
import { DEMO_CONTENT, removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const heapMb = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

let root = "";
let out = "";

beforeAll(async () => {
  root = await tmpDir("bis-loads-");
  out = path.join(root, "dist");
  await build({ content: DEMO_CONTENT, out, sourceDateEpoch: TEST_EPOCH, hosts: ["cloudflare"] });
}, 60_000);

afterAll(async () => {
  await removeDir(root);
});

describe("the build's handler, loaded again and again", () => {
  test("each load answers from a cache of its own, and the loads no longer used are let go", async () => {
    const site = await readBuild(out);
    const load = async (): Promise<string> => {
      const handler = await site.handler();
      let bodies = "";
      for (const query of [
        "action=icons",
        "action=extensionMappings",
        "action=iconMappings",
        "action=findIcon&extension=txt",
      ]) {
        const res = await handler!.fetch(new Request(`http://site.example/api.php?${query}`));
        expect(res.status).toBe(200);
        bodies += await res.text();
      }
      return bodies;
    };
    const first = await load();
    for (let i = 0; i < 10; i++) expect(await load()).toBe(first);
    const before = heapMb();
    for (let i = 0; i < 60; i++) await load();
    const grown = heapMb() - before;
    // Kept instances grew the heap by some 0.3 MB a load here (18 MB over 60); let go, by nothing but noise.
    expect(grown).toBeLessThan(4);
  }, 60_000);
});
