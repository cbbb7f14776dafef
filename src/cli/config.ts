// src/cli/config.ts
// I/O: reads the config file: build-index-site.config.json, or the "build-index-site" key of package.json, found by
// lilconfig from the current folder upwards (or named by --config). Checked against
// schemas/build-index-site.config.schema.json with ajv; every mistake is kept, with its line:column (config-problems.ts
// words them), for the options layer to report all at once with its own (src/cli/options.ts).

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { lilconfigSync, type LilconfigResult } from "lilconfig";
import { CONFIG_FILE, CONFIG_NAME, CONFIG_SCHEMA } from "../config-names.js";
import { parseJson, pointerToken, type ParsedJson } from "../content/parse-json.js";
import { ConfigError, UsageError, type Diagnostic } from "../errors.js";
import { toPlain } from "../model/json.js";
import { configProblems, type ConfigPlace } from "./config-problems.js";

export { CONFIG_FILE, CONFIG_NAME, CONFIG_SCHEMA };

/** What a config file may hold (the schema says the same, for editors and ajv). */
export interface ConfigFile {
  content?: string;
  out?: string;
  baseUrl?: string;
  hosts?: string[];
  strict?: boolean;
  plan?: "free" | "paid";
  exclude?: string[];
  catalogue?: boolean;
  port?: number;
  host?: string;
}

export interface LoadedConfig {
  /** The file, as found (absolute). */
  file: string;
  /** The file as messages name it (relative to the current folder). */
  shown: string;
  /** The folder its relative paths start from. */
  dir: string;
  /** The values as read: a key with a problem may hold anything (`problems` says what). */
  config: ConfigFile;
  /** Where a key's value is in the file (a Diagnostic without severity, code and message). */
  place: ConfigPlace;
  /** The file's mistakes found by reading it (schema, duplicate keys): the options layer adds its own and throws
   * them all at once (throwProblems). */
  problems: Diagnostic[];
}

const SCHEMA_URL = new URL(`../../schemas/${CONFIG_SCHEMA}`, import.meta.url);
let schema: Record<string, unknown> | undefined;
const configSchema = (): Record<string, unknown> =>
  (schema ??= JSON.parse(readFileSync(SCHEMA_URL, "utf8")) as Record<string, unknown>);

/** The keys a config file may hold (from the schema), without "$schema". */
export function configKeys(): string[] {
  return Object.keys(configSchema().properties as Record<string, unknown>).filter((k) => k !== "$schema");
}

const shownPath = (file: string): string => path.relative(process.cwd(), file) || file;

/** The parses of the files lilconfig loaded in this search, by path (the loader returns plain values only). */
const parses = new Map<string, { parsed: ParsedJson; text: string }>();

/** Parses JSON with positions; a file that does not parse is refused at once, with where it stops. */
function loadJson(file: string, text: string): unknown {
  const parsed = parseJson(shownPath(file), text);
  if (parsed.value === null && parsed.diagnostics.length > 0) {
    const notJson = parsed.diagnostics.map((d) => ({
      ...d,
      message: `${d.message} The config file is not valid JSON.`,
    }));
    throw new ConfigError(shownPath(file), notJson);
  }
  parses.set(file, { parsed, text });
  return toPlain(parsed.value);
}

function search(cwd: string, explicit: string | undefined): LilconfigResult {
  const explorer = lilconfigSync(CONFIG_NAME, {
    searchPlaces: ["package.json", CONFIG_FILE],
    loaders: { ".json": loadJson, noExt: loadJson },
    cache: false,
  });
  if (explicit === undefined) return explorer.search(cwd);
  const file = path.resolve(cwd, explicit);
  try {
    return explorer.load(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "EISDIR") {
      throw new UsageError(
        `--config ${explicit}: ${code === "ENOENT" ? "no such file" : "is a folder"}.`,
        `Name a JSON file such as ${CONFIG_FILE}.`,
      );
    }
    throw error;
  }
}

/**
 * The config file for `cwd` (--config `explicit`, else the nearest build-index-site.config.json or package.json with
 * a "build-index-site" key), with its mistakes; null when there is none. A file that is not JSON is refused here.
 */
export function loadConfig(cwd: string, explicit?: string): LoadedConfig | null {
  parses.clear();
  const found = search(cwd, explicit);
  if (found === null) return null;
  const file = found.filepath;
  const inPackage = path.basename(file) === "package.json";
  // A package.json given with --config but without the key: nothing to read from it.
  if (found.config === undefined || found.config === null) {
    if (explicit !== undefined && !inPackage)
      throw new UsageError(`--config ${explicit} is empty.`, 'Write a JSON object, e.g. { "content": "content" }.');
    return null;
  }
  const text = parses.get(file)?.text ?? readFileSync(file, "utf8");
  const parsed = parses.get(file)?.parsed ?? parseJson(shownPath(file), text);
  parses.clear(); // the other files lilconfig read on its way up are let go
  const prefix = inPackage ? `/${pointerToken(CONFIG_NAME)}` : "";
  // In package.json, only what is under the key is this tool's to report.
  const own = parsed.diagnostics.filter((d) => d.pointer === undefined || d.pointer.startsWith(prefix));
  const { place, problems } = configProblems(
    validate(found.config),
    found.config,
    { parsed, text, prefix },
    configKeys(),
  );
  return {
    file,
    shown: parsed.file,
    dir: path.dirname(file),
    config: found.config as ConfigFile,
    place,
    problems: [...own, ...problems],
  };
}

/** Throws every problem of the config file at once (sorted by their place), when there is any. */
export function throwProblems(loaded: LoadedConfig, more: Diagnostic[] = []): void {
  const all = [...loaded.problems, ...more];
  if (all.length === 0) return;
  all.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  throw new ConfigError(loaded.shown, all);
}

type AjvErrors = NonNullable<import("ajv/dist/2020.js").ValidateFunction["errors"]>;

function validate(value: unknown): AjvErrors {
  const require = createRequire(import.meta.url);
  const { Ajv2020 } = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
  const check = new Ajv2020({ allErrors: true, verbose: true, strict: true }).compile(configSchema());
  return check(value) ? [] : (check.errors ?? []);
}
