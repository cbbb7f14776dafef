// src/content/validate.ts
// JSON Schema validation of the four content files (schemas/*.schema.json, compiled once with ajv, all errors) →
// Diagnostics with file, JSON Pointer and line:column.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import type { Diagnostic } from "../errors.js";
import { toPlain, type Json } from "../model/json.js";
import { pointerToken, type ParsedJson } from "./parse-json.js";
import type { JsonContentName } from "./read-content.js";
import { AJV_OPTIONS, PRECOMPILED_VALIDATORS, SCHEMA_FILES } from "./schema-options.js";

export { SCHEMA_FILES } from "./schema-options.js";

/** schemas/ sits two levels above this module both in src/content/ and in lib/content/. */
export const SCHEMAS_DIR = new URL("../../schemas/", import.meta.url);

export function loadSchema(name: JsonContentName): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(SCHEMA_FILES[name], SCHEMAS_DIR), "utf8")) as Record<string, unknown>;
}

type Validators = Record<JsonContentName, ValidateFunction>;
let loaded: Validators | undefined;

/** The four validators as compiled by ajv at run time (what the package build precompiles; tests compare the two). */
export function compileValidators(): Validators {
  const require = createRequire(import.meta.url);
  const { Ajv2020 } = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
  const ajv = new Ajv2020(AJV_OPTIONS);
  return {
    manifest: ajv.compile(loadSchema("manifest")),
    config: ajv.compile(loadSchema("config")),
    extensionMap: ajv.compile(loadSchema("extensionMap")),
    icons: ajv.compile(loadSchema("icons")),
  };
}

/** The validators the package build compiled (lib/content/), or null where there are none (the sources, in tests). */
export function precompiledValidators(): Validators | null {
  try {
    return createRequire(import.meta.url)(PRECOMPILED_VALIDATORS) as Validators;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "MODULE_NOT_FOUND") return null;
    throw error;
  }
}

/** The four validators: precompiled when the package has them, else compiled on first use; kept for the process. */
function validators(): Validators {
  return (loaded ??= precompiledValidators() ?? compileValidators());
}

/** How a value is named in a message: `the string "x"`, `an array`, `number 3`. */
export const typeName = (v: unknown): string =>
  v === undefined
    ? "nothing"
    : v === null
      ? "null"
      : Array.isArray(v)
        ? "an array"
        : typeof v === "object"
          ? "an object"
          : typeof v === "string"
            ? `the string ${JSON.stringify(v)}`
            : `${typeof v} ${JSON.stringify(v)}`;

const article = (t: string): string => (/^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`);
/** `"string"` → `a string`; `["integer", "null"]` → `a whole number or a null`. */
export const typeList = (t: string | string[]): string =>
  (Array.isArray(t) ? t : [t]).map((x) => article(x === "integer" ? "whole number" : x)).join(" or ");

interface Described {
  code: string;
  pointer: string;
  message: string;
  hint?: string;
}

/** What one ajv keyword's error says: code, pointer and a sentence that says what is wrong and what to do. */
type Describer = (name: JsonContentName, e: ErrorObject, at: string, p: Record<string, unknown>) => Described | null;

function describeRequired(
  name: JsonContentName,
  e: ErrorObject,
  at: string,
  p: Record<string, unknown>,
): Described | null {
  const key = String(p.missingProperty);
  const pointer = `${at}/${pointerToken(key)}`;
  if (name === "config" && pointer === "/version") {
    return {
      code: "CONFIG_VERSION",
      pointer,
      message: `"version" is missing: it is the latest configuration version that versionCheck compares against.`,
      hint: `Add "version": "<x.y.z>".`,
    };
  }
  return {
    code: "SCHEMA",
    pointer,
    message: `The required property "${key}" is missing.`,
    hint: `Add "${key}" to the object at ${at || "the top level"}.`,
  };
}

function describeUnknownKey(
  name: JsonContentName,
  e: ErrorObject,
  at: string,
  p: Record<string, unknown>,
): Described | null {
  const key = String(p.additionalProperty);
  const allowed = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {}).filter(
    (k) => k !== "$schema",
  );
  return {
    code: "SCHEMA",
    pointer: `${at}/${pointerToken(key)}`,
    message: `Unknown property "${key}".`,
    hint: `Remove it or fix its spelling; the allowed properties are ${allowed.map((k) => `"${k}"`).join(", ")}.`,
  };
}

function describeType(name: JsonContentName, e: ErrorObject, at: string, p: Record<string, unknown>): Described | null {
  if (name === "config" && at === "/version") {
    return {
      code: "CONFIG_VERSION",
      pointer: at,
      message: `"version" must be a string (got ${typeName(e.data)}).`,
      hint: `Write it in quotes, e.g. "1.2.0".`,
    };
  }
  return {
    code: "SCHEMA",
    pointer: at,
    message: `Must be ${typeList(p.type as string | string[])} (got ${typeName(e.data)}).`,
    hint: "Fix the value or remove the entry.",
  };
}

function describePattern(
  name: JsonContentName,
  e: ErrorObject,
  at: string,
  p: Record<string, unknown>,
): Described | null {
  if (name === "manifest" && at === "/base_url") {
    return {
      code: "BASE_URL",
      pointer: at,
      message: `base_url must be an https:// URL without a trailing slash, query or fragment (got ${JSON.stringify(e.data)}).`,
      hint: "For example https://api.example.org or https://example.org/indexer; the spec requires HTTPS.",
    };
  }
  const m = /^\/(indexing|viewing)\//.exec(at);
  if (name === "extensionMap" && m !== null) {
    const prefix = m[1] === "indexing" ? "index_" : "view_";
    return {
      code: "MAPPING_VALUE_FORM",
      pointer: at,
      message: `${m[1]} values must have the form ${prefix}<ext> (got ${JSON.stringify(e.data)}).`,
      hint: `Use the key of config.json's ${m[1] === "indexing" ? "exclusions" : "viewable_files"}, e.g. "${prefix}php".`,
    };
  }
  return { code: "SCHEMA", pointer: at, message: `${typeName(e.data)} does not match ${String(p.pattern)}.` };
}

