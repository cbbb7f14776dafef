// src/catalogue/view.ts
// What the catalogue's pages show (CatalogueView): the model's icons with their sizes and the keys that map to them,
// the mappings with their settings, the problems. `dev` keeps the lists between builds (ViewMemo) and makes again only
// the entries an edit reaches.

import { iconFileName, type RawContent } from "../content/read-content.js";
import type { Diagnostic } from "../errors.js";
import { formatTimestamp } from "../model/time.js";
import { sortedIconNames, type SiteModel } from "../model/types.js";
import type { CatalogueView } from "./page.js";
import type { IconEntry, MappingEntry } from "./rows.js";

export interface ViewInput {
  model: SiteModel;
  raw: Pick<RawContent, "iconDirFiles" | "published">;
  /** The build's diagnostics: the problems section quotes its ICON_MISSING warnings. */
  diagnostics: readonly Diagnostic[];
}

/** The view's lists, with the model's parts they are made of. */
interface Lists {
  iconDirFiles: SiteModel["iconDirFiles"];
  iconMap: SiteModel["iconMap"]["entries"];
  indexing: SiteModel["extensionMap"]["indexing"];
  viewing: SiteModel["extensionMap"]["viewing"];
  /** The hash of each icons/ file's bytes (the pixel sizes are read from them), in icons/'s order. */
  hashes: ReadonlyArray<Buffer | undefined>;
  icons: readonly IconEntry[];
  mappings: readonly MappingEntry[];
  /** Each icon's and each mapping's index in its list, made when first needed. */
  iconIndex: Map<string, number> | null;
  mappingIndex: Map<string, number> | null;
}

/**
 * The view's lists as the last build made them. An edit of a mapping or a setting gives a new icon map or extension
 * map (src/content/load-content.ts: ModelParts) with the same keys in the same order, and the model says which keys
 * changed (SiteModel.changes): only the entries of the changed keys are made again, and the icons they map to and
 * mapped to (a large site's lists are slow to make whole). Anything else (icons/ changed, keys added, removed or
 * moved) makes the lists anew. Entries not made again are the last lists' objects: a page whose entries are all the
 * same objects is the same page (src/catalogue/index.ts: pagePrints).
 */
export class ViewMemo {
  private last: Lists | null = null;

  lists(input: ViewInput): Lists {
    const made = (this.last === null ? null : patched(this.last, input)) ?? fresh(input);
    this.last = made;
    return made;
  }
}

/** What the pages show; `memo` keeps the lists between builds. */
export function catalogueView(input: ViewInput, memo?: ViewMemo): CatalogueView {
  const { model, raw } = input;
  const { icons, mappings } = memo === undefined ? fresh(input) : memo.lists(input);
  const problems = input.diagnostics
    .filter((d) => d.code === "ICON_MISSING")
    .map((d) => ({
      where: `${d.file}${d.line === undefined ? "" : `:${d.line}:${d.column ?? 1}`}`,
      message: d.message,
      ...(d.hint === undefined ? {} : { hint: d.hint }),
    }));
  const favicon =
    ["favicon/icon.ico", "favicon/favicon.ico", "favicon/16x16.png"].find((f) =>
      raw.published.some((p) => p.path === f),
    ) ?? "icons/text.png";
  return {
    service: model.service,
    serviceVersion: model.serviceVersion,
    description: model.description,
    configVersion: model.config.version,
    versions: model.versions,
    builtAt: formatTimestamp(model.buildTime),
    baseUrl: model.baseUrl,
    icons,
    mappings,
    problems,
    favicon,
  };
}

const mappingEntry = (model: SiteModel, key: string, icon: string): MappingEntry => ({
  key,
  icon,
  exists: model.iconDirFiles.has(icon),
  indexing: model.extensionMap.indexing.get(key) ?? null,
  viewing: model.extensionMap.viewing.get(key) ?? null,
});

