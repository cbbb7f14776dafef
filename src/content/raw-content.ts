// src/content/raw-content.ts
// The content folder's contract (the names a build reads and publishes) and what reading a folder gives: RawContent.

import type { Diagnostic } from "../errors.js";
import type { FileFacts } from "./file-facts.js";

/** The content directory contract: these names are relied on by tests and tools outside the project. */
export const CONTENT_FILES = {
  manifest: "manifest.json",
  config: "config.json",
  extensionMap: "extensionMap.json",
  icons: "icons.json",
  configReference: "config-reference.txt",
} as const;
export type JsonContentName = "manifest" | "config" | "extensionMap" | "icons";
export const JSON_CONTENT: readonly JsonContentName[] = ["manifest", "config", "extensionMap", "icons"];

/** Files published byte for byte besides the three JSON files: folders copied whole. */
export const PUBLISHED_DIRS = ["icons", "style", "favicon"] as const;
/** The content's own root page: published when present, and the catalogue is left out. */
export const ROOT_PAGE = "index.html";
/** Top-level files published byte for byte (when present). */
export const PUBLISHED_FILES = [
  CONTENT_FILES.config,
  CONTENT_FILES.extensionMap,
  CONTENT_FILES.icons,
  CONTENT_FILES.configReference,
  ROOT_PAGE,
];

/**
 * File names PHP handlers in Apache run as scripts (Debian's `.+\.ph(ar|p|tml)$`, older php3-php8/pht, phps
 * source view, and AddHandler's match of any extension in the name, e.g. x.php.png).
 */
export const SERVER_SCRIPT = /\.(php[3-8]?|phtml|phar|pht|phps|pgif|phpt)(\.|$)/i;

/** The answer every unmapped extension and every missing icon falls back to. */
export const FALLBACK_ICON = "text.png";
export const FOLDER_ICON = "folder.png";

/** The folder of the icons, as the site's paths begin with it. */
export const ICONS_DIR = "icons/";

/** The name of a file directly in icons/ ("icons/php.png": "php.png"), or null for any other path. */
export function iconDirName(sitePath: string): string | null {
  return sitePath.startsWith(ICONS_DIR) && !sitePath.includes("/", ICONS_DIR.length)
    ? sitePath.slice(ICONS_DIR.length)
    : null;
}

/** The name of one of `RawContent.iconDirFiles`, which are all directly in icons/. */
export const iconFileName = (f: { path: string }): string => f.path.slice(ICONS_DIR.length);

export interface RawFile {
  /** Path relative to the content directory, '/'-separated. */
  path: string;
  absPath: string;
  size: number;
  mtimeMs: number;
  /** What names this version of the file beyond its size and modification time: its device, inode and change time
   * (which no tool can set back). The content cache trusts facts it kept only for the same. Files of a published
   * folder have it. */
  stamp?: { dev: number; ino: number; ctimeMs: number };
  /** The bytes, where the build read them: the content texts, and the images directly in icons/ that the content
   * cache did not know. */
  data?: Uint8Array;
  /** What the build needs of the bytes (file-facts.ts): every published file has them once the content is read. */
  facts?: FileFacts;
}

export interface RawText {
  file: RawFile;
  text: string;
  /** Offset in `text` of the first byte sequence that was not valid UTF-8 (decoded as U+FFFD), when there is one. */
  invalidUtf8At?: number;
}

export interface RawContent {
  dir: string;
  /** The JSON content files that exist, with their text. */
  json: Partial<Record<JsonContentName, RawText>>;
  configReference: RawText | null;
  iconsDirExists: boolean;
  /** Regular files directly in icons/. */
  iconDirFiles: RawFile[];
  /** Every file to publish byte for byte, sorted by path. */
  published: RawFile[];
  /** What reading found: symlinks leading outside the folder (errors), entries that are not regular files (warnings). */
  diagnostics: Diagnostic[];
}
