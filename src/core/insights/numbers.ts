/** Rounding used throughout the insights document: ratings and scores to 2 decimals, percentages to 1. */
const round1 = (n: number): number => Math.round(n * 10) / 10;
export const round2 = (n: number): number => Math.round(n * 100) / 100;

/** `part` as a percentage of `whole`, one decimal; 0 when there is nothing to divide. */
export const pct = (part: number, whole: number): number => (whole === 0 ? 0 : round1((part / whole) * 100));
