// src/cli/suggest.ts
// "Did you mean …?": the closest known name to a typo, by edit distance (with transpositions).

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours cost 1. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** The known name closest to `typo`, when it is close enough to be a typo (at most a third of it differs). */
export function closest(typo: string, known: readonly string[]): string | undefined {
  const lower = typo.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(lower, name.toLowerCase());
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  if (best === undefined) return undefined;
  const allowed = Math.max(1, Math.floor(Math.max(typo.length, best.name.length) / 3));
  return best.distance <= allowed ? best.name : undefined;
}

/** " (did you mean check?)" or "". */
export function didYouMean(typo: string, known: readonly string[]): string {
  const name = closest(typo, known);
  return name === undefined ? "" : ` (did you mean ${name}?)`;
}
