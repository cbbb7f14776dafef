// src/diff/from-content.ts
// A content folder → SiteDescription: compiled as a build would (src/pipeline/compile.ts compile(), no host files), so that the
// diff sees the model the answers are made from.

import { readFile } from "node:fs/promises";
import { compile } from "../pipeline/compile.js";
import { ContentError, countNoun, UsageError } from "../errors.js";
import { toPlain } from "../model/json.js";
import { iconFile } from "./icon-file.js";
import type { IconFile, SiteDescription } from "./site.js";

export async function readContentSite(
  dir: string,
  options: { exclude?: readonly string[] } = {},
): Promise<SiteDescription> {
  let compiled;
  try {
    compiled = await compile({
      content: dir,
      hosts: [],
      ...(options.exclude === undefined ? {} : { exclude: options.exclude }),
    });
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    const errors = error.diagnostics.filter((d) => d.severity === "error").length;
    throw new UsageError(
      `${dir} is a content folder with ${countNoun(errors, "error")}: there is no site to compare.`,
      `Run \`build-index-site check --content ${dir}\` to see them.`,
    );
  }
  const { model, published } = compiled;
  const byPath = new Map(published.map((f) => [f.path, f]));
  const files = new Map<string, IconFile>();
  for (const name of model.iconDirFiles.keys()) {
    const raw = byPath.get(`icons/${name}`);
    if (raw === undefined) continue; // excluded from the site: no client sees it
    files.set(name, iconFile(raw.data ?? (await readFile(raw.absPath))));
  }
  return {
    source: dir,
    kind: "content",
    format: null,
    files,
    iconMap: model.iconMap.entries,
    indexing: model.extensionMap.indexing,
    viewing: model.extensionMap.viewing,
    config: toPlain(model.config.json),
    latestVersion: model.config.version,
    versions: model.versions,
  };
}
