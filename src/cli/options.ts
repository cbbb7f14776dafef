// src/cli/options.ts
// One options layer: the config file and the command's flags resolve into one typed object that every command uses.
// Flags win over the config file, the config file over the defaults. Paths in the config file are relative to its
// folder; paths in flags to the current folder.

import { statSync } from "node:fs";
import path from "node:path";
import { InvalidArgumentError } from "commander";
import { baseUrlProblem } from "../content/base-url.js";
import { baseUrlFromEnv, FROM_ENV, REQUEST_ORIGIN } from "../content/base-url-env.js";
import { DEFAULT_EXCLUDE } from "../content/exclude.js";
import { UsageError } from "../errors.js";
import type { Plan } from "../hosts/limits.js";
import { DEFAULT_HOSTS, HOST_NAMES, isEdgeHost, parseHosts, type HostName } from "../hosts/names.js";
import { CONFIG_FILE, loadConfig, throwProblems, type ConfigFile, type LoadedConfig } from "./config.js";
import { ConfigReader } from "./config-reader.js";
import { noteOrigin, type Origin } from "./origins.js";
import { didYouMean } from "./suggest.js";

/** Every flag a command may declare (each command declares only its own). */
export interface Flags {
  config?: string;
  content?: string;
  out?: string;
  dir?: string;
  baseUrl?: string;
  hosts?: string;
  strict?: boolean;
  plan?: Plan;
  /** false from --no-catalogue (commander's negated flag); undefined when not given. */
  catalogue?: boolean;
  port?: number;
  host?: string;
}

export interface Options {
  /** The config file used (as shown to the user: relative to the current folder), or null. */
  config: string | null;
  content: string;
  out: string;
  baseUrl: string | undefined;
  /** With `--base-url from-env` or `request`: which variable gave the base URL (or that none did), for the build's output. */
  baseUrlSource: string | null;
  /** `--base-url request`: the edge hosts' handler answers with each request's origin. */
  requestOrigin: boolean;
  /** undefined: the default hosts. */
  hosts: HostName[] | undefined;
  strict: boolean;
  /** The row of host limits the build checks. */
  plan: Plan;
  exclude: string[];
  /** Write the icon catalogue (the site's root page); --no-catalogue or `"catalogue": false` leave it out. */
  catalogue: boolean;
  port: number;
  host: string;
}

export const DEFAULTS = { content: "content", out: "dist", port: 8080, host: "127.0.0.1" } as const;

/** `--port`: a whole number from 0 to 65535. */
export function parsePort(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535)
    throw new InvalidArgumentError("must be a whole number from 0 to 65535.");
  return Number(value);
}

/** `--hosts` → host names: a typo gets "did you mean", an empty list is an error (leave the flag out for all hosts). */
export function hostsFlag(list: string | undefined): HostName[] | undefined {
  if (list === undefined) return undefined;
  const names = list.split(",").map((s) => s.trim());
  if (names.every((n) => n === "")) {
    throw new UsageError(
      "--hosts is empty: name at least one host.",
      `Choose from ${HOST_NAMES.join(", ")} (comma-separated), default or all; leave the flag out for the default.`,
    );
  }
  for (const name of names) {
    if (name === "" || name === "all" || name === "default" || (HOST_NAMES as readonly string[]).includes(name))
      continue;
    throw new UsageError(
      `Unknown host '${name}' in --hosts${didYouMean(name, [...HOST_NAMES, "all", "default"])}.`,
      `Choose from ${HOST_NAMES.join(", ")} (comma-separated), default or all.`,
    );
  }
  return parseHosts(list);
}

/**
 * `--base-url`: an https:// URL without a trailing slash, query or fragment, `from-env` or `request` (a usage error
 * otherwise).
 */
export function baseUrlFlag(url: string | undefined): string | undefined {
  if (url === undefined || url === FROM_ENV || url === REQUEST_ORIGIN) return url;
  const wrong = baseUrlProblem(url);
  if (wrong === null) return url;
  throw new UsageError(
    `--base-url ${JSON.stringify(url)} cannot be used: ${wrong}.`,
    `Pass the site's public address, e.g. --base-url https://icons.example.org, ${FROM_ENV} for the deploy's own URL, ` +
      `or ${REQUEST_ORIGIN} for each request's origin (edge hosts).`,
  );
}

type ResolvedBaseUrl = Pick<Options, "baseUrl" | "baseUrlSource" | "requestOrigin">;

/**
 * The base URL to build with: `from-env` becomes the deploy's URL (manifest.json's when the environment has none);
 * `request` does the same for what is fixed at build time, and the edge handler answers with each request's origin.
 */
function resolveBaseUrl(value: string | undefined, env: NodeJS.ProcessEnv): ResolvedBaseUrl {
  if (value !== FROM_ENV && value !== REQUEST_ORIGIN)
    return { baseUrl: value, baseUrlSource: null, requestOrigin: false };
  const found = baseUrlFromEnv(env);
  const wrong = found.url === null ? null : baseUrlProblem(found.url);
  if (wrong !== null) {
    throw new UsageError(
      `--base-url ${value}: ${found.source} gives ${JSON.stringify(found.url)}, which cannot be used: ${wrong}.`,
    );
  }
  return found.url === null
    ? {
        baseUrl: undefined,
        baseUrlSource: `${found.source}: manifest.json base_url`,
        requestOrigin: value === REQUEST_ORIGIN,
      }
    : { baseUrl: found.url, baseUrlSource: found.source, requestOrigin: value === REQUEST_ORIGIN };
}

