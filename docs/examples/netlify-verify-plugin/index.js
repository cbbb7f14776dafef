// A Netlify Build plugin that checks each deploy with `build-index-site verify`: every request the build knows,
// asked of the deploy's own URL (DEPLOY_URL, the unique address of this deploy), compared with the build in the
// publish directory.
//
// It runs in onSuccess, the one event after the deploy: the site is live by then, so a difference cannot stop it.
// Netlify ignores utils.build.failBuild() after the deploy (it logs that the build "cannot fail anymore"); the plugin
// calls utils.build.failPlugin() instead, which marks the plugin failed in the deploy log and on the deploy's page,
// with verify's table and differences above it. A deploy preview is checked the same way before it is published.
//
// netlify.toml:
//   [[plugins]]
//     package = "./netlify-verify-plugin"
//     # [plugins.inputs]
//     # headers = ["Authorization:Basic …"]   # a password-protected deploy preview

import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";

/** build-index-site's CLI as the site installed it (a devDependency), found from the publish directory up. */
function cliOf(publishDir) {
  const require = createRequire(path.join(path.resolve(publishDir), "netlify-verify-plugin.js"));
  const pkg = require.resolve("build-index-site/package.json");
  return path.join(path.dirname(pkg), "bin", "build-index-site.js");
}

/** Runs verify, its report going to the deploy log; resolves to its exit code. */
function verify(cli, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, "verify", ...args], { stdio: ["ignore", "inherit", "inherit"] });
    child.once("error", reject);
    child.once("exit", (code, signal) => resolve(code ?? (signal === null ? 2 : 128)));
  });
}

export const onSuccess = async ({ constants, inputs = {}, utils }) => {
  const url = process.env.DEPLOY_URL;
  if (!url) {
    utils.build.failPlugin("DEPLOY_URL is not set: verify runs in Netlify's build, after the deploy.");
    return;
  }
  const dir = inputs.dir ?? constants.PUBLISH_DIR;
  let cli;
  try {
    cli = cliOf(dir);
  } catch {
    utils.build.failPlugin(
      "build-index-site is not installed in this site (npm install --save-dev github:build-index-site/build-index-site).",
    );
    return;
  }
  const headers = (inputs.headers ?? []).flatMap((h) => ["--header", h]);
  const code = await verify(cli, [url, "--dir", dir, ...headers]);
  if (code === 0) {
    utils.status.show({ title: "build-index-site verify", summary: `${url} answers every request as ${dir}/ says.` });
  } else if (code === 1) {
    utils.build.failPlugin(`verify: ${url} differs from the build in ${dir}/ (the differences are listed above).`);
  } else {
    utils.build.failPlugin(`verify could not check ${url} (exit ${code}; the reason is above).`);
  }
};
