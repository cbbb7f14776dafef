// src/model/changed-values.ts
// What changed between two of the model's maps (src/content/load-content.ts: ModelParts gives a new map for an edited
// file): for what `dev` keeps between builds and makes again only where an edit reaches (the answers' prints, the
// catalogue's view).

/**
 * The keys of `now` whose values differ from `was`'s, when both hold the same keys in the same order (an edited value
 * keeps its place), read side by side without looking a key up; null when the keys differ. Values are compared by
 * identity, then by `same` when given.
 */
export function changedValues<V>(was: ReadonlyMap<string, V>, now: ReadonlyMap<string, V>, same?: (a: V, b: V) => boolean): string[] | null {
  if (was === now) return [];
  if (was.size !== now.size) return null;
  const changed: string[] = [];
  const old = was.entries();
  for (const [key, value] of now) {
    const [oldKey, oldValue] = old.next().value as [string, V];
    if (oldKey !== key) return null;
    if (oldValue !== value && same?.(oldValue, value) !== true) changed.push(key);
  }
  return changed;
}
