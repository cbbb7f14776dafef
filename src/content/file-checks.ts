// src/content/file-checks.ts
// The checks of the content's files themselves (their names and bytes: icons that are no readable image, SVGs that
// can run code, names that differ only in normalization), kept between builds while the same files are published.

import type { Diagnostic } from "../errors.js";
import type { ImageFacts } from "./file-facts.js";
import { Out, short, visible } from "./findings.js";
import { answerNameTooLong, hasUncarriableChar } from "./name-checks.js";
import { FALLBACK_ICON, iconFileName, type RawContent, type RawFile } from "./raw-content.js";

/** The findings of the content's files themselves (their names and bytes), against icons/ and one another. */
function checkFiles(raw: RawContent): Diagnostic[] {
  const out = new Out();
  if (raw.iconsDirExists && !raw.iconDirFiles.some((f) => f.path === `icons/${FALLBACK_ICON}`)) {
    out.file(
      `${raw.dir}/icons`,
      "error",
      "ICON_FALLBACK_MISSING",
      `icons/${FALLBACK_ICON} does not exist: it is the answer for every unmapped extension and every mapped icon that is missing, so findIcon would answer 404.`,
      `Add an icon named ${FALLBACK_ICON}.`,
    );
  }
  for (const f of raw.iconDirFiles) {
    const name = iconFileName(f);
    const tooLong = answerNameTooLong(name);
    if (tooLong !== null) {
      out.file(
        `${raw.dir}/${f.path}`,
        "error",
        "NAME_TOO_LONG",
        `The icon file name ${short(name)} is too long to become an answer file name (action=icon&name=…): ${tooLong}.`,
        "Rename the file.",
      );
    }
    checkIconFile(out, raw.dir, f);
  }
  checkNormalization(out, raw.dir, raw.published);
  for (const f of raw.published) {
    checkSvgContent(out, raw.dir, f);
    if (hasUncarriableChar(f.path)) {
      out.file(
        `${raw.dir}/${f.path}`,
        "error",
        "VALUE_UNSAFE",
        `The file name ${visible(f.path)} contains a control character, which no URL or host config can carry.`,
        "Rename the file.",
      );
    }
  }
  return out.list;
}

/**
 * checkFiles, kept between builds (`dev`): the same findings while the content folder publishes the same files (paths,
 * whether each is empty, and image facts, all checkFiles reads of the bytes: the content cache keeps a file's facts
 * object while the file is unchanged; a text read whole has none, so an edit of icons.json, a published file whose
 * size changes, keeps them): a large site's names are not normalised and tested again on every rebuild.
 */
export class FileChecks {
  private last: { dir: string; dirExists: boolean; files: KeptFile[]; found: Diagnostic[] } | null = null;

  check(raw: RawContent): Diagnostic[] {
    const last = this.last;
    if (
      last === null ||
      last.dir !== raw.dir ||
      last.dirExists !== raw.iconsDirExists ||
      !sameFiles(last.files, raw.published)
    ) {
      this.last = {
        dir: raw.dir,
        dirExists: raw.iconsDirExists,
        files: raw.published.map((f) => ({ path: f.path, empty: f.size === 0, image: f.facts?.image })),
        found: checkFiles(raw),
      };
    }
    return this.last!.found.map((d) => ({ ...d })); // each build its own copies
  }
}

interface KeptFile {
  path: string;
  empty: boolean;
  image: ImageFacts | undefined;
}

function sameFiles(was: readonly KeptFile[], now: readonly RawFile[]): boolean {
  if (was.length !== now.length) return false;
  for (let i = 0; i < was.length; i++) {
    const a = was[i]!;
    const b = now[i]!;
    if (a.image !== b.facts?.image || a.path !== b.path || a.empty !== (b.size === 0)) return false;
  }
  return true;
}

/** image-size's name of the format each file extension claims. */
const CLAIMED_TYPE: Record<string, string> = {
  png: "png",
  jpg: "jpg",
  jpeg: "jpg",
  gif: "gif",
  svg: "svg",
  webp: "webp",
};

function checkIconFile(out: Out, dir: string, f: RawFile): void {
  const image = f.facts?.image;
  if (image === undefined) return;
  const ext = f.path.slice(f.path.lastIndexOf(".") + 1).toLowerCase();
  const claimed = CLAIMED_TYPE[ext];
  if (claimed === undefined) return;
  const { type } = image;
  if (type === claimed) return checkIconBody(out, dir, f);
  out.file(
    `${dir}/${f.path}`,
    "error",
    "ICON_UNREADABLE",
    type === null
      ? `${f.size === 0 ? "The file is empty" : `The file is not a readable ${ext.toUpperCase()} image`}: it would be listed and served as an icon that no client can show.`
      : `The file is a ${type.toUpperCase()} image but its name says ${ext.toUpperCase()}: it would be served with the wrong Content-Type.`,
    type === null
      ? "Replace it with a valid image, or remove it."
      : `Rename it to end in .${type === "jpg" ? "jpg" : type}, or convert it.`,
  );
}

/** An image whose header reads right but which no client can decode whole (file-facts.ts says why). */
function checkIconBody(out: Out, dir: string, f: RawFile): void {
  const broken = f.facts?.image?.broken;
  if (broken === undefined) return;
  out.file(
    `${dir}/${f.path}`,
    "warning",
    "ICON_BROKEN",
    `The image cannot be decoded: ${broken}. It would be listed and served as an icon that clients cannot show.`,
    "Replace it with a complete image; --strict refuses such a file.",
  );
}

/** An SVG that can run code or embed HTML when opened from the site's origin (file-facts.ts finds what). */
function checkSvgContent(out: Out, dir: string, f: RawFile): void {
  const found = f.facts?.image?.active;
  if (found === undefined) return;
  out.file(
    `${dir}/${f.path}`,
    "warning",
    "SVG_ACTIVE_CONTENT",
    `The SVG has ${found.join(", ")}: opened from the site, it would run in the API's origin (the host configs send a Content-Security-Policy that blocks it, but other servers may not).`,
    "Remove the scripts, event handlers, javascript: links and <foreignObject> (an icon needs none); --strict refuses such a file.",
  );
}

/**
 * Published names that differ only in Unicode normalization (café as NFC and as NFD): one file on macOS, and hosts
 * normalise URLs differently. (Names that differ only in case are refused where the output is planned.)
 */
function checkNormalization(out: Out, dir: string, files: readonly RawFile[]): void {
  const first = new Map<string, string>();
  for (const f of files) {
    const key = f.path.normalize("NFC").toLowerCase();
    const other = first.get(key);
    if (other === undefined) {
      first.set(key, f.path);
    } else if (other.toLowerCase() !== f.path.toLowerCase()) {
      out.file(
        `${dir}/${f.path}`,
        "error",
        "NAME_NORMALIZATION",
        `The file names ${visible(other)} and ${visible(f.path)} differ only in Unicode normalization (NFC and NFD): they are one file on macOS, and hosts normalise URLs differently.`,
        "Keep one of them, named in NFC (the form most editors write).",
      );
    }
  }
}