function fresh({ model, raw }: ViewInput): Lists {
  const keysByIcon = new Map<string, string[]>();
  for (const [key, icon] of model.iconMap.entries) {
    const list = keysByIcon.get(icon);
    if (list === undefined) keysByIcon.set(icon, [key]);
    else list.push(key);
  }
  // The pixel size image-size read from each icon's bytes (src/content/file-facts.ts); nulls when it cannot say.
  const images = new Map(raw.iconDirFiles.map((f) => [iconFileName(f), f.facts?.image]));
  const icons: IconEntry[] = sortedIconNames(model).map((name) => {
    const image = images.get(name);
    return {
      name,
      size: model.iconDirFiles.get(name)!.size,
      width: image?.width ?? null,
      height: image?.height ?? null,
      keys: keysByIcon.get(name) ?? [],
    };
  });
  const mappings: MappingEntry[] = [...model.iconMap.entries].map(([key, icon]) => mappingEntry(model, key, icon));
  return {
    iconDirFiles: model.iconDirFiles,
    iconMap: model.iconMap.entries,
    indexing: model.extensionMap.indexing,
    viewing: model.extensionMap.viewing,
    hashes: hashesOf(raw),
    icons,
    mappings,
    iconIndex: null,
    mappingIndex: null,
  };
}

const hashesOf = (raw: ViewInput["raw"]): Array<Buffer | undefined> => raw.iconDirFiles.map((f) => f.facts?.hash);

/** `last` made again for `model`, or null when icons/ or a map's keys changed, or when the model does not say its
 * changes since `last`'s. */
function patched(last: Lists, { model, raw }: ViewInput): Lists | null {
  // The same names, sizes and times (src/content/load-content.ts: ModelParts), and the same bytes.
  if (last.iconDirFiles !== model.iconDirFiles) return null;
  const hashes = hashesOf(raw);
  for (let i = 0; i < hashes.length; i++) {
    const [now, was] = [hashes[i], last.hashes[i]];
    if (now !== was && (now === undefined || was === undefined || !now.equals(was))) return null;
  }
  // A map's changed keys: none when it is the map these lists show; else the model's (src/model/types.ts:
  // SiteModel.changes) when they are since that map; else unknown (null).
  const { changes } = model;
  const since = (
    name: "iconMap" | "indexing" | "viewing",
    now: ReadonlyMap<string, string>,
  ): readonly string[] | null =>
    last[name] === now ? [] : changes !== undefined && changes.was[name] === last[name] ? changes[name] : null;
  const moved = since("iconMap", model.iconMap.entries);
  const indexing = since("indexing", model.extensionMap.indexing);
  const viewing = since("viewing", model.extensionMap.viewing);
  if (moved === null || indexing === null || viewing === null) return null;
  const next: Lists = {
    ...last,
    iconMap: model.iconMap.entries,
    indexing: model.extensionMap.indexing,
    viewing: model.extensionMap.viewing,
  };
  // A mapping shows its icon and its key's settings.
  const keys = new Set([...moved, ...indexing, ...viewing]);
  if (keys.size > 0) {
    const index = (next.mappingIndex ??= new Map(last.mappings.map((m, i) => [m.key, i])));
    const mappings = [...last.mappings];
    for (const key of keys) {
      const i = index.get(key);
      if (i !== undefined) mappings[i] = mappingEntry(model, key, model.iconMap.entries.get(key)!);
    }
    next.mappings = mappings;
  }
  // An icon shows the keys that map to it, in icons.json's order: those of the icons a moved key left and reached.
  if (moved.length > 0) {
    const keysOf = new Map<string, string[]>();
    for (const key of moved) {
      keysOf.set(last.iconMap.get(key)!, []);
      keysOf.set(model.iconMap.entries.get(key)!, []);
    }
    for (const [key, icon] of model.iconMap.entries) keysOf.get(icon)?.push(key);
    const index = (next.iconIndex ??= new Map(last.icons.map((icon, i) => [icon.name, i])));
    const icons = [...last.icons];
    for (const [name, list] of keysOf) {
      const i = index.get(name);
      if (i !== undefined) icons[i] = { ...icons[i]!, keys: list };
    }
    next.icons = icons;
  }
  return next;
}
