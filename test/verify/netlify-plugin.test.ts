// test/verify/netlify-plugin.test.ts
// docs/examples/netlify-verify-plugin, run as Netlify Build runs it after a deploy: its onSuccess is called with
// Netlify-like constants, inputs and utils, DEPLOY_URL set to a local preview. The site is a project whose
// node_modules/build-index-site is this package (the CLI the plugin finds and runs). A deploy that answers as the
// build says passes (no failure reported, a status shown); a deploy of other content, and a deploy that cannot be
// reached, fail the plugin with a message that says which.

import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { build } from "../../src/pipeline/pipeline.js";
import { startPreview, type Preview } from "../../src/preview/server.js";
import { copyContent, DEMO_CONTENT, removeDir, REPO, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { freePort } from "../hosts/servers.js";

const PLUGIN = path.join(REPO, "docs/examples/netlify-verify-plugin");

interface NetlifyUtils {
  build: {
    failBuild: (message: string) => void;
    failPlugin: (message: string) => void;
    cancelBuild: (message: string) => void;
  };
  status: { show: (status: { title?: string; summary: string; text?: string }) => void };
}
type OnSuccess = (args: {
  constants: Record<string, string>;
  inputs: Record<string, unknown>;
  utils: NetlifyUtils;
}) => Promise<void>;

let project = "";
let otherContent = "";
const previews: Preview[] = [];
let onSuccess: OnSuccess;

beforeAll(async () => {
  // The site's repository: its build in dist/, build-index-site installed (this package).
  project = await tmpDir("bis-netlify-plugin-");
  await mkdir(path.join(project, "node_modules"));
  await symlink(REPO, path.join(project, "node_modules", "build-index-site"), "dir");
  await build({ content: DEMO_CONTENT, out: path.join(project, "dist"), sourceDateEpoch: TEST_EPOCH });
  // Another deploy: the same content with one setting changed (built in a folder of its own: beside its --out go
  // .netlify/, .vercel/ and its records).
  otherContent = await copyContent(DEMO_CONTENT);
  const config = JSON.parse(await readFile(path.join(otherContent, "config.json"), "utf8")) as {
    main: Record<string, unknown>;
  };
  config.main.cache_type = "json";
  await writeFile(path.join(otherContent, "config.json"), JSON.stringify(config, null, 4));
  await build({ content: otherContent, out: path.join(project, "other", "dist"), sourceDateEpoch: TEST_EPOCH });
  ({ onSuccess } = (await import(pathToFileURL(path.join(PLUGIN, "index.js")).href)) as { onSuccess: OnSuccess });
}, 60_000);

afterAll(async () => {
  for (const p of previews) await p.close();
  vi.unstubAllEnvs();
  await removeDir(project);
  await removeDir(otherContent);
});

async function preview(dir: string): Promise<string> {
  const p = await startPreview({ dir, port: 0, host: "127.0.0.1" });
  previews.push(p);
  return p.url;
}

/** onSuccess after a deploy at `deployUrl`, as Netlify calls it; what it reported through utils. */
async function runPlugin(deployUrl: string | undefined) {
  const utils = {
    build: { failBuild: vi.fn(), failPlugin: vi.fn(), cancelBuild: vi.fn() },
    status: { show: vi.fn() },
  };
  if (deployUrl === undefined) vi.stubEnv("DEPLOY_URL", "");
  else vi.stubEnv("DEPLOY_URL", deployUrl);
  // Netlify's constants: PUBLISH_DIR as the build's cwd (the base directory) sees it.
  await onSuccess({ constants: { PUBLISH_DIR: path.join(project, "dist"), SITE_ID: "test" }, inputs: {}, utils });
  return utils;
}

describe("docs/examples/netlify-verify-plugin (onSuccess, after the deploy)", () => {
  test("the manifest names the plugin and its inputs", async () => {
    const manifest = await readFile(path.join(PLUGIN, "manifest.yml"), "utf8");
    expect(manifest).toMatch(/^name: \S+/m);
    expect(manifest).toMatch(/- name: dir/);
  });

  test("a deploy that answers as the build says: no failure, a status that says so", async () => {
    const utils = await runPlugin(await preview(path.join(project, "dist")));
    expect(utils.build.failPlugin).not.toHaveBeenCalled();
    expect(utils.build.failBuild).not.toHaveBeenCalled();
    expect(utils.status.show).toHaveBeenCalledTimes(1);
    expect(utils.status.show.mock.calls[0]![0].summary).toMatch(/answers every request/);
  }, 60_000);

  test("a deploy of other content: the plugin fails, saying the deploy differs", async () => {
    const url = await preview(path.join(project, "other", "dist"));
    const utils = await runPlugin(url);
    expect(utils.build.failPlugin).toHaveBeenCalledTimes(1);
    expect(utils.build.failPlugin.mock.calls[0]![0]).toMatch(/differs from the build/);
    expect(utils.build.failPlugin.mock.calls[0]![0]).toContain(url);
    expect(utils.status.show).not.toHaveBeenCalled();
  }, 60_000);

  test("a deploy that cannot be reached: the plugin fails, saying it could not check", async () => {
    const utils = await runPlugin(`http://127.0.0.1:${await freePort()}/`);
    expect(utils.build.failPlugin).toHaveBeenCalledTimes(1);
    expect(utils.build.failPlugin.mock.calls[0]![0]).toMatch(/could not check .* \(exit 2/);
  }, 60_000);

  test("outside Netlify's build (no DEPLOY_URL): the plugin fails with one line", async () => {
    const utils = await runPlugin(undefined);
    expect(utils.build.failPlugin.mock.calls).toEqual([[expect.stringMatching(/DEPLOY_URL is not set/)]]);
  });
});
