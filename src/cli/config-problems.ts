// src/cli/config-problems.ts
// The config file's mistakes in words, as the content's are worded (src/content/validate.ts): ajv's errors become
// Diagnostics with the file, line:column, what is wrong, what to do, and "did you mean" for a misspelt key or host.
// Pure: takes ajv's errors and the parsed file.

import type { ErrorObject } from "ajv/dist/2020.js";
import { findNodeAtLocation, parseTree } from "jsonc-parser";
import { CONFIG_SCHEMA } from "../config-names.js";
import { baseUrlProblem } from "../content/base-url.js";
import { FROM_ENV, REQUEST_ORIGIN } from "../content/base-url-env.js";
import { lineColumn, pointerToken, type ParsedJson } from "../content/parse-json.js";
import { typeList, typeName } from "../content/validate.js";
import type { Diagnostic, Location } from "../errors.js";
import { HOST_NAMES } from "../hosts/names.js";
import { didYouMean } from "./suggest.js";

/** Where the value of a top-level key is (its key's place when `key` is true), for a Diagnostic about it. */
export type ConfigPlace = (name: string, options?: { key?: boolean; index?: number }) => Location;

/** A Diagnostic of the config file (always an error: the command does not start). */
export type ConfigProblem = Omit<Diagnostic, "severity" | keyof Location>;

const HOST_WORDS = [...HOST_NAMES, "default", "all"];
const KEYS_HINT = `See ${CONFIG_SCHEMA} in the package's schemas/ folder.`;

interface Source {
  parsed: ParsedJson;
  text: string;
  /** The JSON Pointer of the config object in the file ("" or "/build-index-site" in package.json). */
  prefix: string;
}

/** A top-level key's JSON Pointer segments from the file's root. */
const segments = (prefix: string, path: Array<string | number>): Array<string | number> => [
  ...prefix
    .split("/")
    .slice(1)
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~")),
  ...path,
];

function placeOf(source: Source): ConfigPlace {
  const root = parseTree(source.text);
  const starts = [0, ...[...source.text.matchAll(/\n/g)].map((m) => m.index + 1)];
  return (name, options = {}) => {
    const inner = name === "" ? [] : [name, ...(options.index === undefined ? [] : [options.index])];
    const pointer = `${source.prefix}${inner.map((s) => `/${pointerToken(String(s))}`).join("")}`;
    const node = root === undefined ? undefined : findNodeAtLocation(root, segments(source.prefix, inner));
    const at = options.key === true && node?.parent?.type === "property" ? node.parent : node;
    return {
      file: source.parsed.file,
      pointer,
      ...(at === undefined ? source.parsed.positionOf(pointer) : lineColumn(starts, at.offset)),
    };
  };
}

/** `"port"`, or `item 2 of "hosts"`, for /port and /hosts/1. */
function nameOf(instancePath: string): { key: string; index?: number; shown: string } {
  const [key = "", index] = instancePath.split("/").slice(1);
  if (index === undefined) return { key, shown: key === "" ? "The config" : `"${key}"` };
  return { key, index: Number(index), shown: `Item ${Number(index) + 1} of "${key}"` };
}

