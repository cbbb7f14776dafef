// src/init/project.ts
// `build-index-site init`: sets up a folder as a project that builds and deploys. Creates what is missing and never
// overwrites: the content folder, the config file, netlify.toml; adds (only adds) scripts and the devDependency to
// package.json and the output folders to .gitignore. Everything is planned (and package.json parsed) before the first
// write, so a refusal changes nothing; running it twice changes nothing.

import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { BuildError, UsageError } from "../errors.js";
import { CONFIG_FILE, CONFIG_NAME } from "../config-names.js";
import { appendLines, missingLines } from "./gitignore.js";
import { mergePackageJson } from "./package-json.js";
import { configFile, GITIGNORE_LINES, NETLIFY_COMMAND, netlifyToml, starterContent } from "./templates.js";

export interface InitResult {
  /** The content folder, as given (or the default). */
  dir: string;
  /** The content files written, relative to `dir` (none when the folder was there). */
  files: string[];
  /** What was created or added, one line each (for the user). */
  added: string[];
  /** What was there and left as it is, one line each. */
  kept: string[];
  warnings: string[];
  /** The tool's spec in package.json, and whether it was there before. */
  dependency: { spec: string; kept: boolean };
}

type Write = { file: string; data: string | Buffer; flag: "wx" | "w" };

function readText(file: string, root: string): string | null {
  try {
    return existsSync(file) ? readFileSync(file, "utf8") : null;
  } catch (error) {
    throw osError(error, file, root, "read");
  }
}

/** Is `dir` missing or an empty folder? (A file there is refused: init writes a folder.) */
function emptyOrMissing(dir: string, shown: string): boolean {
  const stats = lstatSync(dir, { throwIfNoEntry: false });
  if (stats === undefined) return true;
  if (!stats.isDirectory()) {
    throw new UsageError(
      `${shown} exists and is not a folder: init writes the content folder there.`,
      "Name another folder: build-index-site init <dir>.",
    );
  }
  return readdirSync(dir).length === 0;
}

/** A config of this project already: build-index-site.config.json, or package.json's "build-index-site" key. */
function hasConfig(cwd: string, pkgText: string | null): string | null {
  if (existsSync(path.join(cwd, CONFIG_FILE))) return CONFIG_FILE;
  try {
    return pkgText !== null && (JSON.parse(pkgText) as Record<string, unknown>)[CONFIG_NAME] !== undefined
      ? `package.json "${CONFIG_NAME}"`
      : null;
  } catch {
    return null; // mergePackageJson reports it
  }
}

export async function initProject(dir: string, cwd: string = process.cwd()): Promise<InitResult> {
  const root = path.resolve(cwd);
  if (!lstatSync(root, { throwIfNoEntry: false })?.isDirectory()) {
    throw new UsageError(`--cwd ${cwd} is not a folder.`, "Create it first, or name the project's folder.");
  }
  const plan: Plan = { writes: [], added: [], kept: [] };
  const { writes, added, kept } = plan;

  const target = path.resolve(root, dir);
  const files = planContent(plan, root, target, dir);

  const pkgFile = path.join(root, "package.json");
  const pkgText = readText(pkgFile, root);
  const existingConfig = hasConfig(root, pkgText);
  const contentInConfig = path.relative(root, target).split(path.sep).join("/") || ".";
  if (existingConfig === null) {
    writes.push({ file: path.join(root, CONFIG_FILE), data: configFile(contentInConfig), flag: "wx" });
    added.push(`${CONFIG_FILE} (content: ${contentInConfig}, out: dist)`);
  } else kept.push(existingConfig);

  const merge = mergePackageJson(pkgText, root);
  if (merge.text !== null) {
    writes.push({ file: pkgFile, data: merge.text, flag: pkgText === null ? "wx" : "w" });
    added.push(
      pkgText === null ? `package.json (${merge.added.join("; ")})` : `package.json: ${merge.added.join("; ")}`,
    );
  }
  kept.push(...merge.kept);

  planGitignore(plan, root);

  const netlifyFile = path.join(root, "netlify.toml");
  if (existsSync(netlifyFile)) kept.push("netlify.toml");
  else {
    // With the config file of another project setup, the content folder is named on the command line.
    const command =
      existingConfig === null || dir === "content"
        ? NETLIFY_COMMAND
        : `${NETLIFY_COMMAND} --content ${shellWord(contentInConfig)}`;
    writes.push({ file: netlifyFile, data: netlifyToml(command), flag: "wx" });
    added.push(`netlify.toml (Netlify runs \`${command}\` and publishes Netlify's copy of dist/)`);
  }

  await writeAll(writes, root);
  return {
    dir,
    files,
    added,
    kept,
    warnings: merge.warnings,
    dependency: { spec: merge.dependency.spec, kept: merge.dependency.kept },
  };
}

