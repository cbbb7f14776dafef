// bench/common.mjs
// Small helpers every part of the bench uses: its progress lines (on stderr), the median, rounding.

export const log = (line) => process.stderr.write(`${line}\n`);

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export const round = (x, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
