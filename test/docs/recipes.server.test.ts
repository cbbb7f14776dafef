// test/docs/recipes.server.test.ts
// I/O: each host's deploy recipe in the README and docs/, run as far as it can be here by the host's own tool, on a
// build of the demo content: every `wrangler deploy` with --dry-run in the folder that holds dist/ (where the docs
// run their commands), `nginx -t` on each documented nginx config and `apache2 -t` on each documented Apache snippet,
// with only the server paths substituted by the build folders the docs' upload commands copy there.

import { spawnSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeDir, tmpDir } from "../helpers/fixtures.js";
import { canRun } from "../helpers/needs.js";
import { runtimeBin } from "../runtimes/locate.mjs";
import { APACHE_BIN, APACHE_MODULES, haveApache, haveNginx, mustRunServers, NGINX_BIN } from "../hosts/servers.js";
import { docBuild, removeBuilds } from "./doc-builds.js";
import { commandsOf } from "./doc-commands.js";
import { blocks, substitute, uploads, withoutComments } from "./doc-recipes.js";
import { allUnits, DEFAULT_HOSTS } from "./doc-text.js";

const temps: string[] = [];
afterAll(async () => {
  await removeBuilds();
  await Promise.all(temps.map(removeDir));
});

// Where the workerd need finds it (test/helpers/needs.ts), as test/edge/wrangler.ts runs it.
const WRANGLER = runtimeBin("wrangler") ?? "wrangler";
const where = (u: { doc: string; line: number }): string => `${u.doc}:${u.line}`;

describe("the upload commands", () => {
  it("copy folders the build writes", async () => {
    const build = await docBuild(DEFAULT_HOSTS);
    const all = uploads();
    expect(all.length).toBeGreaterThan(0);
    const wrong = all
      .filter((u) => !build.paths.includes(`${u.local}/`))
      .map((u) => `${where(u.command)}: \`${u.command.text}\` copies ${u.local}/, which the build does not write`);
    expect(wrong.join("\n"), wrong.join("\n")).toBe("");
  });
});

describe.skipIf(!canRun("workerd"))("wrangler deploy --dry-run, as the docs run it", () => {
  const deploys = commandsOf(allUnits()).filter(
    (c) => c.tool === "wrangler" && (c.args[0] === "deploy" || (c.args[0] === "pages" && c.args[1] === "deploy")),
  );
  it("finds the documented commands", () => expect(deploys.length).toBeGreaterThan(0));
  for (const c of new Map(deploys.map((d) => [d.text, d])).values()) {
    it(`${where(c)}: \`${c.text}\``, async () => {
      const build = await docBuild(DEFAULT_HOSTS);
      const home = await tmpDir("bis-wrangler-home-");
      temps.push(home);
      const run = spawnSync(WRANGLER, [...c.args, "--dry-run"], {
        cwd: build.root,
        encoding: "utf8",
        timeout: 120_000,
        env: {
          ...process.env,
          WRANGLER_SEND_METRICS: "false",
          WRANGLER_LOG_PATH: home,
          XDG_CONFIG_HOME: home,
          CI: "1",
          NO_COLOR: "1",
        },
      });
      const said = `${run.stdout}${run.stderr}`;
      expect(run.status, `${where(c)}: \`${c.text} --dry-run\` in the folder that holds dist/ failed:\n${said}`).toBe(
        0,
      );
      expect(said).toMatch(/--dry-run: exiting now/);
      expect(said, "the Worker's assets are the upload folder's").toMatch(/hosts\/cloudflare\/public/);
    }, 150_000);
  }
});

describe.skipIf(!haveNginx && !mustRunServers)("nginx -t on the documented config", () => {
  for (const block of blocks("nginx")) {
    it(`${where(block)}: with the build's paths`, async () => {
      const build = await docBuild(DEFAULT_HOSTS);
      const dir = await tmpDir("bis-docs-nginx-");
      temps.push(dir);
      const { text, unreached } = substitute(withoutComments(block.text), uploads(), build.root);
      expect(unreached, `${where(block)}: no documented upload command puts anything at these paths`).toEqual([]);
      const conf = [`pid ${dir}/nginx.pid;`, `error_log ${dir}/error.log;`, "events {}", text, ""].join("\n");
      await writeFile(path.join(dir, "nginx.conf"), conf);
      const test = spawnSync(NGINX_BIN, ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-t"], { encoding: "utf8" });
      expect(test.status, `${where(block)}: nginx -t refuses the documented config:\n${test.stderr}\n${conf}`).toBe(0);
    });
  }
});

/** The modules the docs enable (`a2enmod rewrite headers …`), with what any Apache needs to start. */
function modules(): string[] {
  const named = commandsOf(allUnits())
    .filter((c) => c.tool === "a2enmod")
    .flatMap((c) => c.args);
  return [...new Set(["mpm_event", "authz_core", ...named])];
}

describe.skipIf(!haveApache && !mustRunServers)("apache2 -t on the documented snippet", () => {
  for (const block of blocks("apache")) {
    it(`${where(block)}: with the build's paths, the modules the docs enable and the build's .htaccess`, async () => {
      const build = await docBuild(DEFAULT_HOSTS);
      const dir = await tmpDir("bis-docs-apache-");
      temps.push(dir);
      await mkdir(path.join(dir, "logs"));
      const { text, unreached } = substitute(block.text, uploads(), build.root);
      expect(unreached, `${where(block)}: no documented upload command puts anything at these paths`).toEqual([]);
      // The .htaccess is parsed where the snippet's <Directory> puts it, so that its syntax is checked too.
      const folders = [...text.matchAll(/<Directory "?([^">]+)"?>/g)].map((m) => m[1]!);
      const conf = [
        `ServerRoot ${dir}`,
        "ServerName 127.0.0.1",
        "Listen 127.0.0.1:8",
        `PidFile ${dir}/httpd.pid`,
        `ErrorLog ${dir}/error.log`,
        ...modules().map((m) => `LoadModule ${m}_module ${APACHE_MODULES}/mod_${m}.so`),
        "TypesConfig /etc/mime.types",
        text,
        ...folders.map((f) => `<Directory "${f}">\n    Include "${f}/.htaccess"\n</Directory>`),
        "",
      ].join("\n");
      await writeFile(path.join(dir, "httpd.conf"), conf);
      const test = spawnSync(APACHE_BIN, ["-t", "-f", path.join(dir, "httpd.conf")], {
        encoding: "utf8",
        env: { ...process.env, APACHE_RUN_DIR: dir, APACHE_LOCK_DIR: dir, APACHE_LOG_DIR: dir },
      });
      expect(test.status, `${where(block)}: apache2 -t refuses the documented snippet:\n${test.stderr}\n${conf}`).toBe(
        0,
      );
      expect(folders.length, `${where(block)}: the snippet names no <Directory>`).toBeGreaterThan(0);
      expect(text, `${where(block)}: the .htaccess needs AllowOverride FileInfo`).toMatch(
        /AllowOverride (?:FileInfo|All)/,
      );
    });
  }
});
