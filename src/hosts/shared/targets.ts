// src/hosts/shared/targets.ts
// A rule's target path and its `{param}` placeholders: which parameters it names, and filling them in.

/** Parameters named by `{param}` in a target. */
export function placeholders(target: string): string[] {
  return [...target.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

/** Fills `{param}` placeholders. */
export function fillTarget(target: string, values: Readonly<Record<string, string>>): string {
  return target.replace(/\{([^}]+)\}/g, (_, p: string) => {
    const v = values[p];
    if (v === undefined) throw new Error(`Internal: no value for {${p}} in ${target}.`);
    return v;
  });
}
