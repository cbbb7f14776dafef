// src/content/read-content.ts
// I/O: reads a content directory from disk into RawContent (texts, file sizes and times, the facts of each file's bytes
// through the content cache: content-cache.ts); decides nothing about the content itself, but refuses to read anything
// outside the directory (symlinks) and skips what is not a regular file.

import type { Dirent, Stats } from "node:fs";
import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { isUtf8 } from "node:buffer";
import path from "node:path";
import fg from "fast-glob";
import { fromOsError, UsageError, type Diagnostic } from "../errors.js";
import type { ContentCache } from "./content-cache.js";
import { DEFAULT_EXCLUDE } from "./exclude.js";
import { factsOf, IMAGE_NAME, type FileFacts } from "./file-facts.js";

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
export const PUBLISHED_FILES = [CONTENT_FILES.config, CONTENT_FILES.extensionMap, CONTENT_FILES.icons, CONTENT_FILES.configReference, ROOT_PAGE];

/**
 * File names PHP handlers in Apache run as scripts (Debian's `.+\.ph(ar|p|tml)$`, older php3-php8/pht, phps
 * source view, and AddHandler's match of any extension in the name, e.g. x.php.png).
 */
export const SERVER_SCRIPT = /\.(php[3-8]?|phtml|phar|pht|phps|pgif|phpt)(\.|$)/i;

/** The folder of the icons, as the site's paths begin with it. */
export const ICONS_DIR = "icons/";

/** The name of a file directly in icons/ ("icons/php.png": "php.png"), or null for any other path. */
export function iconDirName(sitePath: string): string | null {
  return sitePath.startsWith(ICONS_DIR) && !sitePath.includes("/", ICONS_DIR.length) ? sitePath.slice(ICONS_DIR.length) : null;
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

/** Offset (in the decoded text) of the first invalid UTF-8 sequence in `bytes`, or undefined when all is valid. */
export function firstInvalidUtf8(bytes: Buffer): number | undefined {
  if (isUtf8(bytes)) return undefined;
  const text = bytes.toString("utf8");
  let byte = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A U+FFFD that is not the three bytes EF BF BD in the file is where the decoder replaced invalid bytes.
    if (c === 0xfffd && !(bytes[byte] === 0xef && bytes[byte + 1] === 0xbf && bytes[byte + 2] === 0xbd)) return i;
    if (c < 0x80) byte += 1;
    else if (c < 0x800) byte += 2;
    else if (c >= 0xd800 && c <= 0xdbff) { byte += 4; i++; }
    else byte += 3;
  }
  return undefined;
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

const inside = (child: string, parent: string): boolean =>
  child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);

function kind(s: Stats | Dirent): string {
  if (s.isDirectory()) return "a folder";
  if (s.isFIFO()) return "a named pipe";
  if (s.isSocket()) return "a socket";
  if (s.isCharacterDevice() || s.isBlockDevice()) return "a device";
  return "not a regular file";
}

/**
 * Reads one content directory; every path it opens is checked to resolve inside it. The calls are synchronous: a
 * ×100 icons/ folder has 49,000 entries, and a promise per lstat (all at once) cost more than the calls themselves.
 */
class Reader {
  readonly diagnostics: Diagnostic[] = [];
  /** Symbolic links met so far (a walk that met one is not kept by ContentListings). */
  links = 0;
  private readonly ignore: string[];
  constructor(readonly dir: string, private readonly real: string, exclude: readonly string[]) {
    this.ignore = exclude.map(ignorePattern);
  }

  private display(rel: string): string {
    return `${this.dir}/${rel}`;
  }

  private symlinkOutside(rel: string, target: string): void {
    this.diagnostics.push({
      severity: "error", code: "SYMLINK_OUTSIDE", file: this.display(rel),
      message: `This is a symbolic link to ${target}, outside the content folder; the build reads nothing outside --content.`,
      hint: "Copy the file into the content folder instead of linking to it.",
    });
  }

