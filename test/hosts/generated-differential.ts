// test/hosts/generated-differential.ts
// The generated-content differential's engine: one build of generated content (test/hosts/generated-content.ts)
// served by the reference PHP service and by every host that runs here (nginx and Apache with the emitted configs,
// workerd under `wrangler dev`, Netlify's edge function under Deno, Vercel's under edge-runtime), each request asked
// of all of them, and each host's answer compared with the reference's as `verify` compares (compareAnswer). A
// static host's difference that a documented fallback explains (src/verify/fallbacks.ts, the README's table) is
// classified as it, as `verify` classifies it; REFERENCE_OMITS' fields are the reference's to leave out.
// I/O: writes the content and the build into a temporary folder, runs the servers, asks them over loopback.

import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { build } from "../../src/pipeline/pipeline.js";
import { ContentError } from "../../src/errors.js";
import type { HostName } from "../../src/hosts/index.js";
import { NGINX_HTTP_FILE, NGINX_ROOT, NGINX_SERVER_FILE } from "../../src/hosts/nginx/render.js";
import { VERCEL_DIR } from "../../src/hosts/vercel/render.js";
import { layoutOf } from "../../src/layout/paths.js";
import { readBuild, type Build } from "../../src/layout/read-build.js";
import { API_HEADERS, compareAnswer, sha256, type Expected, type Received } from "../../src/verify/compare-answers.js";
import { fallbackCovers, REFERENCE_OMITS, STATIC_FALLBACKS } from "../../src/verify/fallbacks.js";
import { parseJsonLiterals } from "../../src/verify/json-literals.js";
import { startWrangler } from "../edge/wrangler.js";
import { startNetlifyDeno } from "../hosts/netlify-deno.js";
import { startVercelOutput } from "../hosts/vercel-edge-runtime.js";
import { removeDir, tmpDir } from "../helpers/fixtures.js";
import { canRun, type Need } from "../helpers/needs.js";
import { startReference as startService } from "../helpers/reference.js";
import { REFERENCE_BASE_URL, type Generated, type GeneratedRequest } from "./generated-content.js";
import { startApache, startNginx, type RunningServer } from "./servers.js";

const ALL_HOSTS: readonly HostName[] = ["nginx", "apache", "cloudflare", "netlify", "vercel"];

interface Target {
  /** "nginx", "workerd (cloudflare)", … */
  name: string;
  host: HostName;
  url: string;
}

export interface Outcome {
  /** Requests asked, and answers compared (requests × hosts). */
  requests: number;
  compared: number;
  equal: number;
  /** Differences a documented fallback explains, by target and fallback id. */
  documented: Map<string, number>;
  /** Everything else: one line each. */
  failures: string[];
  /** Hosts not run here (outside CI, their need is missing). */
  skipped: string[];
}

export interface Site {
  root: string;
  siteDir: string;
  build: Build;
  reference: string;
  targets: Target[];
  skipped: string[];
  stop(): Promise<void>;
}

