// scripts/prng.mjs
// mulberry32: a small seeded pseudo-random generator, so that generated content and fuzz cases can be replayed.

/** Returns a function giving numbers in [0, 1), the same sequence for the same seed. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