  private skipped(rel: string, what: string): void {
    this.diagnostics.push({
      severity: "warning", code: "NOT_REGULAR_FILE", file: this.display(rel),
      message: `Skipped: ${what}, so it is neither read nor published.`,
      hint: "Replace it with a regular file, or remove it.",
    });
  }

  /**
   * lstat, following a symlink only when it resolves inside the content folder.
   * Returns the stats of what the path finally names, or null (missing, refused or reported).
   */
  async entry(rel: string): Promise<{ stats: Stats; real: string; link: boolean } | null> {
    const abs = path.join(this.real, rel);
    let s: Stats;
    try {
      s = lstatSync(abs);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR") return null;
      throw error;
    }
    if (!s.isSymbolicLink()) return { stats: s, real: abs, link: false };
    this.links++;
    let real: string;
    try {
      real = realpathSync.native(abs);
    } catch {
      this.skipped(rel, "a symbolic link whose target does not exist");
      return null;
    }
    if (!inside(real, this.real)) {
      this.symlinkOutside(rel, real);
      return null;
    }
    // A link back to the content folder itself, or to a top-level file that is not published (manifest.json),
    // would publish what the build keeps private.
    const top = path.relative(this.real, real);
    if (rel.includes("/") || PUBLISHED_DIRS.includes(rel as (typeof PUBLISHED_DIRS)[number])) {
      if (real === this.real || (!top.includes(path.sep) && !(PUBLISHED_FILES as readonly string[]).includes(top) && !PUBLISHED_DIRS.includes(top as (typeof PUBLISHED_DIRS)[number]))) {
        this.diagnostics.push({
          severity: "error", code: "SYMLINK_INTO_CONTENT", file: this.display(rel),
          message: `This is a symbolic link to ${real === this.real ? "the content folder itself" : top}, which is not published: following it would publish ${real === this.real ? "manifest.json and every other build-only file" : top}.`,
          hint: "Remove the link; link only to files inside icons/, style/ or favicon/.",
        });
        return null;
      }
    }
    return { stats: statSync(real), real, link: true };
  }

  /** A top-level file: its text, or null when absent (or not readable as a regular file, which is reported). */
  async text(rel: string): Promise<RawText | null> {
    const e = await this.entry(rel);
    if (e === null) return null;
    if (!e.stats.isFile()) {
      this.skipped(rel, kind(e.stats));
      return null;
    }
    const bytes = readFileSync(e.real);
    const invalidUtf8At = firstInvalidUtf8(bytes);
    return {
      // The bytes stay with the file: the up-to-date key hashes them and the writer copies them (read once).
      file: { path: rel, absPath: e.real, size: e.stats.size, mtimeMs: e.stats.mtimeMs, data: bytes }, text: bytes.toString("utf8"),
      ...(invalidUtf8At === undefined ? {} : { invalidUtf8At }),
    };
  }

