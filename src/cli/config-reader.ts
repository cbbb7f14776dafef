// src/cli/config-reader.ts
// I/O: what the options layer asks of a loaded config file: its paths as the commands use them, and the mistakes that
// only show with the flags, the environment and the file system at hand (a content folder that is not there, a base
// URL the environment gives that cannot be used, `request` with only static hosts), each at its place in the file.

import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { baseUrlProblem } from "../content/base-url.js";
import { baseUrlFromEnv, FROM_ENV, REQUEST_ORIGIN } from "../content/base-url-env.js";
import type { Diagnostic } from "../errors.js";
import { DEFAULT_HOSTS, isEdgeHost, parseHosts } from "../hosts/names.js";
import type { ConfigFile, LoadedConfig } from "./config.js";
import { closest } from "./suggest.js";

type Reads = "content" | "site" | "nothing";

export class ConfigReader {
  constructor(
    readonly loaded: LoadedConfig,
    private readonly cwd: string,
  ) {}

  private get config(): ConfigFile {
    return this.loaded.config;
  }

  /** Whether a key is set and its value has no problem of its own (so that other checks may read it). */
  private usable(key: keyof ConfigFile): boolean {
    const pointer = this.loaded.place(key).pointer!;
    return (
      this.config[key] !== undefined &&
      !this.loaded.problems.some((d) => d.pointer === pointer || d.pointer?.startsWith(`${pointer}/`))
    );
  }

  /** A path from the config file as the commands show and use it: relative to the current folder. */
  path(key: "content" | "out"): string | undefined {
    const value = this.config[key];
    if (value === undefined) return undefined;
    if (path.isAbsolute(value)) return value;
    return path.relative(this.cwd, path.resolve(this.loaded.dir, value)) || ".";
  }

  /** The mistakes that show only with the flags, the environment and the file system at hand. */
  problems(flags: { content?: string; baseUrl?: string; hosts?: string }, reads: Reads, env: NodeJS.ProcessEnv) {
    const found: Diagnostic[] = [];
    const add = (key: keyof ConfigFile, problem: Omit<Diagnostic, "severity" | "file"> | null): void => {
      if (problem !== null) found.push({ severity: "error", ...this.loaded.place(key), ...problem });
    };
    if (reads === "content" && flags.content === undefined && this.usable("content"))
      add("content", this.contentProblem());
    if (reads !== "site" && flags.baseUrl === undefined && this.usable("baseUrl")) {
      add("baseUrl", this.envProblem(env));
      if (flags.hosts === undefined && (this.usable("hosts") || this.config.hosts === undefined))
        add("baseUrl", this.requestProblem());
    }
    return found;
  }

  /** "content" names no folder: what is there instead, and the nearest folder's name beside it. */
  private contentProblem(): Omit<Diagnostic, "severity" | "file"> | null {
    const value = this.config.content!;
    const dir = path.resolve(this.loaded.dir, value);
    const stat = statSync(dir, { throwIfNoEntry: false });
    if (stat?.isDirectory() === true) return null;
    const parent = path.dirname(dir);
    let near: string | undefined;
    try {
      const folders = readdirSync(parent, { withFileTypes: true }).filter((e) => e.isDirectory() && e.name[0] !== ".");
      near = closest(
        path.basename(dir),
        folders.map((e) => e.name),
      );
    } catch {
      near = undefined; // its parent is not there either
    }
    const suggestion =
      near === undefined ? "" : ` (did you mean ${JSON.stringify(path.join(path.dirname(value), near))}?)`;
    return {
      code: "CONFIG_CONTENT",
      message: `"content": ${JSON.stringify(value)} ${stat === undefined ? "does not exist" : "is a file, not a folder"}${suggestion}.`,
      hint: "Name the folder that holds manifest.json, config.json, extensionMap.json, icons.json and icons/, relative to the config file's folder.",
    };
  }

  /** "from-env" or "request": the URL the environment gives cannot be used. */
  private envProblem(env: NodeJS.ProcessEnv): Omit<Diagnostic, "severity" | "file"> | null {
    const value = this.config.baseUrl;
    if (value !== FROM_ENV && value !== REQUEST_ORIGIN) return null;
    const given = baseUrlFromEnv(env);
    const wrong = given.url === null ? null : baseUrlProblem(given.url);
    if (wrong === null) return null;
    return {
      code: "CONFIG_BASE_URL",
      message: `"baseUrl": "${value}": ${given.source} gives ${JSON.stringify(given.url)}, which cannot be used: ${wrong}.`,
      hint: "Fix that variable in the host's build settings, or write the site's address as baseUrl.",
    };
  }

  /** "request" needs an edge host among the hosts the file names (or the default ones). */
  private requestProblem(): Omit<Diagnostic, "severity" | "file"> | null {
    if (this.config.baseUrl !== REQUEST_ORIGIN) return null;
    const hosts = this.config.hosts === undefined ? DEFAULT_HOSTS : parseHosts(this.config.hosts.join(","));
    if (hosts.some(isEdgeHost)) return null;
    return {
      code: "CONFIG_BASE_URL",
      message: `"baseUrl": "${REQUEST_ORIGIN}" needs an edge host (netlify, vercel or cloudflare), and "hosts" names only static hosts (${hosts.join(", ")}), whose answer files are written at build time and cannot take the request's origin.`,
      hint: `Add an edge host to "hosts", or write a fixed base URL (an https:// URL, or "${FROM_ENV}").`,
    };
  }
}
