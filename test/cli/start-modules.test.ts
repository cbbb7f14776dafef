// test/cli/start-modules.test.ts
// What the installed command's start loads (scripts/build-cli.mjs, docs/startup.md): no node:child_process (and with
// it net and dgram) for `--version` or a build, though commander requires it for subcommands run as executables; and
// its bundle and loader as ASCII, which src/cli/startup/code-cache.ts reads without decoding UTF-8.

import { spawnSync } from "node:child_process";
import { isAscii } from "node:buffer";
import { closeSync, openSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEMO_CONTENT, REPO, tempDirs, TEST_EPOCH } from "../helpers/fixtures.js";

const BIN = path.join(REPO, "bin/build-index-site.js");
const temp = tempDirs();

/** The built-in modules among `names` that a run of the bin with `args` loaded, read at its exit. Its output goes to
 * a file: a pipe would load node:net for itself. */
async function loaded(args: string[], names: string[]): Promise<string[]> {
  const dir = await temp();
  const hook = path.join(dir, "hook.mjs");
  const found = path.join(dir, "loaded.json");
  writeFileSync(
    hook,
    `import { isAscii } from "node:buffer";
import { closeSync, openSync, readFileSync, writeFileSync } from "node:fs";\n` +
      `process.on("exit", () => writeFileSync(${JSON.stringify(found)}, JSON.stringify(${JSON.stringify(names)}` +
      `.filter((n) => process.moduleLoadList.includes("NativeModule " + n)))));\n`,
  );
  const output = openSync(path.join(dir, "output.txt"), "w");
  try {
    const r = spawnSync(process.execPath, ["--import", hook, BIN, ...args], {
      cwd: dir,
      stdio: ["ignore", output, output],
      env: { ...process.env, SOURCE_DATE_EPOCH: TEST_EPOCH, NODE_OPTIONS: "" },
    });
    expect(r.status, readFileSync(path.join(dir, "output.txt"), "utf8")).toBe(0);
  } finally {
    closeSync(output);
  }
  return JSON.parse(readFileSync(found, "utf8")) as string[];
}

describe("the command's start", () => {
  it("loads no node:child_process, net or dgram for --version or a build", async () => {
    const names = ["child_process", "net", "dgram"];
    expect(await loaded(["--version"], names)).toEqual([]);
    expect(await loaded(["build", "--content", DEMO_CONTENT, "--out", "dist", "-q"], names)).toEqual([]);
  });

  it("reads a bundle and a loader written as ASCII, their comments too", () => {
    for (const file of ["lib/cli-bundle/cli.cjs", "lib/cli/startup/start.cjs"])
      expect(isAscii(readFileSync(path.join(REPO, file))), file).toBe(true);
  });
});
