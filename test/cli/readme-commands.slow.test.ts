// test/cli/readme-commands.slow.test.ts
// The README's commands for using the tool in one's own project ("Use it in your project"), run as a user would:
// each shell line of that section in a clean temporary folder, against the packed tarball (in place of the git URL
// the README installs from; dependencies from the npm registry). A README command that stops working fails here.
// Also: the GitHub Actions example the README names parses as YAML and runs the commands the README gives.
// Like `npm run test:pack`, the install runs in CI, and elsewhere only with BIS_TEST_PACK=1. Needs lib/.

import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { REPO, removeDir, tmpDir } from "../helpers/fixtures.js";

const enabled = Boolean(process.env.CI) || Boolean(process.env.BIS_TEST_PACK);
const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

const README = readFileSync(path.join(REPO, "README.md"), "utf8");
const GIT_SPEC = "github:build-index-site/build-index-site";

/** The shell lines of a README section's ```sh blocks (comments stripped). */
function sectionCommands(heading: string): string[] {
  const start = README.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README has no section "${heading}"`);
  const end = README.indexOf("\n## ", start + 1);
  const section = README.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((m) => m[1]!.split("\n"))
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line !== "");
}

const env = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== "INIT_CWD")),
  NO_COLOR: "1",
};

describe("the README's commands for one's own project", () => {
  const commands = sectionCommands("Use it in your project");

  it("are the install, init, build and dev a user runs", () => {
    expect(commands[0]).toBe(`npm install --save-dev ${GIT_SPEC}`);
    expect(commands).toEqual(
      expect.arrayContaining(["npx build-index-site init", "npx build-index-site", "npx build-index-site dev"]),
    );
  });

  it.skipIf(!enabled)(
    "run in a clean folder against the packed tarball",
    async () => {
      expect(existsSync(path.join(REPO, "lib/cli.js")), "lib/ is missing: run `npm run build` first").toBe(true);
      const work = await tmpDir("bis-readme-");
      temps.push(work);
      const [packed] = JSON.parse(
        execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", work], {
          cwd: REPO,
          encoding: "utf8",
          env,
        }),
      ) as Array<{ filename: string }>;
      const project = path.join(work, "project");
      await mkdir(project);
      for (const command of commands) {
        const line = command.replace(GIT_SPEC, path.join(work, packed!.filename));
        if (line === "npx build-index-site dev") {
          // The dev loop runs until stopped: it must serve the API, then stop on SIGTERM.
          // A process group of its own: the signal reaches the tool itself, not only npx (which may not pass it on).
          const child = spawn("sh", ["-c", `exec ${line} --port 0`], {
            cwd: project,
            env,
            stdio: ["ignore", "pipe", "pipe"],
            detached: true,
          });
          let output = "";
          child.stdout.on("data", (d: Buffer) => {
            output += d.toString();
          });
          child.stderr.on("data", (d: Buffer) => {
            output += d.toString();
          });
          const url = await new Promise<string>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`dev printed no URL:\n${output}`)), 60_000);
            child.stdout.on("data", () => {
              const m = /Preview: (http:\/\/\S+)/.exec(output);
              if (m) {
                clearTimeout(timer);
                resolve(m[1]!);
              }
            });
          });
          const info = await fetch(`${url}api.php?action=info`);
          expect(info.status).toBe(200);
          const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve(code ?? signal)));
          process.kill(-child.pid!, "SIGTERM");
          // The tool exits 143, or npx itself reports the signal; nothing of the group is left running.
          expect([143, "SIGTERM"]).toContain(await exited);
          const alive = (): boolean => {
            try {
              process.kill(-child.pid!, 0);
              return true;
            } catch {
              return false;
            }
          };
          for (let i = 0; i < 100 && alive(); i++) await new Promise((r) => setTimeout(r, 50));
          expect(alive(), "a process of the dev group is still running").toBe(false);
          continue;
        }
        execFileSync("sh", ["-c", line], { cwd: project, env, stdio: ["ignore", "pipe", "pipe"] });
      }
      expect(existsSync(path.join(project, "dist/config.json"))).toBe(true);
    },
    600_000,
  );
});

describe("the GitHub Actions example (docs/examples/netlify-deploy.yml)", () => {
  const workflow = parseYaml(readFileSync(path.join(REPO, "docs/examples/netlify-deploy.yml"), "utf8")) as {
    on: unknown;
    jobs: Record<string, { steps: Array<{ run?: string; uses?: string; with?: Record<string, unknown> }> }>;
  };
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
  const runs = steps.map((s) => s.run ?? "").join("\n");

  it("is a workflow: triggers and steps", () => {
    expect(workflow.on).toBeTruthy();
    expect(steps.some((s) => s.uses?.startsWith("actions/checkout@"))).toBe(true);
  });

  it("builds, deploys with the Netlify CLI, then verifies the deploy, on a supported Node", () => {
    const node = steps.find((s) => s.uses?.startsWith("actions/setup-node@"))?.with?.["node-version"];
    expect(Number(node)).toBeGreaterThanOrEqual(22);
    const build = runs.indexOf("npx build-index-site --strict");
    const deploy = runs.indexOf("netlify-cli deploy");
    const verify = runs.indexOf("npx build-index-site verify");
    expect(build).toBeGreaterThanOrEqual(0);
    expect(deploy).toBeGreaterThan(build);
    expect(verify).toBeGreaterThan(deploy);
  });
});