/** How a message names the base URL and the hosts: the flag the user passed, or the config file's key. */
export interface Labels {
  baseUrl: string;
  hosts: string;
}

/**
 * `--base-url request` needs an edge host: a static host serves answer files written at build time, which cannot
 * know the request's origin. Refused when no edge host is built; the static hosts of a mixed build are named.
 */
export function staticHostsWithRequestOrigin(
  hosts: readonly HostName[] | undefined,
  labels: Labels = { baseUrl: `--base-url ${REQUEST_ORIGIN}`, hosts: "--hosts" },
): HostName[] {
  const selected = hosts ?? DEFAULT_HOSTS;
  if (!selected.some(isEdgeHost)) {
    throw new UsageError(
      `${labels.baseUrl} needs an edge host (netlify, vercel or cloudflare); ${labels.hosts} ${selected.join(",")} builds only static hosts, ` +
        "whose answer files are written at build time and cannot take the request's origin.",
      `Add an edge host to the hosts, or use a fixed base URL (an https:// URL, or ${FROM_ENV}).`,
    );
  }
  return selected.filter((h) => !isEdgeHost(h));
}

/** What a command reads by default: the content (build, check, dev), a built site (preview, verify), or neither. */
export type Reads = "content" | "site" | "nothing";

/** The options of a command that reads the content (build, check, dev): its content folder is checked up front. */
export const optionsReadingContent = (flags: Flags, cwd?: string, env?: NodeJS.ProcessEnv): Options =>
  resolveOptions(flags, cwd, env, "content");

/** The options of a command that reads a built site (preview, verify): no base URL is resolved. */
export const optionsReadingSite = (flags: Flags, cwd?: string): Options =>
  resolveOptions(flags, cwd, process.env, "site");

/**
 * The options of one command: its flags over the config file (found from `cwd`, or --config) over the defaults. Every
 * mistake of the config file is reported at once, each at its place (a ConfigError); a wrong flag is a UsageError.
 */
export function resolveOptions(
  flags: Flags,
  cwd: string = process.cwd(),
  env: NodeJS.ProcessEnv = process.env,
  reads: Reads = "nothing",
): Options {
  const loaded = loadConfig(cwd, flags.config);
  const hosts = flags.hosts !== undefined ? hostsFlag(flags.hosts) : undefined;
  const file = loaded === null ? null : new ConfigReader(loaded, cwd);
  if (file !== null) throwProblems(file.loaded, file.problems(flags, reads, env));
  const config: ConfigFile = loaded?.config ?? {};
  const content = folder("content", flags.content, file, DEFAULTS.content);
  const out = folder("out", flags.dir ?? flags.out, file, DEFAULTS.out);
  if (reads === "content" && content.origin.from === "default") defaultContentExists(content.value, cwd, loaded);
  const selected = hosts ?? (config.hosts === undefined ? undefined : parseHosts(config.hosts.join(",")));
  const base =
    reads === "site"
      ? { baseUrl: undefined, baseUrlSource: null, requestOrigin: false }
      : resolveBaseUrl(baseUrlFlag(flags.baseUrl) ?? config.baseUrl, env);
  if (base.requestOrigin) staticHostsWithRequestOrigin(selected, labels(flags, loaded));
  return {
    config: loaded === null ? null : path.relative(cwd, loaded.file) || loaded.file,
    content: content.value,
    out: out.value,
    ...base,
    hosts: selected,
    strict: flags.strict === true || config.strict === true,
    plan: flags.plan ?? config.plan ?? "free",
    exclude: config.exclude ?? [...DEFAULT_EXCLUDE],
    // commander sets `catalogue: true` when --no-catalogue is absent: only its false overrides the config file.
    catalogue: flags.catalogue === false ? false : (config.catalogue ?? true),
    port: flags.port ?? config.port ?? DEFAULTS.port,
    host: flags.host ?? config.host ?? DEFAULTS.host,
  };
}

const labels = (flags: Flags, loaded: LoadedConfig | null): Labels => ({
  baseUrl:
    flags.baseUrl !== undefined ? `--base-url ${REQUEST_ORIGIN}` : `"baseUrl": "${REQUEST_ORIGIN}" (${loaded?.shown})`,
  hosts:
    flags.hosts !== undefined
      ? "--hosts"
      : loaded?.config.hosts !== undefined
        ? `"hosts" (${loaded.shown})`
        : "the default hosts",
});

/** A folder option's value and where it came from (noted for messages from the layers below: origins.ts). */
function folder(
  key: "content" | "out",
  flag: string | undefined,
  file: ConfigReader | null,
  fallback: string,
): { value: string; origin: Origin } {
  const fromFile = file?.path(key);
  const found: { value: string; origin: Origin } =
    flag !== undefined
      ? { value: flag, origin: { from: "flag" } }
      : fromFile !== undefined
        ? { value: fromFile, origin: { from: "config", key, file: file!.loaded.shown } }
        : { value: fallback, origin: { from: "default" } };
  noteOrigin(key, found.value, found.origin);
  return found;
}

/** No --content, no "content" in a config file, and no content/ here: say so, and how to name one or start one. */
function defaultContentExists(dir: string, cwd: string, loaded: LoadedConfig | null): void {
  if (statSync(path.resolve(cwd, dir), { throwIfNoEntry: false })?.isDirectory() === true) return;
  throw new UsageError(
    `No content folder: ${dir}/, the default, is not a folder here.`,
    `Pass --content <dir>, set "content" in ${loaded?.shown ?? CONFIG_FILE}, or run \`build-index-site init\` to start one.`,
  );
}
