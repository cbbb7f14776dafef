// test/output/write-thread.test.ts
// The full writer's second thread (src/output/write/write-thread.ts): what it writes is what the main thread would
// have written (bytes, times, links), and a failure on it fails the write with the path named, the previous folder
// kept and nothing left beside it.

import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BuildError } from "../../src/errors.js";
import type { LinkFile, OutputFile } from "../../src/output/plan/files.js";
import { writeOutput } from "../../src/output/write/index.js";
import { THREAD_FILES } from "../../src/output/write/write-all.js";
import { useWriteThread } from "../../src/output/write/write-thread.js";
import { REPO, removeDir, tmpDir } from "../helpers/fixtures.js";

const temps: string[] = [];
beforeAll(() => useWriteThread("always")); // whatever the machine's load
afterAll(async () => {
  useWriteThread("auto");
  await Promise.all(temps.map(removeDir));
});

const EPOCH = 1_700_000_000;
/** More files than the writer writes alone (write-all.ts: THREAD_FILES), so that the thread writes some. */
const N = THREAD_FILES + 1000;
const many = (n: number, text: (i: number) => string): OutputFile[] =>
  Array.from({ length: n }, (_, i) => ({ path: `a/${i % 7}/f${i}.json`, data: text(i) }));

/**
 * Writes `files` into `root`/failed with N links and, last, one to a file that is not there: the write fails naming
 * it, and leaves nothing in `root` beside out/ and source.txt.
 */
async function expectLastLinkFails(
  root: string,
  files: OutputFile[],
  link: (i: number, to?: string) => LinkFile,
): Promise<void> {
  const gone = path.join(root, "gone.txt");
  const error = await writeOutput(path.join(root, "failed"), files, {
    sourceDateEpoch: EPOCH,
    implied: () => [...Array.from({ length: N }, (_, i) => link(i)), link(N, gone)],
  }).then(
    () => null,
    (e: unknown) => e,
  );
  expect((error as Error).message).toContain(gone);
  expect(readdirSync(root).sort()).toEqual(["out", "source.txt"]);
}

