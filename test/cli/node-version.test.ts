// test/cli/node-version.test.ts
// Every netlify.toml the project ships or writes names the same Node major as `init` (a current LTS), never one past
// its end of life; the generated hosts' configs follow it.

import { readFileSync } from "node:fs";
import path from "node:path";
import { parse as parseToml } from "smol-toml";
import { describe, expect, it } from "vitest";
import { NODE_MAJOR } from "../../src/init/templates.js";
import { REPO } from "../helpers/fixtures.js";

describe("the Node version named for deploys", () => {
  it("is at least 22 (Node 20 reached its end of life in April 2026)", () => {
    expect(Number(NODE_MAJOR)).toBeGreaterThanOrEqual(22);
  });

  it("the repository's own netlify.toml names the same major as init", () => {
    const toml = parseToml(readFileSync(path.join(REPO, "netlify.toml"), "utf8")) as {
      build: { environment: { NODE_VERSION: string } };
    };
    expect(toml.build.environment.NODE_VERSION).toBe(NODE_MAJOR);
  });
});
