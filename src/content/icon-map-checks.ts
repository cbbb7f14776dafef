// src/content/icon-map-checks.ts
// icons.json checked against icons/ (missing icons, names that are no plain file name, files that are no image), and
// kept between builds so that an edited mapping is checked alone.

import type { Diagnostic } from "../errors.js";
import type { Json, JsonObject } from "../model/json.js";
import { changedEntries } from "../model/changed-values.js";
import { isIconName } from "../model/types.js";
import { Out, visible } from "./findings.js";
import { checkKeys, isPlainFileName } from "./name-checks.js";
import { pointerToken, type ParsedJson } from "./parse-json.js";
import { FALLBACK_ICON, FOLDER_ICON, iconFileName, type RawContent, type RawFile } from "./raw-content.js";

/** icons.json's findings against icons/, in the order found: the keys' (the "$schema" key's first), then each
 * mapping's (`at`: its index among the keys), then the folder icon's. */
interface IconFindings {
  head: Diagnostic[];
  values: Array<{ at: number; list: Diagnostic[] }>;
  tail: Diagnostic[];
}

function checkIconMap(icons: ParsedJson, raw: RawContent, files: IconFileNames): IconFindings {
  const root = icons.value as JsonObject;
  const head = new Out();
  if (root.has("$schema")) {
    head.at(
      icons,
      "warning",
      "ICONS_SCHEMA_KEY",
      "/$schema",
      `"$schema" in icons.json is not an editor hint here: every key of icons.json is an extension, so it is published as the mapping "$schema" → ${visible(String(root.get("$schema")))} (iconMappings lists it).`,
      `Remove it and associate schemas/icons.schema.json in your editor's settings instead (VS Code: "json.schemas" with "fileMatch": ["icons.json"]).`,
    );
  }
  checkKeys(head, icons, root, "", "findIcon");
  const out = new Out();
  const values: IconFindings["values"] = [];
  let at = 0;
  for (const [key, value] of root as Map<string, Json>) {
    if (key !== "$schema") checkIconValue(out, icons, files, key, value as string); // $schema: above
    if (out.list.length > 0) values.push({ at, list: out.list.splice(0) });
    at++;
  }
  const tail = new Out();
  if (raw.iconsDirExists && !root.has("folder") && !files.has(FOLDER_ICON)) {
    tail.at(
      icons,
      "warning",
      "ICON_MISSING",
      "",
      `icons.json has no "folder" entry and icons/${FOLDER_ICON} does not exist: findIcon for folders ${files.has(FALLBACK_ICON) ? `falls back to ${FALLBACK_ICON}` : "answers 404"}.`,
      `Add icons/${FOLDER_ICON} or a "folder" entry.`,
    );
  }
  return { head: head.list, values, tail: tail.list };
}

/** The names of icons/'s files, and (made when first asked) each by its name in lower case. */
type IconFileNames = ReadonlySet<string> & { byLower(): ReadonlyMap<string, string> };
function iconFileNames(raw: RawContent): IconFileNames {
  const files = new Set(raw.iconDirFiles.map(iconFileName));
  let lower: Map<string, string> | undefined;
  return Object.assign(files, {
    byLower: (): ReadonlyMap<string, string> => (lower ??= new Map([...files].map((f) => [f.toLowerCase(), f]))),
  });
}

/** What one mapping of icons.json (`key` → `name`) finds: a name that is no plain file name, a missing or no image. */
function checkIconValue(out: Out, icons: ParsedJson, files: IconFileNames, key: string, name: string): void {
  const pointer = `/${pointerToken(key)}`;
  if (!isPlainFileName(name)) {
    out.at(
      icons,
      "error",
      "ICON_NAME_INVALID",
      pointer,
      `${visible(name)} is not a plain file name: icons.json values name a file directly in icons/ (no folders, no "..", no hidden files).`,
      `Use just the file name, e.g. ${visible(name.split(/[/\\]/).pop() || "php.png")}.`,
    );
  } else if (!files.has(name)) {
    const other = files.byLower().get(name.toLowerCase());
    const fallback = files.has(FALLBACK_ICON)
      ? `falls back to ${FALLBACK_ICON}`
      : `has no fallback (${FALLBACK_ICON} is missing too) and answers 404`;
    out.at(
      icons,
      "warning",
      "ICON_MISSING",
      pointer,
      `icons/${name} does not exist: findIcon for ${key === "folder" ? "folders" : visible(key)} ${fallback}.`,
      other !== undefined
        ? `icons/${other} exists: file names are case-sensitive; use ${visible(other)}.`
        : `Add icons/${name}, or map ${visible(key)} to an existing icon.`,
    );
  } else if (!isIconName(name)) {
    out.at(
      icons,
      "warning",
      "ICON_NOT_IMAGE",
      pointer,
      `${visible(name)} does not end in an image extension (.png .jpg .jpeg .gif .svg .webp): findIcon serves it, but the icons list and the icon action do not know it.`,
      "Map the extension to an image file.",
    );
  }
}

