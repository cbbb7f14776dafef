// src/diff/from-url.ts
// A deployed site (or the PHP service) → SiteDescription, read through its API as a client reads it: the actions
// icons, iconMappings, extensionMappings and config, and every icon file the icons action lists (for its bytes and
// dimensions).
//
// The client versions: no answer of the API lists them (info, status, config and versionCheck name only the latest
// version; versionCheck answers any version it is asked). A site built by build-index-site publishes them in its
// catalogue's site data (catalogue/site.json, `versions`: manifest.json's list), which is read when it is there and
// agrees with the API's config version. Otherwise (the PHP service, a build with --no-catalogue or with its own
// index.html) `versions` is null and `versionsUnknown` says why.

import { SITE_DATA_FILE } from "../catalogue/catalogue-files.js";
import { UsageError } from "../errors.js";
import { createClient, TargetError, type Client } from "../verify/http.js";
import { iconFile } from "./icon-file.js";
import type { IconFile, SiteDescription, VersionAnswer } from "./site.js";

export interface UrlOptions {
  concurrency?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** An answer of this size is far beyond any site's (even a large site's icons list is far smaller). */
const MAX_BYTES = 64 * 1024 * 1024;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function strings(value: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (isObject(value)) for (const [k, v] of Object.entries(value)) if (typeof v === "string") out.set(k, v);
  return out;
}

/** The site's root URL (ending in "/"), or a UsageError for anything but http(s). */
export function siteUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`${raw} is not a URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new UsageError(`${raw} is not an http or https URL.`);
  url.search = "";
  url.hash = "";
  if (url.pathname.endsWith("/api.php")) url.pathname = url.pathname.slice(0, -"api.php".length);
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  return url;
}

/** The HTTP client both readers use: JSON asked for, the options' concurrency and time-out. */
const jsonClient = (options: UrlOptions) =>
  createClient({
    concurrency: options.concurrency ?? 8,
    timeoutMs: options.timeoutMs ?? 10_000,
    headers: { accept: "application/json" },
  });

export async function readUrlSite(raw: string, options: UrlOptions = {}): Promise<SiteDescription> {
  const root = siteUrl(raw);
  const client = jsonClient(options);
  const signal = options.signal ?? new AbortController().signal;
  try {
    const api = (query: string): Promise<Record<string, unknown>> => askJson(client, root, query, signal);
    const [icons, iconMappings, extensionMappings, config] = await Promise.all([
      api("action=icons"),
      api("action=iconMappings"),
      api("action=extensionMappings&type=all"),
      api("action=config"),
    ]);
    const names = (Array.isArray(icons.icons) ? icons.icons : [])
      .map((i) => (isObject(i) && typeof i.filename === "string" ? i.filename : null))
      .filter((n): n is string => n !== null);
    const files = new Map<string, IconFile>();
    await pool(names, options.concurrency ?? 8, async (name) => {
      const url = new URL(`icons/${encodeURIComponent(name)}`, root);
      const got = await ask(client, url, signal);
      if (got.status !== 200)
        throw new UsageError(`${root.href}: ${url.href} answered ${got.status}, though the icons action lists it.`);
      files.set(name, iconFile(got.body));
    });
    const mappings = isObject(extensionMappings.mappings) ? extensionMappings.mappings : {};
    const latestVersion =
      typeof config.version === "string"
        ? config.version
        : isObject(config.config) && typeof config.config.version === "string"
          ? config.config.version
          : "";
    const versions = await publishedVersions(client, root, latestVersion, signal);
    return {
      source: raw,
      kind: "url",
      format: null,
      files: new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
      iconMap: strings(iconMappings.mappings),
      indexing: strings(mappings.indexing),
      viewing: strings(mappings.viewing),
      config: config.config,
      latestVersion,
      ...versions,
    };
  } finally {
    client.close();
  }
}

/**
 * The client versions the site publishes in its catalogue's site data, or null and the reason. Only a site data file
 * that is the catalogue's (format 1, a list of strings) and describes the site the API answers for (the same config
 * version) counts.
 */
async function publishedVersions(
  client: Client,
  root: URL,
  latest: string,
  signal: AbortSignal,
): Promise<{ versions: string[] } | { versions: null; versionsUnknown: string }> {
  const url = new URL(SITE_DATA_FILE, root);
  const unknown = (why: string): { versions: null; versionsUnknown: string } => ({
    versions: null,
    versionsUnknown: `${root.href} does not list the client versions it serves: the indexer API has no answer that lists them, and ${why}`,
  });
  const got = await ask(client, url, signal);
  if (got.status !== 200)
    return unknown(
      `it publishes no catalogue data (${SITE_DATA_FILE} answered ${got.status}; a site built by build-index-site with its catalogue has it).`,
    );
  let data: unknown;
  try {
    data = JSON.parse(got.body.toString("utf8"));
  } catch {
    data = undefined;
  }
  if (
    !isObject(data) ||
    data.format !== 1 ||
    !Array.isArray(data.versions) ||
    !data.versions.every((v) => typeof v === "string")
  ) {
    return unknown(
      `${SITE_DATA_FILE} is not the catalogue's site data of a build this version of build-index-site reads.`,
    );
  }
  const dataVersion =
    isObject(data.config) && typeof data.config.version === "string" ? data.config.version : undefined;
  if (dataVersion !== latest) {
    return unknown(
      `its ${SITE_DATA_FILE} describes config version ${String(dataVersion)}, not ${latest || "(none)"}, which the API serves.`,
    );
  }
  return { versions: data.versions as string[] };
}