/** One ajv error in words; null for one that another error already says. */
function describe(e: ErrorObject, keys: readonly string[]): ConfigProblem | null {
  const p = e.params as Record<string, unknown>;
  const { shown } = nameOf(e.instancePath);
  switch (e.keyword) {
    case "additionalProperties": {
      const key = String(p.additionalProperty);
      return {
        code: "CONFIG_KEY",
        message: `Unknown key "${key}"${didYouMean(key, keys)}.`,
        hint: `The keys are ${keys.join(", ")} (${CONFIG_SCHEMA} in the package's schemas/ folder describes each).`,
      };
    }
    case "type":
      return {
        code: "CONFIG_VALUE",
        message:
          e.instancePath === ""
            ? `The config must be a JSON object (got ${typeName(e.data)}).`
            : `${shown} must be ${typeList(p.type as string | string[])} (got ${typeName(e.data)}).`,
        hint: KEYS_HINT,
      };
    case "enum":
      return nameOf(e.instancePath).key === "hosts"
        ? {
            code: "CONFIG_HOST",
            message: `Unknown host ${JSON.stringify(e.data)} in "hosts"${didYouMean(String(e.data), HOST_WORDS)}.`,
            hint: `Choose from ${HOST_NAMES.join(", ")}, or "default" or "all" alone.`,
          }
        : {
            code: "CONFIG_VALUE",
            message: `${shown} must be ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(" or ")} (got ${typeName(e.data)}).`,
          };
    case "minLength":
      return {
        code: "CONFIG_VALUE",
        message: `${shown} must not be empty.`,
        hint: "Leave the key out for the default.",
      };
    case "minItems":
      return {
        code: "CONFIG_VALUE",
        message: `${shown} is empty: name at least one.`,
        hint: "Leave the key out for the default.",
      };
    case "uniqueItems":
      return {
        code: "CONFIG_VALUE",
        message: `"${nameOf(e.instancePath).key}" names ${JSON.stringify((e.data as unknown[])[p.i as number])} twice.`,
        hint: "Remove one of them.",
      };
    case "minimum":
    case "maximum":
      return {
        code: "CONFIG_VALUE",
        message: `${shown} must be from 0 to 65535 (got ${String(e.data)}).`,
        hint: "0 asks for any free port.",
      };
    case "pattern":
      return null; // baseUrl, checked in full below
    default:
      return { code: "CONFIG_VALUE", message: `${shown} is not valid (${e.keyword}).`, hint: KEYS_HINT };
  }
}

/** The base URL's problem (the schema's pattern lets through what a URL parser refuses), or null. */
function baseUrlWrong(value: unknown): ConfigProblem | null {
  if (typeof value !== "string" || value === FROM_ENV || value === REQUEST_ORIGIN) return null;
  const wrong = baseUrlProblem(value);
  if (wrong === null) return null;
  return {
    code: "CONFIG_BASE_URL",
    message: `"baseUrl" ${JSON.stringify(value)} cannot be used: ${wrong}.`,
    hint: `Write the site's public address (e.g. https://icons.example.org), "${FROM_ENV}" for the deploy's own URL, or "${REQUEST_ORIGIN}" for each request's origin (edge hosts).`,
  };
}

/** "default" or "all" beside other names: they stand for a whole set. */
function hostsMixed(value: unknown): ConfigProblem | null {
  if (!Array.isArray(value) || value.length < 2) return null;
  const set = value.find((v) => v === "default" || v === "all") as string | undefined;
  if (set === undefined) return null;
  return {
    code: "CONFIG_HOST",
    message: `"hosts" names ${JSON.stringify(set)} beside other hosts: it stands for a whole set and goes alone.`,
    hint: `Write ["${set}"], or list the hosts one by one.`,
  };
}

/** The config file's problems from ajv's errors (and the checks the schema cannot make), each at its place. */
export function configProblems(
  errors: readonly ErrorObject[],
  value: unknown,
  source: Source,
  keys: readonly string[],
): { place: ConfigPlace; problems: Diagnostic[] } {
  const place = placeOf(source);
  const problems: Diagnostic[] = [];
  const add = (problem: ConfigProblem | null, where: Location): void => {
    if (problem !== null) problems.push({ severity: "error", ...where, ...problem });
  };
  for (const e of errors) {
    const { key, index } = nameOf(e.instancePath);
    if (e.keyword === "additionalProperties") {
      add(
        describe(e, keys),
        place(String((e.params as { additionalProperty: string }).additionalProperty), { key: true }),
      );
    } else if (e.keyword === "uniqueItems") {
      // ajv names the two items i and j: the later one is the repeat.
      const { i, j } = e.params as { i: number; j: number };
      add(describe(e, keys), place(key, { index: Math.max(i, j) }));
    } else add(describe(e, keys), place(key, index === undefined ? {} : { index }));
  }
  const object = value instanceof Object && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  add(baseUrlWrong(object.baseUrl), place("baseUrl"));
  add(hostsMixed(object.hosts), place("hosts"));
  return { place, problems };
}
