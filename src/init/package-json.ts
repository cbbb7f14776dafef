// src/init/package-json.ts
// What `init` adds to package.json: the scripts and the tool as a devDependency. Only adds keys, never changes or
// removes one; keeps the file's indentation.

import path from "node:path";
import { UsageError } from "../errors.js";

export const PACKAGE = "build-index-site";
/** What a user can install today: the package is not on the npm registry yet (README, "Use it in your project"). */
export const INSTALL_SPEC = "github:build-index-site/build-index-site";

export const SCRIPTS: Readonly<Record<string, string>> = {
  build: "build-index-site",
  dev: "build-index-site dev",
  preview: "build-index-site preview",
  check: "build-index-site check",
};

const DEPENDENCY_FIELDS = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"] as const;

export interface PackageMerge {
  /** The new text, or null when nothing is added. */
  text: string | null;
  added: string[];
  kept: string[];
  /** The tool's spec and where it came from. */
  dependency: { spec: string; kept: boolean; field: string };
  warnings: string[];
}

type Pkg = Record<string, unknown>;

/** A name npm accepts, from the folder's name. */
export function packageName(folder: string): string {
  const name = path
    .basename(folder)
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, "-")
    .replace(/^[._-]+|-+$/g, "");
  return name === "" ? "site" : name.slice(0, 214);
}

/**
 * A spec npm resolves from the local disk outside `cwd` (a folder or tarball beside the project): Netlify's build
 * clones only the repository and cannot reach it.
 */
export function unreachablePath(spec: string, cwd: string): boolean {
  const local = localPath(spec);
  if (local === null) return false;
  if (local.startsWith("~")) return true;
  const target = path.resolve(cwd, local);
  return target !== cwd && !target.startsWith(cwd + path.sep);
}

/** The path of a spec npm installs from the disk (`file:…`, `./…`, `../…`, `/…`, `~/…`, `x.tgz`), else null. */
function localPath(spec: string): string | null {
  if (spec.startsWith("file:")) return spec.slice("file:".length);
  if (/^(\.{1,2}|~)?[\\/]/.test(spec) || /^[A-Za-z]:[\\/]/.test(spec)) return spec;
  return /^[^:]+\.(tgz|tar\.gz)$/.test(spec) ? spec : null;
}

/** package.json's text after adding what is missing (`text`: the file, or null when there is none). */
export function mergePackageJson(text: string | null, cwd: string): PackageMerge {
  let pkg: Pkg;
  if (text === null) pkg = {};
  else {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
      pkg = parsed as Pkg;
    } catch (error) {
      throw new UsageError(
        `package.json is not a JSON object (${(error as Error).message}): init adds to it, so nothing was changed.`,
        "Fix package.json, then run init again.",
      );
    }
  }
  const added: string[] = [];
  const kept: string[] = [];
  const warnings: string[] = [];
  if (text === null) {
    pkg.name = packageName(cwd);
    pkg.private = true;
  }
  const scripts = objectField(pkg, "scripts");
  const addedScripts: string[] = [];
  for (const [name, command] of Object.entries(SCRIPTS)) {
    if (scripts[name] === undefined) {
      scripts[name] = command;
      addedScripts.push(name);
    } else if (scripts[name] !== command) kept.push(`package.json scripts.${name} ("${String(scripts[name])}")`);
  }
  if (addedScripts.length > 0) added.push(`scripts ${addedScripts.join(", ")}`);

  let dependency: PackageMerge["dependency"];
  const listed = DEPENDENCY_FIELDS.find((field) => typeof (pkg[field] as Pkg | undefined)?.[PACKAGE] === "string");
  if (listed !== undefined) {
    const spec = (pkg[listed] as Pkg)[PACKAGE] as string;
    dependency = { spec, kept: true, field: listed };
    kept.push(`package.json ${listed}.${PACKAGE} ("${spec}")`);
    if (unreachablePath(spec, cwd)) {
      warnings.push(
        `package.json's spec of ${PACKAGE}, "${spec}", is a path outside this folder: Netlify's build clones only the repository and cannot install it. ` +
          `Put the tarball inside the repository (e.g. "file:vendor/${PACKAGE}-<version>.tgz") or use "${INSTALL_SPEC}".`,
      );
    }
  } else {
    objectField(pkg, "devDependencies")[PACKAGE] = INSTALL_SPEC;
    dependency = { spec: INSTALL_SPEC, kept: false, field: "devDependencies" };
    added.push(`devDependencies.${PACKAGE} "${INSTALL_SPEC}"`);
  }
  const changed = text === null || added.length > 0;
  return { text: changed ? `${JSON.stringify(pkg, null, indentOf(text))}\n` : null, added, kept, dependency, warnings };
}

function objectField(pkg: Pkg, key: string): Pkg {
  const value = pkg[key];
  if (value !== undefined && (value === null || typeof value !== "object" || Array.isArray(value))) {
    throw new UsageError(
      `package.json's "${key}" is not an object: init adds to it, so nothing was changed.`,
      `Make "${key}" an object, then run init again.`,
    );
  }
  return (pkg[key] ??= {}) as Pkg;
}

/** The indentation of a JSON text (two spaces when there is none to copy). */
function indentOf(text: string | null): string | number {
  const match = text === null ? null : /^[{[]\r?\n([ \t]+)\S/.exec(text);
  return match?.[1] ?? 2;
}