describe("the full writer's second thread", () => {
  it("writes every file with its bytes and time, and links and copies as asked", async () => {
    const root = await tmpDir("bis-write-thread-");
    temps.push(root);
    const source = path.join(root, "source.txt");
    await writeFile(source, "copied");
    const files: OutputFile[] = many(N, (i) => `{"n":${i},"é":"${"x".repeat(i % 50)}"}`);
    files.push({ path: "bytes.bin", data: Uint8Array.from([0, 1, 2, 255]) });
    files.push({ path: "links/l.txt", linkTo: source, entry: "AAAAAAAAAAAAAAAAAAAAAAAAAAA 6", implied: true });
    const out = path.join(root, "out");
    await writeOutput(out, files, { sourceDateEpoch: EPOCH });
    for (const [i, f] of files.entries()) {
      const file = path.join(out, f.path);
      if ("data" in f) {
        const want = typeof f.data === "string" ? Buffer.from(f.data) : Buffer.from(f.data);
        expect(readFileSync(file).equals(want), f.path).toBe(true);
        expect(statSync(file).mtimeMs, f.path).toBe(EPOCH * 1000);
      } else expect(i).toBe(files.length - 1);
    }
    const linked = statSync(path.join(out, "links/l.txt"));
    expect(linked.ino).toBe(statSync(source).ino);
  });

  it("makes the unlisted links (WriteOptions.implied) too; one that fails fails the write, naming it", async () => {
    const root = await tmpDir("bis-write-thread-");
    temps.push(root);
    const source = path.join(root, "source.txt");
    await writeFile(source, "linked");
    const link = (i: number, to = source) => ({
      path: `hosts/x/${i % 5}/l${i}.txt`,
      linkTo: to,
      entry: "AAAAAAAAAAAAAAAAAAAAAAAAAAA 6",
      implied: true as const,
    });
    const out = path.join(root, "out");
    const stats = await writeOutput(
      out,
      many(N, (i) => `${i}`),
      {
        sourceDateEpoch: EPOCH,
        implied: () => Array.from({ length: N }, (_, i) => link(i)),
      },
    );
    for (let i = 0; i < N; i += 97) expect(statSync(path.join(out, link(i).path)).ino).toBe(statSync(source).ino);
    expect(readFileSync(path.join(out, ".build-manifest"), "utf8")).not.toContain("hosts/");
    expect(stats.bytes).toBeGreaterThanOrEqual(N * 6);
    await expectLastLinkFails(
      root,
      many(N, (i) => `${i}`),
      link,
    );
  });

  it("a folder of few files with many unlisted links hands the links over too; a failing one fails the write", async () => {
    const root = await tmpDir("bis-write-thread-");
    temps.push(root);
    const source = path.join(root, "source.txt");
    await writeFile(source, "linked");
    const link = (i: number, to = source) => ({
      path: `trees/${i % 3}/l${i}.txt`,
      linkTo: to,
      entry: "AAAAAAAAAAAAAAAAAAAAAAAAAAA 6",
      implied: true as const,
    });
    const out = path.join(root, "out");
    await writeOutput(
      out,
      many(3, (i) => `${i}`),
      {
        sourceDateEpoch: EPOCH,
        implied: () => Array.from({ length: N }, (_, i) => link(i)),
      },
    );
    for (let i = 0; i < N; i++) expect(statSync(path.join(out, link(i).path)).ino).toBe(statSync(source).ino);
    // The last link, handed over in the last batch, fails: the write fails once the thread has answered.
    await expectLastLinkFails(
      root,
      many(3, (i) => `${i}`),
      link,
    );
  });

  it.runIf(existsSync("/dev/shm"))("copies a file it cannot link (another file system), its time clamped", async () => {
    const root = await tmpDir("bis-write-thread-");
    const other = await mkdtemp("/dev/shm/bis-write-thread-");
    temps.push(root);
    try {
      const older = path.join(other, "older.txt");
      const newer = path.join(other, "newer.txt");
      await writeFile(older, "older");
      await writeFile(newer, "newer");
      await utimes(older, EPOCH - 10.5, EPOCH - 10.5);
      await utimes(newer, EPOCH + 10, EPOCH + 10);
      const files: OutputFile[] = many(N, (i) => `${i}`);
      for (const [i, source] of [older, newer, older].entries())
        files.push({ path: `links/${i}.txt`, linkTo: source, entry: "AAAAAAAAAAAAAAAAAAAAAAAAAAA 5", implied: true });
      const out = path.join(root, "out");
      await writeOutput(out, files, { sourceDateEpoch: EPOCH });
      if (statSync(out).dev === statSync(other).dev) return; // one file system: nothing to copy
      for (const [i, source, time] of [
        [0, older, (EPOCH - 11) * 1000 + 500],
        [1, newer, EPOCH * 1000],
        [2, older, (EPOCH - 11) * 1000 + 500],
      ] as const) {
        const copy = path.join(out, `links/${i}.txt`);
        expect(readFileSync(copy)).toEqual(readFileSync(source));
        expect(statSync(copy).mtimeMs).toBe(time);
      }
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it("a file it cannot write fails the build, names it, keeps the previous folder and leaves nothing beside it", async () => {
    const root = await tmpDir("bis-write-thread-");
    temps.push(root);
    const out = path.join(root, "out");
    await writeOutput(
      out,
      many(10, (i) => `old ${i}`),
      { sourceDateEpoch: EPOCH },
    );
    const before = readdirSync(root).sort();
    // A name longer than any file system takes, among files the thread writes (the last ones handed over).
    const files = many(N, (i) => `new ${i}`);
    files.push({ path: `a/${"n".repeat(300)}.json`, data: "too long" });
    await mkdir(path.join(root, "unrelated"));
    const error = await writeOutput(out, files, { sourceDateEpoch: EPOCH }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BuildError);
    expect((error as BuildError).code).toBe("ENAMETOOLONG");
    expect((error as Error).message).toContain(path.join(out, "a", "n".repeat(300) + ".json"));
    expect(readdirSync(root).sort()).toEqual([...before, "unrelated"].sort());
    expect(readFileSync(path.join(out, "a/0/f0.json"), "utf8")).toBe("old 0");
  });

  it("starts in a process run with Node flags a thread refuses (node --input-type=module -e …)", async () => {
    const lib = path.join(REPO, "lib/output/write/write-thread.js");
    if (!existsSync(lib)) throw new Error(`${lib} is missing: run \`npm run build\` first (npm test does).`);
    const root = await tmpDir("bis-write-thread-");
    temps.push(root);
    const file = path.join(root, "written.txt");
    const code = `
      import { useWriteThread, WriteSink } from ${JSON.stringify(lib)};
      useWriteThread("always");
      const sink = new WriteSink(undefined);
      sink.write(${JSON.stringify(file)}, "by the thread", undefined);
      await sink.drain();
    `;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(readFileSync(file, "utf8")).toBe("by the thread");
  });
});
