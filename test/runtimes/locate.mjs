// test/runtimes/locate.mjs
// Where the test tools (vitest, prettier, oxlint, the test-only parsers, serve) and runtimes (wrangler and its workerd,
// deno, edge-runtime, playwright-core, autocannon) are installed: test/runtimes is a package of its own, not a
// workspace, so that installing the tool (its `prepare` included) never fetches them. scripts/test-runtimes.mjs
// installs it into .install/<hash of its lockfile> and links test/node_modules to that install's node_modules, so that
// test files import vitest or yaml by Node's own rules; scripts and benches find every runtime through this module.

import { createHash } from "node:crypto";
import { existsSync, readFileSync, readlinkSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** test/runtimes: its package.json and package-lock.json name the runtimes (BIS_TEST_RUNTIMES_PACKAGE: another
 * package, for the installer's own test). */
export const RUNTIMES_PACKAGE = process.env.BIS_TEST_RUNTIMES_PACKAGE || path.dirname(fileURLToPath(import.meta.url));

/** The installs, one folder per lockfile (a changed lockfile installs anew beside the old one). */
export const INSTALLS = path.join(RUNTIMES_PACKAGE, ".install");

/** test/node_modules: a link to the current install's node_modules (beside the package: test/). */
export const TEST_MODULES = path.join(path.dirname(RUNTIMES_PACKAGE), "node_modules");

/** The marker written last into a finished install. */
export const COMPLETE = ".complete";

/** The lockfile's hash (with the platform, as the native packages differ): the name of its install folder. */
export function lockHash() {
  const hash = createHash("sha256");
  hash.update(readFileSync(path.join(RUNTIMES_PACKAGE, "package.json")));
  hash.update(readFileSync(path.join(RUNTIMES_PACKAGE, "package-lock.json")));
  hash.update(`${process.platform}-${process.arch}`);
  return hash.digest("hex").slice(0, 16);
}

/** The install folder of the current lockfile (it holds node_modules), whether installed or not. */
export const installDir = () => path.join(INSTALLS, lockHash());

/** The current lockfile's runtimes are installed (the install finished). */
export const runtimesInstalled = () => existsSync(path.join(installDir(), COMPLETE));

/** The current install is finished and test/node_modules points at it. */
export function toolsReady() {
  if (!runtimesInstalled()) return false;
  try {
    return (
      path.resolve(path.dirname(TEST_MODULES), readlinkSync(TEST_MODULES)) === path.join(installDir(), "node_modules")
    );
  } catch {
    return false;
  }
}

const requireHere = () => createRequire(path.join(installDir(), "package.json"));

/** The path of a runtime's file, resolved from the install (`wrangler/package.json`), or null when it is missing. */
export function resolveRuntime(specifier) {
  try {
    return requireHere().resolve(specifier);
  } catch {
    return null;
  }
}

/** A tool's or runtime's executable in node_modules/.bin (vitest, wrangler), or null when it is missing. */
export function runtimeBin(name) {
  const bin = path.join(installDir(), "node_modules", ".bin", name);
  return existsSync(bin) ? bin : null;
}

/** Loads a runtime package with require (each has a CommonJS entry), or throws saying how to install it. */
export function requireRuntime(name) {
  if (resolveRuntime(name) === null) {
    throw new Error(`${name} is not installed: run \`node scripts/test-runtimes.mjs\` (npm test does).`);
  }
  return requireHere()(name);
}

/** The Deno binary that npm's `deno` package installed (its bin script only finds and runs it), or null. */
export function denoBinary() {
  const pkg = `@deno/${process.platform}-${process.arch}${process.platform === "linux" ? "-glibc" : ""}/package.json`;
  const found = resolveRuntime(pkg);
  if (found === null) return null;
  const binary = path.join(path.dirname(found), process.platform === "win32" ? "deno.exe" : "deno");
  return existsSync(binary) ? binary : null;
}
