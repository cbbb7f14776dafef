// src/cli/init.ts
// `build-index-site init [dir]`: set up the current folder (or --cwd) as a project that builds and deploys; prints
// what it added, what it left alone and what to run next.

import { Command } from "commander";
import { existsSync } from "node:fs";
import { resolveOptions } from "./options.js";
import { colorErr, colorOut, type Io } from "./output.js";

/**
 * Without [dir]: the content folder of a config file that is there already, else "content". A config file or
 * package.json that cannot be read is left to initProject, which names the problem (or leaves the file alone).
 */
function configuredContent(cwd: string): string {
  try {
    return existsSync(cwd) ? resolveOptions({}, cwd).content : "content";
  } catch {
    return "content";
  }
}

export function initCommand(io: Io): Command {
  return new Command("init")
    .description(
      "Set up this folder: a content folder, a config file, package.json scripts and dependency, .gitignore " +
        "lines and a netlify.toml; creates what is missing, never overwrites.",
    )
    .argument(
      "[dir]",
      "content folder to create (left alone when it is there and not empty; default: the config file's content, or content)",
    )
    .option("--cwd <dir>", "project folder to set up (default: the current folder)")
    .action(async (dir: string | undefined, flags: { cwd?: string }) => {
      const cwd = flags.cwd ?? process.cwd();
      const { initProject } = await import("../init/project.js");
      const content = dir ?? configuredContent(cwd);
      const result = await initProject(content, cwd);
      if (result.added.length > 0) {
        io.out(`${colorOut(io, "green", "Added")}:`);
        for (const line of result.added) io.out(`  ${line}`);
      }
      if (result.kept.length > 0) {
        io.out(result.added.length > 0 ? "Left alone (already there):" : "Nothing to add; left alone (already there):");
        for (const line of result.kept) io.out(`  ${line}`);
      }
      io.out(
        result.dependency.kept
          ? `build-index-site comes from package.json's own spec: ${result.dependency.spec}.`
          : `build-index-site comes from ${result.dependency.spec} (the git repository: the package is not on the npm registry yet).`,
      );
      for (const warning of result.warnings) io.err(`${colorErr(io, "yellow", "warning")}: ${warning}`);
      const steps: Array<[string, string]> = [
        ["npm install", "install build-index-site (and build it)"],
        [
          "npx build-index-site --strict",
          `validate the content and build dist/, once base_url in ${content}/manifest.json is the site's address`,
        ],
        [
          "npx build-index-site preview",
          "serve dist/ on http://127.0.0.1:8080 (or: npx build-index-site dev, which also rebuilds on change)",
        ],
      ];
      const width = Math.max(...steps.map(([command]) => command.length)) + 2;
      io.out("Next:");
      for (const [command, what] of steps) io.out(`  ${command.padEnd(width)}# ${what}`);
    });
}
