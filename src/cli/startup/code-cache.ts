// src/cli/startup/code-cache.ts
// I/O: how bin/build-index-site.js loads the command's bundle (lib/cli-bundle/cli.cjs, scripts/build-cli.mjs): with
// V8's code cache, kept in the user's cache folder (env-paths: ~/.cache/build-index-site on Linux, ~/Library/Caches on
// macOS, %LOCALAPPDATA% on Windows), so that a start does not compile the bundle and each function a command runs
// again (docs/startup.md). Node 22's `module.enableCompileCache` does this for any module, but Node 20 has no cache for
// modules, only for scripts (vm.Script's `cachedData`): the bundle is CommonJS, run as a script here.
//
// The cache is made after the command has run, so that it holds every function the command compiled, and written
// again when a run compiled much more than the cache held (another command, or another way through a build), or when
// V8 rejected it (another Node, other V8 flags). It is only ever a cache: any failure to read or write it is silent,
// and NODE_DISABLE_COMPILE_CACHE=1 (Node's own switch for its compile cache) turns it off.

import { isAscii } from "node:buffer";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { getHeapCodeStatistics } from "node:v8";
import vm from "node:vm";
import envPaths from "env-paths";
import { fnv1a32 } from "../../model/fnv.js";
import { printTiming, TIMINGS } from "../../timings.js";
import { holdHeap } from "./heap-growth.js";

/** A run that compiled more than this share of the bytecode the cache gave it writes the cache again. */
const GREW = 0.5;

export interface LoadedBundle {
  main(argv: string[]): Promise<number>;
  /** Writes the code cache when this run should (see above); call once the command has run. */
  keepCompiled(): void;
}

/**
 * Applies the start flags and loads the bundle `file` (lib/cli-bundle/cli.cjs). BUILD_INDEX_SITE_TIMINGS=1 prints the
 * time it took and what the cache did (src/timings.ts): used, none (there was none), rejected (V8 refused it), or off.
 */
export function loadBundle(file: string, env: NodeJS.ProcessEnv = process.env): LoadedBundle {
  // The V8 flag every command starts with (src/cli/startup/heap-growth.ts): the code cache carries a hash of V8's
  // flags, so it is made under this one again below (a rebuild changes it mid-run).
  holdHeap();
  const started = performance.now();
  const bytes = readFileSync(file);
  // scripts/build-cli.mjs writes the bundle as ASCII: read so, it is a one-byte string made without decoding UTF-8.
  const source = isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8");
  const cacheFile = env.NODE_DISABLE_COMPILE_CACHE === "1" ? undefined : cachePath(file, env);
  let cachedData: Buffer | undefined;
  if (cacheFile !== undefined) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      // none yet
    }
  }
  // CommonJS's own wrapper, so that the bundle runs as `require` would run it.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    ...(cachedData === undefined ? {} : { cachedData }),
    // The bundle's one `import()` (a handler's text not made by this tool, src/layout/read-build.ts) resolves as the
    // main context's would (Node prints an ExperimentalWarning then; before Node 20.12 it fails).
    ...(vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER === undefined
      ? {}
      : { importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER }),
  });
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  const loaded = getHeapCodeStatistics().bytecode_and_metadata_size;
  const module = { exports: {} as { main(argv: string[]): Promise<number> } };
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  if (TIMINGS) {
    const use =
      cacheFile === undefined
        ? "off"
        : cachedData === undefined
          ? "none"
          : script.cachedDataRejected === true
            ? "rejected"
            : "used";
    printTiming(`load bundle (code cache ${use})`, performance.now() - started);
  }
  return {
    main: (argv) => module.exports.main(argv),
    keepCompiled(): void {
      if (cacheFile === undefined) return;
      const grew = getHeapCodeStatistics().bytecode_and_metadata_size - loaded;
      if (cachedData !== undefined && script.cachedDataRejected !== true && grew <= GREW * loaded) return;
      holdHeap();
      try {
        mkdirSync(path.dirname(cacheFile), { recursive: true, mode: 0o700 });
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        try {
          writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
          renameSync(tmp, cacheFile);
        } catch (error) {
          rmSync(tmp, { force: true });
          throw error;
        }
        removeOlder(cacheFile);
      } catch {
        // a cache folder that cannot be written: the next start compiles, as this one did
      }
    },
  };
}

/**
 * The cache file of this bundle under this Node and these flags, or none: named by the bundle's path; by what it is, since V8
 * itself checks no more of the source than its length: the package's fingerprint (lib/tool-fingerprint.txt, the hash
 * of lib/ that the package build writes: two releases differ in it, though npm gives every file of every release the
 * same time) with the bundle's size and time (a bundle built again without the fingerprint); by Node's version and
 * platform; and by the flags given to Node, which V8's check covers too (`dev` runs in a child with one more flag,
 * src/cli/startup/dev-child.ts: each keeps its own cache instead of rejecting the other's).
 */
function cachePath(file: string, env: NodeJS.ProcessEnv): string | undefined {
  try {
    const st = statSync(file);
    let fingerprint = "";
    try {
      fingerprint = readFileSync(path.join(path.dirname(file), "..", "tool-fingerprint.txt"), "utf8");
    } catch {
      // a bundle built without it: its size and time name it
    }
    const identity = hash(`${fingerprint.trim()} ${st.size} ${st.mtimeMs}`);
    const flags = [...process.execArgv, env.NODE_OPTIONS ?? ""].join(" ");
    const name = `${hash(file)}-${identity}-${process.version}-${process.platform}-${process.arch}-${hash(flags)}.cache`;
    const dir = envPaths("build-index-site", { suffix: "" }).cache;
    // A relative XDG_CACHE_HOME is to be ignored (the XDG spec): it would put the cache in the folder the command runs in.
    return path.isAbsolute(dir) ? path.join(dir, "compile", name) : undefined;
  } catch {
    return undefined;
  }
}

/** A cache not written for this long is removed when another is written (the copy it served may be gone: an npx run's,
 * a deleted clone's). One still in use is made again by its next start. */
const STALE_MS = 30 * 24 * 60 * 60 * 1000;

/** Removes the caches of earlier bundles at the same path (a rebuilt or reinstalled tool), and any not written for
 * STALE_MS; never another file. */
function removeOlder(cacheFile: string): void {
  const dir = path.dirname(cacheFile);
  const [own, identity] = path.basename(cacheFile).split("-");
  for (const other of readdirSync(dir)) {
    if (!other.endsWith(".cache") || other === path.basename(cacheFile)) continue;
    const [path_, identity_] = other.split("-");
    try {
      if ((path_ === own && identity_ !== identity) || statSync(path.join(dir, other)).mtimeMs < Date.now() - STALE_MS)
        unlinkSync(path.join(dir, other));
    } catch {
      // gone already
    }
  }
}

/** A short name for a path or a list of flags, in hex (node:crypto would cost the start its load). */
const hash = (text: string): string => fnv1a32(text).toString(16).padStart(8, "0");

/** The bundle beside this module's folder, as bin/build-index-site.js finds it. */
export const BUNDLE = fileURLToPath(new URL("../../cli-bundle/cli.cjs", import.meta.url));