  /**
   * Every regular file under a published folder (dot files and `exclude` matches left out), found by fast-glob.
   * fast-glob does not follow symbolic links: a link to a folder inside the content is read by a call of its own
   * (`seen` stops loops).
   */
  async tree(rel: string, out: RawFile[], seen: Set<string>): Promise<boolean> {
    const e = await this.entry(rel);
    if (e === null) return false;
    if (!e.stats.isDirectory()) {
      this.skipped(rel, `${kind(e.stats)} where a folder was expected`);
      return false;
    }
    if (seen.has(e.real)) return true; // a link back to a folder already read
    seen.add(e.real);
    const found = fg.sync(`${fg.escapePath(rel)}/**`, {
      cwd: this.real, dot: false, onlyFiles: false, followSymbolicLinks: false, unique: false, ignore: this.ignore,
    });
    const folders = [rel];
    const done = new Set<string>();
    const visit = async (child: string): Promise<void> => {
      if (done.has(child)) return; // fast-glob lists a name twice when an invalid name decodes to its valid twin
      done.add(child);
      // fast-glob decodes every name as UTF-8: a name that is not UTF-8 comes back with U+FFFD, and its bytes are lost.
      if (child.includes("\ufffd") && !this.validUtf8Name(child)) return;
      const c = await this.entry(child);
      if (c === null) return;
      if (c.stats.isDirectory()) {
        if (c.link) await this.tree(child, out, seen); // fast-glob lists a real folder's files itself
        else folders.push(child);
      } else if (c.stats.isFile()) this.file(child, c, out);
      else this.skipped(child, kind(c.stats));
    };
    for (const child of found.sort(bySegments)) await visit(child);
    // fast-glob's patterns never match a name with a line break: such names (refused later: no URL can carry them)
    // are listed here, so that none is silently left out.
    for (const folder of folders) {
      for (const child of withLineBreaks(path.join(this.real, folder), folder)) await visit(child);
    }
    return true;
  }

  /**
   * For a path that fast-glob returned with U+FFFD: reports each name in its folder that is not valid UTF-8 and decodes
   * to it (with its bytes), and says whether the name also exists as real UTF-8 (its twin, which is read as usual).
   */
  private validUtf8Name(child: string): boolean {
    const parent = path.posix.dirname(child);
    const name = path.posix.basename(child);
    let valid = false;
    for (const bytes of readdirSync(path.join(this.real, parent), { encoding: "buffer" })) {
      if (bytes.toString("utf8") !== name) continue;
      if (isUtf8(bytes)) {
        valid = true;
        continue;
      }
      this.diagnostics.push({
        severity: "error", code: "FILE_NAME_NOT_UTF8", file: this.display(child),
        message: `This file name is not valid UTF-8 (bytes ${bytes.toString("hex").replace(/(..)/g, "$1 ").trim()}): no URL can name it reliably.`,
        hint: `Rename it to a UTF-8 name (e.g. \`convmv -f latin1 -t utf-8 --notest\` in ${this.display(parent)}).`,
      });
    }
    return valid;
  }

  private file(child: string, c: { stats: Stats; real: string }, out: RawFile[]): void {
    if (SERVER_SCRIPT.test(path.posix.basename(child))) {
      this.diagnostics.push({
        severity: "error", code: "SERVER_SCRIPT", file: this.display(child),
        message: "A PHP file name: the Apache drop-in deployment would execute it instead of serving it (Apache runs every file with a PHP extension anywhere in its name).",
        hint: "Remove it, or rename it so that no part of its name is .php, .phtml, .phar, .pht, .phps or .php3-.php8 (e.g. example.php → example-php.txt).",
      });
      return;
    }
    const { stats } = c;
    out.push({ path: child, absPath: c.real, size: stats.size, mtimeMs: stats.mtimeMs, stamp: { dev: stats.dev, ino: stats.ino, ctimeMs: stats.ctimeMs } });
  }
}

const LINE_BREAK = /[\n\r\u2028\u2029]/;

/** The paths (below `rel`) of the names under `abs` that hold a line break, and of every file below such a folder. */
function withLineBreaks(abs: string, rel: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(abs, { encoding: "utf8" })) {
    if (!LINE_BREAK.test(name) || name.startsWith(".")) continue;
    found.push(`${rel}/${name}`);
    const child = path.join(abs, name);
    if (lstatSync(child).isDirectory()) {
      for (const sub of readdirSync(child, { encoding: "utf8", recursive: true })) found.push(`${rel}/${name}/${sub.split(path.sep).join("/")}`);
    }
  }
  return found;
}

/** Paths in the order of a depth-first walk with each folder's names sorted (a/x before a-b). */
function bySegments(a: string, b: string): number {
  const x = a.split("/");
  const y = b.split("/");
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  }
  return x.length - y.length;
}

