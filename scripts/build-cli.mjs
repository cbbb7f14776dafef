// scripts/build-cli.mjs
// `npm run build:cli`: the command as one bundle (lib/cli-bundle/cli.cjs), what bin/build-index-site.js runs. esbuild
// bundles src/cli.ts with its dependencies into one file; the modules a command loads only when it needs them (the
// build pipeline, the preview, verify, diff) are still evaluated only on first use (esbuild's lazy module wrappers).
// Node then reads one file at start instead of each compiled module and dependency: resolving, linking and evaluating
// a module costs more than the bytes V8 skims past (docs/startup.md).
//
// The bundle is CommonJS: V8's code cache serves scripts on Node 20, not modules (src/cli/startup/code-cache.ts), and
// a lazily evaluated module's require() of Node's built-in modules is lazy too (an ES module's imports all load at its
// start: readline, zlib, http, stream and crypto for every `--version`). `import.meta.url` is the bundle's own URL.
//
// The bundle holds copies of the dependencies' code, so it ships their licences: THIRD-PARTY-NOTICES.txt beside it
// names every package bundled, with its version, licence and licence text.
// The library (lib/index.js) is not bundled: it imports the dependencies from node_modules as usual.

import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outdir = path.join(root, "lib/cli-bundle");

/** commander requires node:child_process (and with it net, dgram, tty) at its start, for subcommands run as separate
 * executables, which this tool has none of: required on first use instead, so that no command's start loads it. */
const CHILD_PROCESS = "const childProcess = require('node:child_process');";
const lazyChildProcess = {
  name: "lazy-child-process",
  setup(b) {
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      if (!text.includes(CHILD_PROCESS)) throw new Error(`build:cli: ${args.path} no longer says ${CHILD_PROCESS}`);
      const lazy = "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };";
      return { contents: text.replace(CHILD_PROCESS, lazy), loader: "js" };
    });
  },
};

const common = {
  bundle: true,
  splitting: false,
  format: "cjs",
  platform: "node",
  target: "node20",
  // jsonc-parser's "main" is a UMD build that requires its own files at run time; its "module" is plain ESM.
  mainFields: ["module", "main"],
  define: { "import.meta.url": "__bisImportMetaUrl" },
  banner: { js: "const __bisImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  legalComments: "inline",
  metafile: true,
  logLevel: "warning",
};
const result = await build({
  ...common,
  entryPoints: [path.join(root, "src/cli.ts")],
  outfile: path.join(outdir, "cli.cjs"),
  plugins: [lazyChildProcess],
});
// The bin's loader (the dev child's start, the bundle's code cache) as one file too, where its modules are: one
// require instead of an ES module graph to resolve and link before the bundle loads.
const start = await build({
  ...common,
  entryPoints: [path.join(root, "src/cli/startup/start.ts")],
  outfile: path.join(root, "lib/cli/startup/start.cjs"),
});

// Both as ASCII, which the loader reads without decoding UTF-8 (src/cli/startup/code-cache.ts): esbuild writes the
// code so, but leaves comments as they are; each other character is written as its \u escape, the same character in a
// string, a template or a regex, and mere text in a comment.
for (const made of [path.join(outdir, "cli.cjs"), path.join(root, "lib/cli/startup/start.cjs")]) {
  const text = readFileSync(made, "utf8");
  const ascii = text.replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  if (ascii !== text) writeFileSync(made, ascii);
}

// Every package whose code is in the bundle or the loader: the folder under node_modules of each input file.
const packages = new Map();
for (const input of [...Object.keys(result.metafile.inputs), ...Object.keys(start.metafile.inputs)]) {
  const parts = input.split("/");
  const at = parts.lastIndexOf("node_modules");
  if (at < 0) continue;
  const name = parts[at + 1].startsWith("@") ? `${parts[at + 1]}/${parts[at + 2]}` : parts[at + 1];
  const dir = path.join(root, ...parts.slice(0, at + 1), ...name.split("/"));
  packages.set(dir, name);
}
const notices = [...packages]
  .sort(([, a], [, b]) => (a < b ? -1 : a > b ? 1 : 0))
  .map(([dir, name]) => {
    const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    const licenceFile = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(f));
    if (licenceFile === undefined)
      throw new Error(`build:cli: ${name} ships no LICENSE file to copy into the notices.`);
    const text = readFileSync(path.join(dir, licenceFile), "utf8").trim();
    return `${name}@${pkg.version} (${typeof pkg.license === "string" ? pkg.license : JSON.stringify(pkg.license)})\n\n${text}\n`;
  });
const header =
  "The command's bundle (lib/cli-bundle/) and its loader (lib/cli/startup/start.cjs) hold code of these packages, " +
  "under their licences:\n";
writeFileSync(path.join(outdir, "THIRD-PARTY-NOTICES.txt"), `${header}\n${notices.join(`\n${"-".repeat(80)}\n\n`)}`);
for (const made of [path.join(outdir, "cli.cjs"), path.join(root, "lib/cli/startup/start.cjs")])
  if (!existsSync(made)) throw new Error(`build:cli: esbuild wrote no ${path.relative(root, made)}`);
