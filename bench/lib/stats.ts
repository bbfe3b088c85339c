/** Order statistics the benchmarks report: nearest-rank percentiles and the median. */

/** The p-th percentile (0-100) of samples sorted ascending, by nearest rank; NaN for none. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
}

/** The median: the middle sample, or the mean of the two middle ones for an even count. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