const byPath = (a: { path: string }, b: { path: string }): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/**
 * The facts of every published file (file-facts.ts): kept by the cache for the same version of the file, or read
 * from its bytes. The bytes of an image directly in icons/ stay with the file (the writer copies them); the others
 * are dropped once hashed. One file at a time, synchronously: ×100 content has ~49,000 small icons, and a promise,
 * a file handle and four trips through libuv's pool per icon cost more time and memory than the reads themselves
 * when the files are cached (and never more open files than one).
 */
function readFacts(raw: RawContent, cache: ContentCache | undefined, readAt: number): void {
  let hits = 0;
  for (const f of raw.published) {
    if (f.data !== undefined) {
      f.facts = factsOf(f.data, false, f.path); // a text the build read whole
      continue;
    }
    const kept = cache?.get(f);
    if (kept !== undefined) {
      f.facts = kept;
      hits++;
      continue;
    }
    const image = iconDirName(f.path) !== null && IMAGE_NAME.test(f.path);
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(f.absPath);
    } catch (error) {
      throw fromOsError(error, undefined, "read");
    }
    f.facts = factsOf(bytes, image, f.path);
    if (image) f.data = bytes;
    cache?.set(f, f.facts, readAt);
  }
  // Every file it knows was found (as many hits as it holds: each hit is one of them): it keeps what it has.
  if (cache !== undefined && hits !== cache.size) cache.retain(new Set(raw.published.map((f) => f.absPath)));
}

export { DEFAULT_EXCLUDE };

export interface ReadOptions {
  /** Glob patterns (fast-glob) of files in the published folders that the build skips; default DEFAULT_EXCLUDE. */
  exclude?: readonly string[];
  /** The facts of the content's files kept from the last build (content-cache.ts): only the files not known are read. */
  cache?: ContentCache;
  /** `dev`: the published folders' files as its last build found them, while its watcher saw no change in them. */
  listings?: ContentListings;
}

/** A file of a published folder as a walk finds it (RawFile without what the build reads of its bytes). */
type ListedFile = Pick<RawFile, "path" | "absPath" | "size" | "mtimeMs" | "stamp">;

/**
 * What `dev` keeps of the published folders' walks between builds: each folder's files as the last walk found them,
 * kept while the watcher reports no change under the folder (icons/ holds 49,000 files at ×100: finding and
 * lstat-ing them took 0.45 s of every rebuild, an edit of icons.json included). Only a walk that met no symbolic link
 * and reported nothing is kept. A change the watcher reports during a walk leaves that walk unkept.
 */
export class ContentListings {
  /** Changes reported under each published folder (by its name), and anywhere (a change without a path). */
  private readonly changes = new Map<string, number>();
  private everywhere = 0;
  private broken = false;
  private readonly kept = new Map<string, { real: string; changes: number; everywhere: number; exists: boolean; files: ListedFile[] }>();

  /** The watcher saw `rel` (relative to the content folder) change; without a path, anything may have changed. */
  changed(rel?: string): void {
    if (rel === undefined) this.everywhere++;
    else {
      const top = rel.split(/[\\/]/)[0]!;
      this.changes.set(top, (this.changes.get(top) ?? 0) + 1);
    }
  }

  /** The watcher failed: changes may go unreported, so no walk is kept from now on. */
  fail(): void {
    this.broken = true;
    this.kept.clear();
  }

  /** What to keep a walk of `folder` begun now with. */
  mark(folder: string): { changes: number; everywhere: number } {
    return { changes: this.changes.get(folder) ?? 0, everywhere: this.everywhere };
  }

  /** The kept walk of `folder` of the content folder `real`, while no change was reported under it. */
  get(real: string, folder: string): { exists: boolean; files: readonly ListedFile[] } | undefined {
    const kept = this.kept.get(folder);
    if (kept === undefined) return undefined;
    if (kept.real === real && kept.changes === (this.changes.get(folder) ?? 0) && kept.everywhere === this.everywhere) return kept;
    this.kept.delete(folder);
    return undefined;
  }