/**
 * icons.json checked against icons/ (checkIconMap), made again only for the changed mappings: what `dev` keeps between
 * builds (src/content/load-content.ts: ModelParts), for an edited mapping (a large icons.json is slow to check
 * whole). The findings hang on the keys (in their order), each mapping alone, and icons/'s file names: with
 * the same keys and files, a changed mapping's findings replace its own, and every finding is placed again in the new
 * text (an edit may move the lines after it). The file is checked whole when the keys or files changed, "$schema"'s
 * value did (its warning quotes it), or the last findings or the new ones hold an error (one quotes another's place).
 */
export class IconMapChecks {
  /** The root checked last, held (not weakly: the collector would drop it between two builds), with what it found. */
  private last: {
    icons: ParsedJson;
    root: JsonObject;
    paths: readonly string[];
    names: IconFileNames;
    dirExists: boolean;
    found: IconFindings;
  } | null = null;

  /** icons.json's findings against icons/, in the order checkIconMap finds them. */
  check(icons: ParsedJson, raw: RawContent): Diagnostic[] {
    const root = icons.value as JsonObject;
    const last = this.last;
    const changed =
      last !== null &&
      last.dirExists === raw.iconsDirExists &&
      samePaths(last.paths, raw.iconDirFiles) &&
      !hasError(last.found)
        ? changedEntries(last.root, root)
        : null;
    let found: IconFindings | null = null;
    const files = changed !== null ? last!.names : iconFileNames(raw); // the same paths: the same names
    if (changed !== null && changed.keys.length === 0 && icons === last!.icons) {
      found = last!.found; // the same parse of the same text: its findings stand where they are
    } else if (changed !== null && !changed.keys.includes("$schema")) {
      const out = new Out();
      const fresh: IconFindings["values"] = [];
      changed.keys.forEach((key, j) => {
        checkIconValue(out, icons, files, key, root.get(key) as string);
        if (out.list.length > 0) fresh.push({ at: changed.at[j]!, list: out.list.splice(0) });
      });
      const moved = new Set(changed.at);
      // The same positions (a parse patched from the last, src/content/load-content.ts: ParsedFiles) place each where it was.
      const place =
        icons.positionOf === last!.icons.positionOf && icons.file === last!.icons.file
          ? (list: Diagnostic[]): Diagnostic[] => list
          : (list: Diagnostic[]): Diagnostic[] => placed(icons, list);
      const kept = last!.found.values.filter((v) => !moved.has(v.at)).map((v) => ({ at: v.at, list: place(v.list) }));
      found = {
        head: place(last!.found.head),
        values: [...kept, ...fresh].sort((x, y) => x.at - y.at),
        tail: place(last!.found.tail),
      };
      if (hasError(found)) found = null;
    }
    found ??= checkIconMap(icons, raw, files);
    this.last = {
      icons,
      root,
      paths: changed !== null ? last!.paths : raw.iconDirFiles.map((f) => f.path),
      names: files,
      dirExists: raw.iconsDirExists,
      found,
    };
    return [...found.head, ...found.values.flatMap((v) => v.list), ...found.tail].map((d) => ({ ...d })); // each build its own copies
  }
}

/** Findings of an earlier text of icons.json, each placed where its pointer is in `icons` now, as Out.at places it. */
function placed(icons: ParsedJson, list: readonly Diagnostic[]): Diagnostic[] {
  const out = new Out();
  for (const d of list) out.at(icons, d.severity, d.code, d.pointer!, d.message, d.hint);
  return out.list;
}

const hasError = (found: IconFindings): boolean =>
  [found.head, ...found.values.map((v) => v.list), found.tail].some((list) => list.some((d) => d.severity === "error"));

function samePaths(paths: readonly string[], files: readonly RawFile[]): boolean {
  if (paths.length !== files.length) return false;
  for (let i = 0; i < paths.length; i++) if (paths[i] !== files[i]!.path) return false;
  return true;
}