/** Runs `work` on every item, at most `n` at once (one abort listener per request in flight, not per item). */
async function pool<T>(items: readonly T[], n: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
}

/**
 * What the site answers versionCheck for each of these client versions (a static host answers a version it was not
 * built with by its fallback, which need not be what the PHP service computes).
 */
export async function askVersionChecks(
  raw: string,
  versions: readonly string[],
  options: UrlOptions = {},
): Promise<Map<string, VersionAnswer>> {
  const root = siteUrl(raw);
  const client = jsonClient(options);
  const signal = options.signal ?? new AbortController().signal;
  const out = new Map<string, VersionAnswer>();
  try {
    await pool(versions, options.concurrency ?? 8, async (version) => {
      const body = await askJson(
        client,
        root,
        `action=versionCheck&current_version=${encodeURIComponent(version)}`,
        signal,
      );
      if (typeof body.update_needed !== "boolean" || typeof body.latest_version !== "string") {
        throw new UsageError(
          `${root.href} does not answer like the indexer API: versionCheck for ${version} has no update_needed or latest_version.`,
        );
      }
      out.set(version, { updateNeeded: body.update_needed, latest: body.latest_version });
    });
  } finally {
    client.close();
  }
  return out;
}

async function ask(client: Client, url: URL, signal: AbortSignal) {
  try {
    return await client.request(url, "GET", MAX_BYTES, signal);
  } catch (error) {
    if (error instanceof TargetError)
      throw new UsageError(`Cannot read ${url.origin}${url.pathname}: ${error.message}`);
    throw error;
  }
}

async function askJson(
  client: Client,
  root: URL,
  query: string,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const url = new URL(`api.php?${query}`, root);
  const got = await ask(client, url, signal);
  let body: unknown;
  try {
    body = JSON.parse(got.body.toString("utf8"));
  } catch {
    body = undefined;
  }
  if (got.status !== 200 || !isObject(body) || body.success !== true) {
    throw new UsageError(
      `${root.href} does not answer like the indexer API: ${url.pathname}?${query} gave status ${got.status}${isObject(body) ? "" : " and no JSON"}.`,
      "Give the address of a deployed site (the folder that holds api.php).",
    );
  }
  return body;
}
