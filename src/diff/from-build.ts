// src/diff/from-build.ts
// A finished build → SiteDescription, read through src/layout/read-build.ts only: the content's files the build
// published byte for byte (icons.json, extensionMap.json, config.json, icons/), the hashes its manifest recorded, and
// the versions its route table precomputes. No answer file is read: edge-only builds need not write them.

import { CONTENT_FILES, iconDirName } from "../content/read-content.js";
import { UsageError } from "../errors.js";
import { readBuild, type Build } from "../layout/read-build.js";
import { ROUTE_TABLE_VERSION } from "../routes/route-table.js";
import { iconFile } from "./icon-file.js";
import type { IconFile, SiteDescription } from "./site.js";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A JSON object of strings (icons.json, an extensionMap.json section) as a map; non-string values are left out. */
function strings(value: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (isObject(value)) for (const [k, v] of Object.entries(value)) if (typeof v === "string") out.set(k, v);
  return out;
}

export async function readBuildSite(dir: string): Promise<SiteDescription> {
  const build = await readBuild(dir);
  const table = await build.table();
  if (table.version !== ROUTE_TABLE_VERSION) {
    throw new UsageError(
      `${dir} was built by another version of build-index-site (route table version ${String(table.version)}; this one reads ${ROUTE_TABLE_VERSION}).`,
      "Build both sides with the same version of build-index-site.",
    );
  }
  const json = async (name: string): Promise<unknown> => {
    const bytes = await build.published(name);
    if (bytes === null)
      throw new UsageError(`${dir} is a build without ${name}: it cannot be compared.`, "Build it again.");
    try {
      return JSON.parse(bytes.toString("utf8").replace(/^\uFEFF/, "")) as unknown;
    } catch {
      throw new UsageError(
        `${dir}/${name} is not JSON: the build was changed after it was written.`,
        "Build it again.",
      );
    }
  };
  const [icons, extensionMap, config] = await Promise.all([
    json(CONTENT_FILES.icons),
    json(CONTENT_FILES.extensionMap),
    json(CONTENT_FILES.config),
  ]);
  const version = isObject(config) && typeof config.version === "string" ? config.version : "";
  return {
    source: dir,
    kind: "build",
    format: `layout ${build.stamp.format}, route table ${table.version}`,
    files: await iconFiles(build),
    iconMap: strings(icons),
    indexing: strings(isObject(extensionMap) ? extensionMap.indexing : undefined),
    viewing: strings(isObject(extensionMap) ? extensionMap.viewing : undefined),
    config,
    latestVersion: version,
    versions: await build.versions(),
  };
}

/** The files directly in icons/, by the build's manifest (size and sha1), with dimensions read from the bytes. */
async function iconFiles(build: Build): Promise<Map<string, IconFile>> {
  const files = new Map<string, IconFile>();
  for (const [sitePath, record] of await build.siteFiles()) {
    const name = iconDirName(sitePath);
    if (name === null) continue;
    const bytes = await build.published(sitePath);
    if (bytes === null) continue;
    files.set(name, { ...iconFile(bytes, record.sha1), size: record.size });
  }
  return files;
}