/** What init writes, and what it says it added and left as it was. */
interface Plan {
  writes: Write[];
  added: string[];
  kept: string[];
}

/** The starter content in `target`, unless that folder holds something; returns the files it writes there. */
function planContent(plan: Plan, root: string, target: string, dir: string): string[] {
  const shownDir = dir.replace(/[\\/]+$/, "") || dir;
  const files: string[] = [];
  if (emptyOrMissing(target, shownDir)) {
    const schemas = path
      .relative(target, path.join(root, "node_modules/build-index-site/schemas"))
      .split(path.sep)
      .join("/");
    for (const [rel, data] of starterContent(schemas)) {
      plan.writes.push({ file: path.join(target, rel), data, flag: "wx" });
      files.push(rel);
    }
    plan.added.push(`${shownDir}/ (${files.length} files: ${files.join(", ")})`);
  } else plan.kept.push(`${shownDir}/ (not empty)`);
  return files;
}

/** The lines .gitignore lacks, appended (the file made when there is none). */
function planGitignore(plan: Plan, root: string): void {
  const ignoreFile = path.join(root, ".gitignore");
  const ignoreText = readText(ignoreFile, root);
  const missing = missingLines(ignoreText ?? "", GITIGNORE_LINES);
  if (missing.length > 0) {
    plan.writes.push({
      file: ignoreFile,
      data: appendLines(ignoreText ?? "", missing),
      flag: ignoreText === null ? "wx" : "w",
    });
    plan.added.push(`.gitignore${ignoreText === null ? "" : ":"} ${missing.join(" ")}`);
  } else plan.kept.push(".gitignore (ignores the outputs already)");
}

async function writeAll(writes: readonly Write[], root: string): Promise<void> {
  for (const w of writes) {
    try {
      await mkdir(path.dirname(w.file), { recursive: true });
      await writeFile(w.file, w.data, { flag: w.flag });
    } catch (error) {
      throw osError(error, w.file, root);
    }
  }
}

const shellWord = (word: string): string => (/^[\w./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`);

/** A file init could not write: one line naming it and what to do (init has no --out to point elsewhere). */
function osError(error: unknown, file: string, root: string, verb = "write"): unknown {
  const e = error as NodeJS.ErrnoException;
  if (typeof e.code !== "string") return error;
  const shown = path.relative(process.cwd(), file) || file;
  const hint =
    e.code === "EEXIST"
      ? "Another program created it while init ran: run init again (it leaves existing files alone)."
      : e.code === "EISDIR"
        ? `${shown} is a folder: move it away, or run init in another folder (--cwd <dir>).`
        : `Make ${path.relative(process.cwd(), root) || "."} writable for this user, or run init in another folder (--cwd <dir>).`;
  return new BuildError(e.code, `Cannot ${verb} ${shown}: ${e.message.replace(/^[A-Z]+: /, "").replace(/,.*$/, "")}.`, {
    hint,
    cause: error,
  });
}
