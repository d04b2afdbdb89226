/** The value at percentile `p` (0-100) of ascending `sorted` values: the sample at rank ⌊n·p/100⌋; NaN when empty. */
export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