function describeEmpty(
  name: JsonContentName,
  e: ErrorObject,
  at: string,
  _p: Record<string, unknown>,
): Described | null {
  if (e.propertyName !== undefined) {
    return {
      code: "KEY_EMPTY",
      pointer: `${at}/${pointerToken(e.propertyName)}`,
      message: "An empty key can never be looked up (an empty extension is answered with a 400).",
      hint: "Remove the entry.",
    };
  }
  if (name === "config" && at === "/version") {
    return {
      code: "CONFIG_VERSION",
      pointer: at,
      message: `"version" must not be empty.`,
      hint: `Set it to the configuration version, e.g. "1.2.0".`,
    };
  }
  return {
    code: "SCHEMA",
    pointer: at,
    message: "Must not be empty.",
    hint: "Fill in the value or remove the entry.",
  };
}

const DESCRIBERS: Readonly<Record<string, Describer>> = {
  required: describeRequired,
  additionalProperties: describeUnknownKey,
  type: describeType,
  pattern: describePattern,
  minLength: describeEmpty,
  propertyNames: () => null, // the error about the name itself says it
};

/** One ajv error → code, pointer and a sentence that says what is wrong and what to do. */
function describe(name: JsonContentName, e: ErrorObject): Described | null {
  const describer = DESCRIBERS[e.keyword];
  if (describer !== undefined) return describer(name, e, e.instancePath, e.params as Record<string, unknown>);
  return { code: "SCHEMA", pointer: e.instancePath, message: `${e.message ?? "is invalid"} (${e.keyword}).` };
}

/**
 * Validates one parsed content file against its schema. Every ajv error becomes one Diagnostic (errors only).
 * `skip` drops errors at some pointers (e.g. manifest base_url when --base-url overrides it). `changed` names the one
 * member that changed when all the others are known to have no problem: where the file's schema checks its members one
 * by one, that member alone is checked (what checking the whole would find).
 */
export function validateContent(
  name: JsonContentName,
  parsed: ParsedJson,
  skip: (pointer: string) => boolean = () => false,
  changed?: string,
): Diagnostic[] {
  const validate = validators()[name];
  const checked = checkedPart(name, parsed.value, changed);
  if (validate(toPlain(checked))) return [];
  const out: Diagnostic[] = [];
  for (const e of validate.errors ?? []) {
    const d = describe(name, e);
    if (d === null || skip(d.pointer)) continue;
    out.push({
      severity: "error",
      code: d.code,
      file: parsed.file,
      pointer: d.pointer,
      ...parsed.positionOf(d.pointer),
      message: d.message,
      ...(d.hint === undefined ? {} : { hint: d.hint }),
    });
  }
  return out;
}

/** The content files whose schema checks each member of the root object alone, whatever the others are (icons.json's:
 * test/content/patched-parse.test.ts holds its shape to that). */
const MEMBERWISE: ReadonlySet<JsonContentName> = new Set(["icons"]);

/** What validateContent checks of `value`: the member `changed` alone, in a root of its own, where the schema checks
 * members one by one; else the whole. */
function checkedPart(name: JsonContentName, value: Json, changed: string | undefined): Json {
  if (changed === undefined || !MEMBERWISE.has(name) || !(value instanceof Map) || !value.has(changed)) return value;
  return new Map([[changed, value.get(changed)!]]);
}