/** Writes the content, builds it for every host, and starts the reference and the hosts that can run here. */
export async function startSite(generated: Generated): Promise<Site> {
  const root = await tmpDir("bis-generated-");
  const servers: RunningServer[] = [];
  const stop = async (): Promise<void> => {
    for (const s of servers.reverse()) await s.stop();
    await removeDir(root);
  };
  try {
    const content = path.join(root, "content");
    for (const [rel, data] of generated.files) {
      await mkdir(path.dirname(path.join(content, rel)), { recursive: true });
      await writeFile(path.join(content, rel), data);
    }
    const siteDir = path.join(root, "dist");
    // The content's own file times (no SOURCE_DATE_EPOCH): the reference reports them as last_modified.
    await build({ content, out: siteDir, hosts: ALL_HOSTS, baseUrl: REFERENCE_BASE_URL }).catch((error: unknown) => {
      // The generator keeps to what the build accepts: a refusal names what it refused.
      if (!(error instanceof ContentError)) throw error;
      const lines = error.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.code} ${d.message}`);
      throw new Error(`The build refused the generated content:\n${lines.join("\n")}`);
    });
    // Web servers run their workers as an unprivileged user: the site must be world-readable.
    await chmod(root, 0o755);
    await chmod(siteDir, 0o755);
    const reference = await startReference(content, path.join(root, "php"));
    servers.push(reference);
    const { targets, skipped } = await startHosts(root, siteDir, servers);
    return { root, siteDir, build: await readBuild(siteDir), reference: reference.url, targets, skipped, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

const startReference = (content: string, run: string): Promise<RunningServer> => startService(content, run, 4);

/** Starts each host whose need is met (the others are named in `skipped`). */
async function startHosts(
  root: string,
  siteDir: string,
  servers: RunningServer[],
): Promise<{ targets: Target[]; skipped: string[] }> {
  const layout = layoutOf(siteDir);
  const nginx = layout.host("nginx");
  const hosts: Array<[string, HostName, Need, () => Promise<RunningServer>]> = [
    [
      "nginx",
      "nginx",
      "nginx",
      () =>
        startNginx(
          path.join(nginx, NGINX_ROOT),
          path.join(nginx, NGINX_HTTP_FILE),
          path.join(nginx, NGINX_SERVER_FILE),
        ),
    ],
    ["Apache", "apache", "apache", () => startApache(layout.host("apache"))],
    ["workerd (cloudflare)", "cloudflare", "workerd", () => startWrangler(root)],
    ["Deno (netlify)", "netlify", "deno", () => startNetlifyDeno(root, layout.host("netlify"))],
    ["edge-runtime (vercel)", "vercel", "edge-runtime", () => startVercelOutput(path.join(root, VERCEL_DIR))],
  ];
  const targets: Target[] = [];
  const skipped: string[] = [];
  for (const [name, host, need, start] of hosts) {
    if (!canRun(need)) {
      skipped.push(name);
      continue;
    }
    const server = await start();
    servers.push(server);
    targets.push({ name, host, url: server.url });
  }
  return { targets, skipped };
}

/** One answer as a client sees it (header names lower case). */
async function ask(base: string, r: GeneratedRequest): Promise<Received> {
  const res = await fetch(`${base}/api.php${r.query === "" ? "" : `?${r.query}`}`, {
    method: r.method,
    redirect: "manual",
    signal: AbortSignal.timeout(30_000),
  });
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => (headers[name] = value));
  return { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()) };
}

/** What the reference answered, as `verify` expects an answer: status, the API's headers, the body. */
function expectedOf(ref: Received): Expected {
  const headers: Record<string, string | undefined> = {};
  for (const name of API_HEADERS) headers[name] = ref.headers[name];
  if (ref.body.length === 0) return { status: ref.status, headers, body: { kind: "empty" } };
  try {
    return { status: ref.status, headers, body: { kind: "json", value: parseJsonLiterals(ref.body.toString("utf8")) } };
  } catch {
    return { status: ref.status, headers, body: { kind: "bytes", sha256: sha256(ref.body), size: ref.body.length } };
  }
}

const actionOf = (query: string): string =>
  new URLSearchParams(query.replace(/\+/g, "%2B")).getAll("action").pop() ?? "";

/** Our answer without the fields that the reference leaves out by design (REFERENCE_OMITS: docs/behaviour.md). */
function withoutOmitted(got: Received, want: Expected, query: string): Received {
  const value = want.body.kind === "json" ? want.body.value : undefined;
  const fields = REFERENCE_OMITS.filter((o) => o.action === actionOf(query))
    .flatMap((o) => o.fields)
    .filter((f) => typeof value === "object" && value !== null && !Object.hasOwn(value, f));
  if (fields.length === 0 || got.body.length === 0) return got;
  try {
    // These answers hold strings and integers only: printed again, they say the same.
    const body = JSON.parse(got.body.toString("utf8")) as Record<string, unknown>;
    for (const f of fields) delete body[f];
    return { ...got, body: Buffer.from(JSON.stringify(body)) };
  } catch {
    return got;
  }
}

/** The raw query as the route table must read it to answer as nginx and Apache do (percent escapes not decoded). */
const rawQuery = (query: string): string => query.replace(/%/g, "%25").replace(/\+/g, "%2B");

/** The documented fallback that explains a static host's answer to a request beyond the domain, or null. */
async function explained(site: Site, target: Target, r: GeneratedRequest, got: Received): Promise<string | null> {
  if (r.probe === undefined || (r.method !== "GET" && r.method !== "POST")) return null;
  if (target.host !== "nginx" && target.host !== "apache") return null;
  for (const fallback of STATIC_FALLBACKS.filter((f) => f.probes.includes(r.probe!))) {
    if (fallback.hosts !== "every static host" && !fallback.hosts.split(", ").includes(target.host)) continue;
    const sent = new URL(`http://h/api.php?${r.query}`).search.slice(1);
    const answer = await site.build.answer(fallback.answeredBy === "table" ? sent : rawQuery(sent));
    if (!fallbackCovers(fallback, r.probe, answer.rule)) continue;
    const text = await readFile(answer.file, "utf8");
    const headers = Object.fromEntries(Object.entries(answer.headers).map(([k, v]) => [k.toLowerCase(), v]));
    const want: Expected = { status: answer.status, headers, body: { kind: "json", value: parseJsonLiterals(text) } };
    if (compareAnswer(want, got, { baseUrl: REFERENCE_BASE_URL }).length === 0) return fallback.id;
  }
  return null;
}

/** Asks every request of every target and of the reference, `concurrency` requests at a time. */
export async function runDifferential(
  site: Site,
  requests: readonly GeneratedRequest[],
  concurrency = 4,
): Promise<Outcome> {
  const outcome: Outcome = {
    requests: requests.length,
    compared: 0,
    equal: 0,
    documented: new Map(),
    failures: [],
    skipped: site.skipped,
  };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < requests.length) {
      const r = requests[next++]!;
      const [ref, ...answers] = await Promise.all(
        [site.reference, ...site.targets.map((t) => t.url)].map((u) => ask(u, r)),
      );
      const want = expectedOf(ref!);
      for (const [i, target] of site.targets.entries()) {
        const got = withoutOmitted(answers[i]!, want, r.query);
        outcome.compared++;
        const found = compareAnswer(want, got, { baseUrl: REFERENCE_BASE_URL });
        if (found.length === 0) {
          outcome.equal++;
          continue;
        }
        const id = await explained(site, target, r, got);
        const key = `${target.name}: ${id}`;
        if (id !== null) outcome.documented.set(key, (outcome.documented.get(key) ?? 0) + 1);
        else outcome.failures.push(`${target.name} ${r.method} /api.php?${r.query}: ${found.join("; ")}`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return outcome;
}
