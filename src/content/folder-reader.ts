// src/content/folder-reader.ts
// I/O: reads the files of a content folder one path at a time, refusing every path that resolves outside it
// (symlinks), skipping what is not a regular file, and reporting names no URL can carry.

import type { Dirent, Stats } from "node:fs";
import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { isUtf8 } from "node:buffer";
import path from "node:path";
import fg from "fast-glob";
import type { Diagnostic } from "../errors.js";
import { PUBLISHED_DIRS, PUBLISHED_FILES, SERVER_SCRIPT, type RawFile, type RawText } from "./raw-content.js";

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
    else if (c >= 0xd800 && c <= 0xdbff) {
      byte += 4;
      i++;
    } else byte += 3;
  }
  return undefined;
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
 * Reads one content directory; every path it opens is checked to resolve inside it. The calls are synchronous: for
 * a large icons/ folder, a promise per lstat (all at once) costs more than the calls themselves.
 */
export class Reader {
  readonly diagnostics: Diagnostic[] = [];
  /** Symbolic links met so far (a walk that met one is not kept by ContentListings). */
  links = 0;
  private readonly ignore: string[];
  constructor(
    readonly dir: string,
    private readonly real: string,
    exclude: readonly string[],
  ) {
    this.ignore = exclude.map(ignorePattern);
  }

  private display(rel: string): string {
    return `${this.dir}/${rel}`;
  }

  private symlinkOutside(rel: string, target: string): void {
    this.diagnostics.push({
      severity: "error",
      code: "SYMLINK_OUTSIDE",
      file: this.display(rel),
      message: `This is a symbolic link to ${target}, outside the content folder; the build reads nothing outside --content.`,
      hint: "Copy the file into the content folder instead of linking to it.",
    });
  }

  private skipped(rel: string, what: string): void {
    this.diagnostics.push({
      severity: "warning",
      code: "NOT_REGULAR_FILE",
      file: this.display(rel),
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
      if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR")
        return null;
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
      if (
        real === this.real ||
        (!top.includes(path.sep) &&
          !(PUBLISHED_FILES as readonly string[]).includes(top) &&
          !PUBLISHED_DIRS.includes(top as (typeof PUBLISHED_DIRS)[number]))
      ) {
        this.diagnostics.push({
          severity: "error",
          code: "SYMLINK_INTO_CONTENT",
          file: this.display(rel),
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
      file: { path: rel, absPath: e.real, size: e.stats.size, mtimeMs: e.stats.mtimeMs, data: bytes },
      text: bytes.toString("utf8"),
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
      cwd: this.real,
      dot: false,
      onlyFiles: false,
      followSymbolicLinks: false,
      unique: false,
      ignore: this.ignore,
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
        if (c.link)
          await this.tree(child, out, seen); // fast-glob lists a real folder's files itself
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
        severity: "error",
        code: "FILE_NAME_NOT_UTF8",
        file: this.display(child),
        message: `This file name is not valid UTF-8 (bytes ${bytes.toString("hex").replace(/(..)/g, "$1 ").trim()}): no URL can name it reliably.`,
        hint: `Rename it to a UTF-8 name (e.g. \`convmv -f latin1 -t utf-8 --notest\` in ${this.display(parent)}).`,
      });
    }
    return valid;
  }

  private file(child: string, c: { stats: Stats; real: string }, out: RawFile[]): void {
    if (SERVER_SCRIPT.test(path.posix.basename(child))) {
      this.diagnostics.push({
        severity: "error",
        code: "SERVER_SCRIPT",
        file: this.display(child),
        message:
          "A PHP file name: the Apache drop-in deployment would execute it instead of serving it (Apache runs every file with a PHP extension anywhere in its name).",
        hint: "Remove it, or rename it so that no part of its name is .php, .phtml, .phar, .pht, .phps or .php3-.php8 (e.g. example.php → example-php.txt).",
      });
      return;
    }
    const { stats } = c;
    out.push({
      path: child,
      absPath: c.real,
      size: stats.size,
      mtimeMs: stats.mtimeMs,
      stamp: { dev: stats.dev, ino: stats.ino, ctimeMs: stats.ctimeMs },
    });
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
      for (const sub of readdirSync(child, { encoding: "utf8", recursive: true }))
        found.push(`${rel}/${name}/${sub.split(path.sep).join("/")}`);
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
