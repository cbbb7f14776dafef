// src/diff/from-argument.ts
// One argument of `diff` → SiteDescription: an http(s) URL, a finished build (its records are beside it), or a
// content folder (it has manifest.json). Anything else is a UsageError: one line, exit 2.

import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { CONTENT_FILES } from "../content/read-content.js";
import { UsageError } from "../errors.js";
import { isBuild } from "../layout/build-status.js";
import { layoutOf } from "../layout/paths.js";
import { readBuildSite } from "./from-build.js";
import { readContentSite } from "./from-content.js";
import { askVersionChecks, readUrlSite, type UrlOptions } from "./from-url.js";
import { clientVersions } from "./compare-sites.js";
import type { SiteDescription } from "./site.js";

export const looksLikeUrl = (arg: string): boolean => /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(arg);

export async function readSite(
  arg: string,
  options: UrlOptions & { exclude?: readonly string[] } = {},
): Promise<SiteDescription> {
  if (looksLikeUrl(arg)) return readUrlSite(arg, options);
  const stat = statSync(arg, { throwIfNoEntry: false });
  if (stat === undefined)
    throw new UsageError(
      `${arg} does not exist.`,
      "Give a built site's folder, a content folder, or an http(s):// URL.",
    );
  if (!stat.isDirectory())
    throw new UsageError(
      `${arg} is a file, not a folder.`,
      "Give a built site's folder, a content folder, or an http(s):// URL.",
    );
  // A build, or a folder with records of a build (readBuild names their format when it cannot read them).
  if (isBuild(arg) || existsSync(layoutOf(arg).stamp) || existsSync(path.join(arg, "routes.json")))
    return readBuildSite(arg);
  if (existsSync(path.join(arg, CONTENT_FILES.manifest))) return readContentSite(arg, options);
  throw new UsageError(
    `${arg} is neither a build of build-index-site nor a content folder (it has no ${CONTENT_FILES.manifest}).`,
    "Give a built site's folder (e.g. dist), a content folder, or an http(s):// URL.",
  );
}

/** Both sides; two builds must be of one tool format. */
export async function readBoth(
  oldArg: string,
  newArg: string,
  options: UrlOptions & { exclude?: readonly string[] } = {},
): Promise<[SiteDescription, SiteDescription]> {
  const [a, b] = await Promise.all([readSite(oldArg, options), readSite(newArg, options)]);
  if (a.format !== null && b.format !== null && a.format !== b.format) {
    throw new UsageError(
      `${oldArg} and ${newArg} are builds of different formats of build-index-site (${a.format}; ${b.format}).`,
      "Build both with the same version, or compare their content folders.",
    );
  }
  // A URL is asked what it answers each client version either side knows.
  const versions = clientVersions(a, b);
  const asked = async (site: SiteDescription): Promise<SiteDescription> =>
    site.kind === "url" ? { ...site, versionAnswers: await askVersionChecks(site.source, versions, options) } : site;
  return [await asked(a), await asked(b)];
}
