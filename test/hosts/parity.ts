// test/hosts/parity.ts
// The parity suite's engine: build a content folder with every static host's files, start the preview and the real
// servers, ask every host the generated requests and compare each answer with the preview's: the route table exactly
// (each host's known differences allowed), or with `asHost` `preview --as <that host>` (none allowed). The edge
// outputs answer exactly, not like the route table: test/hosts/edge-parity.ts compares them.

import { layoutOf } from "../../src/layout/paths.js";
import { chmod, readFile } from "node:fs/promises";
import path from "node:path";
import { build } from "../../src/pipeline/pipeline.js";
import { HOST_NAMES, type HostName } from "../../src/hosts/index.js";
import { printRedirects } from "../../src/hosts/netlify-static/render.js";
import { NGINX_HTTP_FILE, NGINX_ROOT, NGINX_SERVER_FILE } from "../../src/hosts/nginx/render.js";
import type { VercelJson } from "../../src/hosts/vercel-static/render.js";
import { startPreview } from "../../src/preview/server.js";
import type { RouteTable } from "../../src/routes/route-table.js";
import { removeDir, TEST_EPOCH, tmpDir } from "../helpers/fixtures.js";
import { httpAnswerer, netlifyAnswerer, vercelAnswerer, type Answerer, type HostAnswer } from "./answers.js";
import { KNOWN_DIFFERENCES } from "./known-differences.js";
import { loadNetlifyEngine } from "./netlify-engine.js";
import { generateRequests, type Category, type HostRequest } from "./requests.js";
import { haveApache, haveNginx, mustRunServers, startApache, startNginx, type RunningServer } from "./servers.js";

/** The hosts that answer from the precomputed files, as the preview does; the others run the request-time handler. */
export const STATIC_HOSTS: readonly HostName[] = HOST_NAMES.filter(
  (h) => h !== "netlify" && h !== "vercel" && h !== "cloudflare",
);

export interface Mismatch {
  host: HostName;
  request: HostRequest;
  fields: string[];
  host_answer: Omit<HostAnswer, "body"> & { body: string };
  preview: Omit<HostAnswer, "body"> & { body: string };
}

export interface HostReport {
  host: HostName;
  compared: number;
  equal: number;
  /** Differences the host's known-differences list allows, by category. */
  allowed: Partial<Record<Category, number>>;
  unexpected: Mismatch[];
  skipped?: string;
}

export interface ParityOptions {
  membersPerSet: number;
  /** The hosts compared (default: every static host); a long run is split across files by host, one worker each. */
  hosts?: readonly HostName[];
  /** Netlify's WASM engine is slow on thousands of lines: it answers every n-th request (own requests always). */
  netlifyEvery: number;
  /**
   * Compare each host with `preview --as <that host>` instead of the route table: no difference is allowed, not even
   * the host's known ones (the preview answers with them).
   */
  asHost?: boolean;
  /** Ask every n-th generated request only (and every raw and encoded one): a long run made shorter. */
  sample?: number;
}

const FIELDS = ["status", "body", "contentType", "cacheControl", "cors"] as const;

function differingFields(a: HostAnswer, b: HostAnswer): string[] {
  return FIELDS.filter((f) => a[f] !== b[f]);
}

const short = (a: HostAnswer): HostAnswer => ({
  ...a,
  body: a.body.length > 160 ? `${a.body.slice(0, 160)}…` : a.body,
});

export interface ParityRun {
  siteDir: string;
  table: RouteTable;
  requests: HostRequest[];
  reports: HostReport[];
}

/** What the preview at `url` answers to every request. */
async function expectations(url: string, requests: readonly HostRequest[]): Promise<Map<string, HostAnswer>> {
  const ask = httpAnswerer(url);
  const out = new Map<string, HostAnswer>();
  for (const r of requests) out.set(r.query, await ask(r.query));
  return out;
}

