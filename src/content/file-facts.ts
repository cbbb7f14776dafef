// src/content/file-facts.ts
// What the build needs to know of a content file's bytes: their sha1 (the output's manifests and the inputs key say
// what a file holds by it), and for an image directly in icons/, its type and pixel size as image-size reads them,
// and for an SVG, what in it could run. Computed from the bytes once; the content cache (read-content.ts) keeps them
// between builds, so that a rebuild reads only the files that changed.

import crypto from "node:crypto";
import { imageSize } from "image-size";
import sax from "sax";

/** sha1 of the bytes (a string: of its UTF-8): crypto.hash (Node ≥ 20.12) skips the Hash object per file. */
export const digest: (data: string | Uint8Array) => Buffer =
  typeof crypto.hash === "function"
    ? (data) => crypto.hash("sha1", data, "buffer") as unknown as Buffer
    : (data) => crypto.createHash("sha1").update(data).digest();

export interface ImageFacts {
  /** The format image-size finds (an SVG without width and height: "svg" when it has an <svg> root), or null. */
  type: string | null;
  /** The pixel size image-size reads, nulls when it cannot say. */
  width: number | null;
  height: number | null;
  /** For an SVG: what in it could run when opened from the site (SVG_ACTIVE's descriptions), none when nothing. */
  active?: string[];
  /** Why a client cannot decode it though its header reads right (cut short, not well-formed XML); none when it can. */
  broken?: string;
}

export interface FileFacts {
  /** sha1 of the bytes. */
  hash: Buffer;
  /** For a file whose name says it is an image (IMAGE_NAME), directly in icons/. */
  image?: ImageFacts;
}

/** Files in icons/ whose bytes the build checks are the images their names claim. */
export const IMAGE_NAME = /\.(png|jpe?g|gif|svg|webp)$/i;

/**
 * An SVG that can run code or embed HTML when opened from the site's origin (the hosts also send a CSP that
 * forbids it). Patterns on the text, generous rather than exact: a false warning costs a look.
 */
const SVG_ACTIVE: Array<[RegExp, string]> = [
  [/<script[\s>/]/i, "a <script> element"],
  [/<foreignObject[\s>/]/i, "a <foreignObject> element (embedded HTML)"],
  [/[\s"'/]on[a-z]+\s*=/i, "an event handler attribute (on…=)"],
  [/(?:j|&#0*106;|&#x0*6a;)\s*(?:a|&#0*97;|&#x0*61;)\s*v\s*a\s*s\s*c\s*r\s*i\s*p\s*t\s*:/i, "a javascript: URL"],
];

/** The facts of a file's bytes; `image`: whether it is an image directly in icons/ (its name says so). */
export function factsOf(bytes: Uint8Array, image: boolean, path: string): FileFacts {
  return image ? { hash: digest(bytes), image: imageFacts(bytes, path) } : { hash: digest(bytes) };
}

function imageFacts(bytes: Uint8Array, path: string): ImageFacts {
  const svg = /\.svg$/i.test(path);
  if (bytes.byteLength === 0) return { type: null, width: null, height: null };
  let facts: ImageFacts;
  try {
    const size = imageSize(bytes);
    facts = { type: size.type ?? null, width: size.width ?? null, height: size.height ?? null };
  } catch {
    // image-size needs width/height on an SVG; browsers do not. An <svg> root is enough.
    const root = svg && /<svg[\s>]/i.test(new TextDecoder().decode(bytes.subarray(0, 4096)));
    facts = { type: root ? "svg" : null, width: null, height: null };
  }
  const broken = facts.type === null ? undefined : brokenBody(bytes, facts.type);
  if (broken !== undefined) facts.broken = broken;
  if (svg) {
    const text = new TextDecoder().decode(bytes);
    const active = SVG_ACTIVE.filter(([pattern]) => pattern.test(text)).map(([, what]) => what);
    if (active.length > 0) facts.active = active;
  }
  return facts;
}

const ascii = (bytes: Uint8Array, text: string, from: number): boolean =>
  [...text].every((c, i) => bytes[from + i] === c.charCodeAt(0));

/** Why a file whose header names an image cannot be decoded whole, or undefined: the end each format requires. */
function brokenBody(bytes: Uint8Array, type: string): string | undefined {
  const n = bytes.byteLength;
  const has = (test: (i: number) => boolean): boolean => {
    for (let i = n - 1; i >= 0; i--) if (test(i)) return true;
    return false;
  };
  switch (type) {
    case "png":
      return has((i) => ascii(bytes, "IEND", i)) ? undefined : "it ends before its IEND chunk (cut short)";
    case "jpg":
      return has((i) => bytes[i] === 0xff && bytes[i + 1] === 0xd9)
        ? undefined
        : "it has no end-of-image marker (cut short)";
    case "gif":
      return bytes.includes(0x3b, 13) ? undefined : "it has no trailer byte (cut short)";
    case "webp": {
      const declared = n >= 8 ? new DataView(bytes.buffer, bytes.byteOffset, n).getUint32(4, true) + 8 : 0;
      return declared <= n ? undefined : `its RIFF header declares ${declared} bytes, the file has ${n} (cut short)`;
    }
    case "svg":
      return xmlProblem(new TextDecoder().decode(bytes));
    default:
      return undefined;
  }
}

/** The first well-formedness error of an XML text (sax in strict mode), or undefined. */
function xmlProblem(text: string): string | undefined {
  const parser = sax.parser(true);
  let problem: string | undefined;
  parser.onerror = (error: Error) => {
    problem ??= `it is not well-formed XML (${error.message.replace(/\s+/g, " ").trim()})`;
    (parser as unknown as { error: Error | null }).error = null; // go on to the end, reporting only the first
  };
  parser.write(text).close();
  return problem;
}
