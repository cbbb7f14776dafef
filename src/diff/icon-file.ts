// src/diff/icon-file.ts
// An icon's bytes → what diff compares of it: size, sha1 (base64url, as the build's site.manifest records it) and
// pixel dimensions (image-size; null where it cannot tell, e.g. an SVG without width and height).

import { createHash } from "node:crypto";
import { imageSize } from "image-size";
import type { IconFile } from "./site.js";

export const sha1Of = (data: Uint8Array): string => createHash("sha1").update(data).digest("base64url");

export function dimensions(data: Uint8Array): { width: number | null; height: number | null } {
  try {
    const { width, height } = imageSize(data);
    return {
      width: Number.isFinite(width) && width > 0 ? width : null,
      height: Number.isFinite(height) && height > 0 ? height : null,
    };
  } catch {
    return { width: null, height: null };
  }
}

export const iconFile = (data: Uint8Array, sha1 = sha1Of(data)): IconFile => ({
  size: data.length,
  sha1,
  ...dimensions(data),
});
