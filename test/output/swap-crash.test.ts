// test/output/swap-crash.test.ts
// Issue 8 point 2, the swap window: the swap was two renames, and a build killed between them left no output folder
// at all (the old site in `.dist.old-*`, the new one in `.dist.tmp-*`). Now the swap is journaled and the next run
// recovers before anything else. Proven by killing a real writer process (SIGKILL) at each step of the swap, then
// claiming the folder as the next build does: the output is always the complete old site or the complete new one,
// and nothing is left beside it.

import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimOutput } from "../../src/output/claim/claim.js";
import { MANIFEST_FILE } from "../../src/output/manifests/print.js";
import { writeOutput } from "../../src/output/write/full.js";
import { removeDir, REPO, tmpDir } from "../helpers/fixtures.js";
import { runCrashChild } from "../helpers/processes.js";

const LIB = path.join(REPO, "lib/output/write/full.js");

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

const SITE_A = { "a.json": '{"site":"A"}\n', "sub/b.json": "[1]\n", "sub/deep/c.txt": "A\n" };
const SITE_B = { "a.json": '{"site":"B"}\n', "sub/b.json": "[1]\n", "new.json": "{}\n" };
const files = (site: Record<string, string>) => Object.entries(site).map(([p, data]) => ({ path: p, data }));

/** The data files of an output folder (the manifest is checked apart: its header is the tool's marker). */
async function site(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const rel = path.relative(dir, path.join(e.parentPath, e.name));
    if (rel !== MANIFEST_FILE) out[rel] = await readFile(path.join(dir, rel), "utf8");
  }
  expect(await readFile(path.join(dir, MANIFEST_FILE), "utf8")).toMatch(/^build-index-site manifest 1\n/);
  return out;
}

/**
 * A writer process that SIGKILLs itself at one step: `<call>:<when>` where call names one of the writer's
 * file-system calls during the swap and when is before/after (or `partial`: half the journal written).
 */
const CHILD = `
import { writeOutput } from ${JSON.stringify(LIB)};
import * as fs from "node:fs/promises";
const { out, files, step } = JSON.parse(process.env.CRASH_SPEC);
const die = () => { process.kill(process.pid, "SIGKILL"); return new Promise(() => {}); };
const at = async (name, call) => {
  if (step === name + ":before") await die();
  if (step === name + ":partial") { await fs.writeFile(call.path, call.data.slice(0, 12)); await die(); }
  const result = await call.run();
  if (step === name + ":after") await die();
  return result;
};
let written = 0;
const target = out;
await writeOutput(out, files, {
  onFile: async () => { if (step === "file:" + ++written) await die(); },
  methods: {
    mkdtemp: (prefix, ...rest) => prefix.includes(".old-") ? at("mkdtemp-old", { run: () => fs.mkdtemp(prefix, ...rest) }) : fs.mkdtemp(prefix, ...rest),
    writeFile: (p, data, ...rest) => String(p).endsWith(".swap") ? at("journal", { path: p, data, run: () => fs.writeFile(p, data, ...rest) }) : fs.writeFile(p, data, ...rest),
    rename: (from, to) => at(from === target ? "rename-out" : "rename-new", { run: () => fs.rename(from, to) }),
    unlink: (p) => String(p).endsWith(".swap") ? at("unlink-journal", { run: () => fs.unlink(p) }) : fs.unlink(p),
    rm: (p, o) => String(p).includes(".old-") ? at("rm-old", { run: () => fs.rm(p, o) }) : fs.rm(p, o),
  },
});
process.stdout.write("finished without being killed\\n");
`;

function crashAt(out: string, step: string): Promise<{ signal: NodeJS.Signals | null; stdout: string }> {
  return runCrashChild(CHILD, { out, files: files(SITE_B), step });
}

beforeAll(() => {
  if (!existsSync(LIB)) throw new Error(`${LIB} is missing: run \`npm run build\` first (npm test does).`);
});

/** Each step of a rebuild over an existing site, and which site the next run must find. */
const STEPS: Array<[string, "A" | "B", string]> = [
  ["file:2", "A", "in the middle of writing the new site"],
  ["mkdtemp-old:before", "A", "new site written, swap not started"],
  ["mkdtemp-old:after", "A", "the folder for the old site made"],
  ["journal:partial", "A", "half the journal written"],
  ["journal:after", "A", "journal written, nothing renamed"],
  ["rename-out:after", "B", "between the two renames: no output folder at all"],
  ["rename-new:after", "B", "both renames done, journal still there"],
  ["unlink-journal:after", "B", "journal deleted, old site not yet"],
  ["rm-old:after", "B", "old site deleted"],
];

describe("the swap window: a build killed at any step leaves the old or the new site, recovered by the next run", () => {
  it.each(STEPS)("killed at %s → site %s (%s)", async (step, expected) => {
    const root = await tmpDir("bis-swap-crash-");
    temps.push(root);
    const out = path.join(root, "dist");
    await writeOutput(out, files(SITE_A));
    const result = await crashAt(out, step);
    expect(result.signal, result.stdout).toBe("SIGKILL");
    const left = await readdir(root);
    expect(left.some((n) => n.startsWith(".dist.tmp-") || n.startsWith(".dist.old-") || n === ".dist.lock")).toBe(true);
    if (step === "rename-out:after") expect(left).not.toContain("dist"); // the window this test is about

    // The next run: claiming the folder (what every build does first) recovers it.
    const claim = await claimOutput(out);
    await claim.release();
    expect(await site(out)).toEqual(expected === "A" ? SITE_A : SITE_B);
    expect(await readdir(root)).toEqual(["dist"]);

    // And the next build goes on normally.
    await writeOutput(out, files(SITE_B));
    expect(await site(out)).toEqual(SITE_B);
    expect(await readdir(root)).toEqual(["dist"]);
  });

  it("a first build killed before its only rename leaves no output and its leftovers are removed", async () => {
    const root = await tmpDir("bis-swap-crash-");
    temps.push(root);
    const out = path.join(root, "dist");
    expect((await crashAt(out, "rename-new:before")).signal).toBe("SIGKILL");
    expect((await readdir(root)).some((n) => n.startsWith(".dist.tmp-"))).toBe(true);
    await writeOutput(out, files(SITE_A));
    expect(await site(out)).toEqual(SITE_A);
    expect(await readdir(root)).toEqual(["dist"]);
  });
});
