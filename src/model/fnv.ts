// src/model/fnv.ts
// FNV-1a, 32 bits, over a string's UTF-16 units: a short, stable hash with no dependency, the same in Node and on
// every host (the handler's shards, src/edge/data.ts) and cheap to load (the command's code cache names,
// src/cli/startup/code-cache.ts, before node:crypto is loaded).

/** FNV-1a (32 bits, unsigned) of `text`'s UTF-16 units. */
export function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
