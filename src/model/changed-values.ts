// src/model/changed-values.ts
// What changed between two of the model's maps (src/content/load-content.ts: ModelParts gives a new map for an edited
// file): for what `dev` keeps between builds and makes again only where an edit reaches (the answers' prints, the
// catalogue's view, the handler's data).

/**
 * The entries of `now` whose values differ from `was`'s, by key and by position, when both hold the same keys in the
 * same order (an edited value keeps its place), read side by side without looking a key up; null when the keys
 * differ. Values are compared by identity, then by `same` when given.
 */
export function changedEntries<V>(
  was: ReadonlyMap<string, V>, now: ReadonlyMap<string, V>, same?: (a: V, b: V) => boolean,
): { keys: string[]; at: number[] } | null {
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
export function changedValues<V>(was: ReadonlyMap<string, V>, now: ReadonlyMap<string, V>, same?: (a: V, b: V) => boolean): string[] | null {
  return changedEntries(was, now, same)?.keys ?? null;
}