  set(real: string, folder: string, mark: { changes: number; everywhere: number }, exists: boolean, files: readonly RawFile[]): void {
    if (this.broken) return;
    this.kept.set(folder, {
      real, ...mark, exists,
      files: files.map((f) => ({ path: f.path, absPath: f.absPath, size: f.size, mtimeMs: f.mtimeMs, ...(f.stamp === undefined ? {} : { stamp: f.stamp }) })),
    });
  }
}

/**
 * An exclude pattern as fast-glob's `ignore` takes it, relative to the content folder: a pattern without a slash
 * matches a name in any folder (as in .gitignore), a leading slash anchors it, a trailing slash means the whole folder.
 */
export function ignorePattern(pattern: string): string {
  const folder = pattern.trim().endsWith("/");
  let p = pattern.trim().replace(/\/+$/, "");
  if (p.startsWith("/")) p = p.slice(1);
  else if (!p.includes("/")) p = `**/${p}`;
  return folder ? `${p}/**` : p;
}

/**
 * Reads a content folder: its texts, its files' sizes and times, and the bytes of the images in icons/. The files
 * directly in the content folder are read by name; `exclude` applies to the published folders (icons/, style/, favicon/).
 */
export async function readContent(dir: string, options: ReadOptions = {}): Promise<RawContent> {
  let real: string;
  try {
    real = await realpath(dir);
    if (!(await stat(real)).isDirectory()) throw new Error("not a folder");
  } catch {
    throw new UsageError(`--content ${dir} is not a folder.`, "Pass the folder that holds manifest.json, config.json, extensionMap.json, icons.json and icons/.");
  }
  const readAt = Date.now();
  const reader = new Reader(dir, real, options.exclude ?? DEFAULT_EXCLUDE);

  const json: Partial<Record<JsonContentName, RawText>> = {};
  await Promise.all(JSON_CONTENT.map(async (name) => {
    const raw = await reader.text(CONTENT_FILES[name]);
    if (raw !== null) json[name] = raw;
  }));
  const configReference = await reader.text(CONTENT_FILES.configReference);
  // A root page of the content's own: published, in place of the catalogue (src/catalogue says so).
  const rootPage = await reader.text(ROOT_PAGE);

  const dirFiles: RawFile[] = [];
  const seen = new Set<string>();
  let iconsDirExists = false;
  const { listings } = options;
  for (const d of PUBLISHED_DIRS) {
    const kept = listings?.get(real, d);
    if (kept !== undefined) {
      for (const f of kept.files) dirFiles.push({ ...f });
      if (kept.exists) seen.add(path.join(real, d)); // as its walk did: a link to it elsewhere is not walked again
      if (d === "icons") iconsDirExists = kept.exists;
      continue;
    }
    const mark = listings?.mark(d);
    const before = { files: dirFiles.length, diagnostics: reader.diagnostics.length, links: reader.links };
    const exists = await reader.tree(d, dirFiles, seen);
    if (d === "icons") iconsDirExists = exists;
    if (mark !== undefined && reader.diagnostics.length === before.diagnostics && reader.links === before.links) {
      listings!.set(real, d, mark, exists, dirFiles.slice(before.files));
    }
  }
  dirFiles.sort(byPath);
  const iconDirFiles = dirFiles.filter((f) => iconDirName(f.path) !== null);
  const topFiles = [json.config?.file, json.extensionMap?.file, json.icons?.file, configReference?.file, rootPage?.file]
    .filter((f): f is RawFile => f !== undefined);
  const published = [...topFiles, ...dirFiles].sort(byPath);

  const raw: RawContent = { dir, json, configReference, iconsDirExists, iconDirFiles, published, diagnostics: reader.diagnostics };
  readFacts(raw, options.cache, readAt);
  return raw;
}
