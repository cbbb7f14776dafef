// src/content/schema-options.ts
// The content schemas and the ajv options they are compiled with: shared by the validator (src/content/validate.ts)
// and by the package build, which compiles them ahead of time (scripts/build-validators.mjs).

import type { JsonContentName } from "./read-content.js";

/** Schema file (in the package's schemas/ folder) of each content file. */
export const SCHEMA_FILES: Record<JsonContentName, string> = {
  manifest: "manifest.schema.json",
  config: "config.schema.json",
  extensionMap: "extension-map.schema.json",
  icons: "icons.schema.json",
};

/** Every error (not only the first), with the data and schema of each: the diagnostics quote them. */
export const AJV_OPTIONS = { allErrors: true, verbose: true, strict: true, allowUnionTypes: true } as const;

/** The precompiled validators' module in lib/content/, made by the package build. The path holds from any module two
 * folders below the package (lib/content/validate.js, and the command's bundle in lib/cli-bundle/). */
export const PRECOMPILED_VALIDATORS = "../content/validators.generated.cjs";
