// src/diff/site.ts
// What `diff` compares: a site as a client sees it, normalised from any of the three inputs (a content folder, a
// finished build, a deployed URL). Pure: the readers (src/diff/read-*.ts) fill it, src/diff/compare-sites.ts compares two.

import { asciiLower } from "../model/types.js";

export type SourceKind = "content" | "build" | "url";

/** One file of icons/ as a client can fetch it. */
export interface IconFile {
  size: number;
  /** sha1 of the bytes, base64url (as the build's site.manifest records it). */
  sha1: string;
  /** Pixels, when image-size can tell (null for an SVG without width/height, or bytes that are no image). */
  width: number | null;
  height: number | null;
}

export interface SiteDescription {
  /** The argument as given (a folder or a URL). */
  source: string;
  kind: SourceKind;
  /** A build's tool format ("layout 1, route table 1"); null for content and URLs. Two builds must agree. */
  format: string | null;
  /** Every file directly in icons/ by name (for a URL: the icons its `icons` action lists). */
  files: ReadonlyMap<string, IconFile>;
  /** icons.json: key as written → icon file name. */
  iconMap: ReadonlyMap<string, string>;
  /** extensionMap.json's two sections: extension as written → setting key. */
  indexing: ReadonlyMap<string, string>;
  viewing: ReadonlyMap<string, string>;
  /** config.json, as plain JSON. */
  config: unknown;
  /** The version versionCheck answers as latest (config.json's "version"). */
  latestVersion: string;
  /**
   * The client versions the site lists (manifest.json), or null when the input cannot tell (a URL whose site does not
   * publish its catalogue's site data: the API itself lists no versions).
   */
  versions: readonly string[] | null;
  /** Why `versions` is null, in a sentence. */
  versionsUnknown?: string;
  /**
   * versionCheck's answers as the site gave them (a URL, asked for every version either side lists); when absent, or
   * for a version not in it, the answer is computed as the PHP service does (version_compare with latestVersion).
   */
  versionAnswers?: ReadonlyMap<string, VersionAnswer>;
}

/** What versionCheck answers a client on one version. */
export interface VersionAnswer {
  updateNeeded: boolean;
  latest: string;
}

/** The icon a client gets for a lookup: the file it is served (null: findIcon answers 404), and what was mapped. */
export interface ResolvedIcon {
  icon: string | null;
  /** The file icons.json (or the default) names, when the site does not have it and serves another. */
  missing?: string;
}

/** The file findIcon falls back to when the mapped file is missing, and answers for unmapped extensions. */
export const DEFAULT_ICON = "text.png";
/** What type=folder answers when icons.json has no "folder" key. */
export const DEFAULT_FOLDER_ICON = "folder.png";

function served(site: SiteDescription, choice: string): ResolvedIcon {
  if (site.files.has(choice)) return { icon: choice };
  const icon = site.files.has(DEFAULT_ICON) ? DEFAULT_ICON : null;
  return { icon, missing: choice };
}

/** findIcon&type=file&extension=<name>: the extension is looked up lower-cased (ASCII), then the file must exist. */
export function fileIcon(site: SiteDescription, name: string | null): ResolvedIcon {
  const mapped = name === null ? undefined : lookup(site, asciiLower(name));
  return served(site, mapped ?? DEFAULT_ICON);
}

/** findIcon&type=folder. */
export const folderIcon = (site: SiteDescription): ResolvedIcon =>
  served(site, lookup(site, "folder") ?? DEFAULT_FOLDER_ICON);

const lookup = (site: SiteDescription, key: string): string | undefined => site.iconMap.get(key);
