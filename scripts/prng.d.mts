// Types for scripts/prng.mjs (used by tests and the benchmark).
export function prng(seed: number): () => number;
