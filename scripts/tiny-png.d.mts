// Types for scripts/tiny-png.mjs (used by tests and the benchmark).
export function squarePng(size: number, color: readonly number[], border?: readonly number[]): Buffer;
