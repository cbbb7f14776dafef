// src/model/changed-values.ts
// What changed between two of the model's maps (src/content/load-content.ts: ModelParts gives a new map for an edited
// file): for what `dev` keeps between builds and makes again only where an edit reaches (the answers' prints, the
// catalogue's view, the handler's data).

import type { ModelChanges, SiteModel } from "./types.js";

/** What changed between two maps: the changed entries' keys, and their positions in `now`. */
export interface ChangedEntries {
  readonly keys: readonly string[];
  readonly at: readonly number[];
}

/**
 * The entries of `now` whose values differ from `was`'s, by key and by position, when both hold the same keys in the
 * same order (an edited value keeps its place), read side by side without looking a key up; null when the keys
 * differ. Values are compared by identity, then by `same` when given. The answer for the last `was` asked of each `now`
 * is kept: the answers' prints, the catalogue and the handler's data ask the same of the same two parts.
 */
export function changedEntries<V>(
  was: ReadonlyMap<string, V>,
  now: ReadonlyMap<string, V>,
  same?: (a: V, b: V) => boolean,
): ChangedEntries | null {
  const kept = found.get(now);
  if (kept !== undefined && kept.was.deref() === was && kept.same === same) return kept.changed;
  const changed = compare(was, now, same);
  found.set(now, { was: new WeakRef(was), same, changed });
  return changed;
}
// `was` held weakly: each map would keep the one before it, and that one its own, for as long as `dev` runs.
const found = new WeakMap<
  ReadonlyMap<string, unknown>,
  { was: WeakRef<ReadonlyMap<string, unknown>>; same: unknown; changed: ChangedEntries | null }
>();

function compare<V>(
  was: ReadonlyMap<string, V>,
  now: ReadonlyMap<string, V>,
  same?: (a: V, b: V) => boolean,
): ChangedEntries | null {
  const changed = { keys: [] as string[], at: [] as number[] };
  if (was === now) return changed;
  if (was.size !== now.size) return null;
  const old = was.entries();
  let i = 0;
  for (const [key, value] of now) {
    const [oldKey, oldValue] = old.next().value as [string, V];
    if (oldKey !== key) return null;
    if (oldValue !== value && same?.(oldValue, value) !== true) {
      changed.keys.push(key);
      changed.at.push(i);
    }
    i++;
  }
  return changed;
}

/** The keys of changedEntries. */
export function changedValues<V>(
  was: ReadonlyMap<string, V>,
  now: ReadonlyMap<string, V>,
  same?: (a: V, b: V) => boolean,
): readonly string[] | null {
  return changedEntries(was, now, same)?.keys ?? null;
}

/** What changed from one model's maps to the next's (SiteModel.changes). */
export function modelChanges(was: ModelMaps, now: ModelMaps): ModelChanges {
  const maps = { iconMap: was.iconMap.entries, indexing: was.extensionMap.indexing, viewing: was.extensionMap.viewing };
  return {
    was: maps,
    iconMap: changedValues(maps.iconMap, now.iconMap.entries),
    indexing: changedValues(maps.indexing, now.extensionMap.indexing),
    viewing: changedValues(maps.viewing, now.extensionMap.viewing),
  };
}

/** The maps of a model that SiteModel.changes compares. */
export type ModelMaps = Pick<SiteModel, "iconMap" | "extensionMap">;