export async function runParity(content: string, options: ParityOptions): Promise<ParityRun> {
  const out = await tmpDir("bis-parity-");
  const siteDir = path.join(out, "dist");
  const servers: RunningServer[] = [];
  let preview: Awaited<ReturnType<typeof startPreview>> | undefined;
  try {
    await build({ content, out: siteDir, sourceDateEpoch: TEST_EPOCH, hosts: STATIC_HOSTS });
    // Web servers run their workers as an unprivileged user: the site must be world-readable (the writer's temp
    // folder is created 0700).
    await chmod(out, 0o755);
    await chmod(siteDir, 0o755);
    const layout = layoutOf(siteDir);
    const table = JSON.parse(await readFile(layout.routes, "utf8")) as RouteTable;
    const every = options.sample ?? 1;
    const requests = generateRequests(table, { membersPerSet: options.membersPerSet }).filter(
      (r, i) => i % every === 0 || r.category === "raw" || r.category === "encoded",
    );
    const hosts = options.hosts ?? STATIC_HOSTS;
    const expected = new Map<HostName, Map<string, HostAnswer>>();
    for (const host of options.asHost === true ? hosts : []) {
      const as = await startPreview({ dir: siteDir, port: 0, host: "127.0.0.1", as: host });
      try {
        expected.set(host, await expectations(as.url, requests));
      } finally {
        await as.close();
      }
    }
    if (options.asHost !== true) {
      preview = await startPreview({ dir: siteDir, port: 0, host: "127.0.0.1", as: "route-table" });
      const table = await expectations(preview.url, requests);
      for (const host of hosts) expected.set(host, table);
    }

    const answerers: Partial<Record<HostName, Answerer>> = {};
    const skipped: Partial<Record<HostName, string>> = {};
    const netlifyRoot = layout.host("netlify-static");
    if (hosts.includes("netlify-static")) {
      answerers["netlify-static"] = await netlifyAnswerer(
        netlifyRoot,
        await loadNetlifyEngine(path.join(netlifyRoot, "_redirects")),
      );
    }
    if (!hosts.includes("apache")) {
      // not compared in this run
    } else if (haveApache || mustRunServers) {
      const apache = await startApache(layout.host("apache"));
      servers.push(apache);
      answerers.apache = httpAnswerer(apache.url);
    } else skipped.apache = "apache2 is not installed";
    if (!hosts.includes("nginx")) {
      // not compared in this run
    } else if (haveNginx || mustRunServers) {
      const nginx = await startNginx(
        path.join(layout.host("nginx"), NGINX_ROOT),
        path.join(layout.host("nginx"), NGINX_HTTP_FILE),
        path.join(layout.host("nginx"), NGINX_SERVER_FILE),
      );
      servers.push(nginx);
      answerers.nginx = httpAnswerer(nginx.url);
    } else skipped.nginx = "nginx is not installed";
    if (hosts.includes("vercel-static")) {
      const vercelRoot = layout.host("vercel-static");
      const vercelJson = JSON.parse(await readFile(path.join(vercelRoot, "vercel.json"), "utf8")) as VercelJson;
      answerers["vercel-static"] = await vercelAnswerer(vercelRoot, vercelJson);
    }

    const reports: HostReport[] = [];
    for (const host of hosts) {
      const answer = answerers[host];
      const report: HostReport = { host, compared: 0, equal: 0, allowed: {}, unexpected: [] };
      if (answer === undefined) {
        report.skipped = skipped[host] ?? "no answerer";
        reports.push(report);
        continue;
      }
      const known = new Set(options.asHost === true ? [] : KNOWN_DIFFERENCES[host].map((d) => d.category));
      const leftOut = new Set(host === "netlify-static" ? printRedirects(table).omitted : []);
      for (const [i, request] of requests.entries()) {
        if (host === "netlify-static" && request.category !== "own" && i % options.netlifyEvery !== 0) continue;
        const got = await answer(request.query);
        const want = expected.get(host)!.get(request.query)!;
        report.compared++;
        const fields = differingFields(got, want);
        if (fields.length === 0) report.equal++;
        else {
          const category = leftOut.has(request.rule) ? "left-out" : request.category;
          if (known.has(category)) report.allowed[category] = (report.allowed[category] ?? 0) + 1;
          else report.unexpected.push({ host, request, fields, host_answer: short(got), preview: short(want) });
        }
      }
      reports.push(report);
    }
    return { siteDir, table, requests, reports };
  } finally {
    await preview?.close();
    for (const s of servers) await s.stop();
    await removeDir(out);
  }
}

/** One line per host, for the test log and the README. */
export function summarize(name: string, run: ParityRun): string {
  const lines = [`${name}: ${run.requests.length} requests from ${run.table.rules.length} rules`];
  for (const r of run.reports) {
    if (r.skipped !== undefined) {
      lines.push(`  ${r.host.padEnd(10)} skipped (${r.skipped})`);
      continue;
    }
    const allowed = Object.entries(r.allowed)
      .map(([c, n]) => `${c} ${n}`)
      .join(", ");
    lines.push(
      `  ${r.host.padEnd(10)} ${r.compared} compared, ${r.equal} equal, known differences: ${allowed || "none"}, ` +
        `unexpected: ${r.unexpected.length}`,
    );
  }
  for (const r of run.reports) {
    for (const m of r.unexpected.slice(0, 12)) {
      lines.push(
        `    ${r.host} [${m.request.category}] ?${m.request.query} (${m.request.rule}): ${m.fields.join(",")} ` +
          `host=${m.host_answer.status} ${m.host_answer.body.slice(0, 50).replace(/\s+/g, " ")} cc=${m.host_answer.cacheControl} ct=${m.host_answer.contentType} ` +
          `| preview=${m.preview.status} ${m.preview.body.slice(0, 50).replace(/\s+/g, " ")} cc=${m.preview.cacheControl}`,
      );
    }
  }
  return lines.join("\n");
}
