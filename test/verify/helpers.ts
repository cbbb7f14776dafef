// test/verify/helpers.ts
// Shared setup of the verify suites: a build in a temporary folder (world-readable, for the web servers' workers),
// `verify` run in-process through the CLI with captured output, and nginx over a site with the emitted configs.

import { chmod } from "node:fs/promises";
import path from "node:path";
import { build } from "../../src/pipeline/pipeline.js";
import { main, type Io } from "../../src/cli.js";
import type { HostName } from "../../src/hosts/names.js";
import { layoutOf } from "../../src/layout/paths.js";
import { TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { startNginx, type RunningServer } from "../hosts/servers.js";

export interface Built {
  root: string;
  out: string;
}

/** Builds `content` (with the fixed clock, unless `fileTimes`: then the content's own file times, as the PHP service sees them). */
export async function buildSite(
  content: string,
  hosts: HostName[],
  options: { baseUrl?: string; fileTimes?: boolean } = {},
): Promise<Built> {
  const root = await tmpDir("bis-verify-");
  const out = path.join(root, "dist");
  await build({
    content,
    out,
    hosts,
    ...(options.fileTimes === true ? {} : { sourceDateEpoch: TEST_EPOCH }),
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
  });
  await chmod(root, 0o755);
  return { root, out };
}

export interface Run {
  code: number;
  out: string;
  err: string;
}

/** `build-index-site verify …` in this process: exit code and what it printed. */
export async function runVerify(args: string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (l) => out.push(l), err: (l) => err.push(l) };
  const code = await main(["node", "build-index-site", "verify", ...args], io);
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/** nginx with root = `site` (its upload: hosts/nginx/root/, or a copy of the site) and the build's emitted nginx
 * configs (or others given). */
export function nginxFor(
  site: string,
  out: string,
  confs: { http?: string; server?: string } = {},
): Promise<RunningServer> {
  const hostDir = layoutOf(out).host("nginx");
  return startNginx(
    site,
    confs.http ?? path.join(hostDir, "nginx-http.conf"),
    confs.server ?? path.join(hostDir, "nginx.conf"),
  );
}

/** What the suites read of `verify --json`. */
export interface JsonReport {
  exitCode: number;
  requests: number;
  checked: number;
  beyondSkipped?: string;
  groups: Record<
    string,
    { precomputed: { pass: number; total: number }; beyond: { pass: number; fallback: number; total: number } }
  >;
  differences: Array<{ scope: string; url: string; method: string; differences: string[] }>;
  fallbacks: Array<{ url: string; fallback: string }>;
}

/** One line per group, "name  pass/total (precomputed)  pass/total (beyond)": the table a suite prints for the record. */
export const groupTable = (report: JsonReport): string =>
  Object.entries(report.groups)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([name, g]) =>
        `  ${name.padEnd(22)}${`${g.precomputed.pass}/${g.precomputed.total}`.padEnd(12)}${g.beyond.total === 0 ? "-" : `${g.beyond.pass}/${g.beyond.total}`}`,
    )
    .join("\n");
