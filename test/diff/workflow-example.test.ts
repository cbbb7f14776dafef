// test/diff/workflow-example.test.ts
// docs/examples/diff-comment.yml is valid YAML of a GitHub Actions workflow that builds both sides, diffs them as
// Markdown into the summary and a pull-request comment; every flag it passes to build-index-site is one the command
// takes.

import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { parse } from "yaml";
import { cli } from "../cli/run.js";
import { REPO } from "../helpers/fixtures.js";

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  name: string;
  on: { pull_request: unknown };
  permissions: Record<string, string>;
  jobs: Record<string, { "runs-on": string; steps: Step[] }>;
}

const file = path.join(REPO, "docs/examples/diff-comment.yml");
const workflow = parse(readFileSync(file, "utf8"), { prettyErrors: true, strict: true }) as Workflow;
const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
const runs = steps
  .flatMap((s) => (s.run ?? "").split("\n"))
  .map((l) => l.trim())
  .filter(Boolean);

describe("docs/examples/diff-comment.yml", () => {
  test("a pull-request workflow that may comment", () => {
    expect(workflow.on).toHaveProperty("pull_request");
    expect(workflow.permissions["pull-requests"]).toBe("write");
    for (const job of Object.values(workflow.jobs)) {
      expect(job["runs-on"]).toBeTruthy();
      for (const step of job.steps) expect(Boolean(step.uses) !== Boolean(step.run)).toBe(true);
    }
  });

  test("builds the base and the head, diffs them as Markdown into the summary, and posts it", () => {
    const builds = runs.filter((l) => l.startsWith("npx build-index-site build "));
    expect(builds).toHaveLength(2);
    const outs = builds.map((l) => /--out (\S+)/.exec(l)?.[1]);
    const diff = runs.find((l) => l.startsWith("npx build-index-site diff ") && l.includes("--format md"));
    expect(diff).toBe(`npx build-index-site diff ${outs[0]} ${outs[1]} --format md > site-diff.md`);
    expect(runs).toContain('cat site-diff.md >> "$GITHUB_STEP_SUMMARY"');
    const script = steps.find((s) => s.uses?.startsWith("actions/github-script@"))?.with?.script;
    expect(script).toMatch(/readFileSync\("site-diff\.md"/);
    expect(script).toMatch(/updateComment[\s\S]*createComment/);
    // The base is checked out beside the head, where the first build reads it.
    const base = steps.find((s) => s.with?.path !== undefined);
    expect(builds[0]).toContain(`--content ${String(base?.with?.path)}/content`);
  });

  test("every build-index-site command and flag it uses exists", async () => {
    for (const line of runs.filter((l) => l.startsWith("npx build-index-site "))) {
      const [, command] = line.split(/\s+/).slice(1);
      const help = await cli(command!, "--help");
      expect(help.code).toBe(0);
      for (const flag of line.match(/\s--[a-z-]+/g) ?? [])
        expect(help.stdout, `${command} ${flag}`).toContain(flag.trim());
    }
  });
});
