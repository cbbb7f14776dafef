// src/cli/config.ts
// The config file: build-index-site.config.json, or the "build-index-site" key of package.json, found by lilconfig
// from the current folder upwards (or named by --config). Checked against schemas/build-index-site.config.schema.json
// with ajv; a mistake is a usage error (exit 2) with the file, line:column and, for an unknown key, the nearest valid one.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { ErrorObject } from "ajv/dist/2020.js";
import { findNodeAtLocation, parseTree } from "jsonc-parser";
import { lilconfigSync, type LilconfigResult } from "lilconfig";
import { CONFIG_FILE, CONFIG_NAME, CONFIG_SCHEMA } from "../config-names.js";
import { parseJson, pointerToken, type ParsedJson } from "../content/parse-json.js";
import { UsageError, type Location } from "../errors.js";
import { toPlain } from "../model/json.js";
import { didYouMean } from "./suggest.js";

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
  /** The folder its relative paths start from. */
  dir: string;
  config: ConfigFile;
}

const SCHEMA_URL = new URL(`../../schemas/${CONFIG_SCHEMA}`, import.meta.url);
let schema: Record<string, unknown> | undefined;
const configSchema = (): Record<string, unknown> =>
  (schema ??= JSON.parse(readFileSync(SCHEMA_URL, "utf8")) as Record<string, unknown>);

/** The keys a config file may hold (from the schema). */
export function configKeys(): string[] {
  return Object.keys(configSchema().properties as Record<string, unknown>);
}

const shown = (file: string): string => path.relative(process.cwd(), file) || file;

/** Parses JSON with positions; a syntax error is a usage error at its line:column. */
function parse(file: string, text: string): ParsedJson {
  const parsed = parseJson(shown(file), text);
  const error = parsed.diagnostics.find((d) => d.severity === "error");
  if (error !== undefined) {
    const { file: f, line, column, message, hint } = error;
    throw new UsageError(`${message} The config file is not valid JSON.`, hint, {
      file: f,
      ...(line !== undefined ? { line, column: column ?? 1 } : {}),
    });
  }
  return parsed;
}

const loadJson = (file: string, text: string): unknown => toPlain(parse(file, text).value);

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
 * a "build-index-site" key), checked against the schema; null when there is none.
 */
export function loadConfig(cwd: string, explicit?: string): LoadedConfig | null {
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
  const prefix = inPackage ? `/${pointerToken(CONFIG_NAME)}` : "";
  check(file, found.config, prefix);
  return { file, dir: path.dirname(file), config: found.config as ConfigFile };
}

function check(file: string, value: unknown, prefix: string): void {
  const require = createRequire(import.meta.url);
  const { Ajv2020 } = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
  const validate = new Ajv2020({ allErrors: true, strict: true }).compile(configSchema());
  if (validate(value)) return;
  const errors = validate.errors ?? [];
  // An unknown key first: the likeliest mistake, and the one with a suggestion.
  const first = errors.find((e) => e.keyword === "additionalProperties") ?? errors[0]!;
  const text = readFileSync(file, "utf8");
  throw problem(first, text, parse(file, text), prefix);
}

/** Line and column of the key of the property at `segments` (where an unknown key is shown). */
function keyPosition(text: string, segments: string[]): { line: number; column: number } | Record<string, never> {
  const root = parseTree(text);
  const value = root === undefined ? undefined : findNodeAtLocation(root, segments);
  const property = value?.parent;
  if (property?.type !== "property") return {};
  const before = text.slice(0, property.offset);
  const line = before.split("\n").length;
  return { line, column: property.offset - (before.lastIndexOf("\n") + 1) + 1 };
}

function problem(error: ErrorObject, text: string, parsed: ParsedJson, prefix: string): UsageError {
  const where = (pointer: string): Location => ({ file: parsed.file, ...parsed.positionOf(pointer) });
  if (error.keyword === "additionalProperties") {
    const key = (error.params as { additionalProperty: string }).additionalProperty;
    const keys = configKeys().filter((k) => k !== "$schema");
    const segments = [...(prefix === "" ? [] : [CONFIG_NAME]), ...error.instancePath.split("/").slice(1), key];
    return new UsageError(
      `Unknown key "${key}" in the config file${didYouMean(key, keys)}.`,
      `The keys are ${keys.join(", ")} (${CONFIG_SCHEMA} in the package's schemas/ folder describes each).`,
      { file: parsed.file, ...keyPosition(text, segments) },
    );
  }
  const pointer = `${prefix}${error.instancePath}`;
  const name = error.instancePath === "" ? "The config" : `"${error.instancePath.slice(1).replace(/\//g, ".")}"`;
  const allowed =
    error.keyword === "enum"
      ? `: one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(", ")}`
      : "";
  return new UsageError(
    `${name} ${error.message ?? "is not valid"}${allowed}.`,
    `See ${CONFIG_SCHEMA} in the package's schemas/ folder.`,
    where(pointer),
  );
}
