/** What the parts of the insights document share: the analysed reviews, the figures built from them, and how they are counted. */
import type { Business } from '../schema/business.js';
import type { AspectEntry, Insights } from '../schema/insights.js';
import type { Review } from '../schema/review.js';
import type { ReviewAnalysis } from './per-review.js';
import { round2 } from './numbers.js';

export interface Analysed {
  review: Review;
  a: ReviewAnalysis;
}

/** Most frequent strings, ties alphabetical: deterministic. */
export function topCounts(values: Iterable<string>, n: number): string[] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).slice(0, n).map(([v]) => v);
}

export function sentimentCounts(items: readonly Analysed[]) {
  let positive = 0;
  let neutral = 0;
  let negative = 0;
  let sum = 0;
  for (const { a } of items) {
    sum += a.per.score;
    if (a.per.sentiment === 'positive') positive++;
    else if (a.per.sentiment === 'negative') negative++;
    else neutral++;
  }
  return { score: items.length ? round2(sum / items.length) : 0, positive, neutral, negative };
}

/** Per aspect, in one pass over the reviews: ids by polarity (newest first) and the phrases that judged it. */
export interface AspectIndex {
  ids: Record<'positive' | 'neutral' | 'negative', string[]>;
  phrases: Record<'positive' | 'negative', string[]>;
  /** The first reviews (in the order given) that judge the aspect, as many as an entry shows. */
  examples: string[];
}

/** The figures the FAQ and the summary are written from. */
export type Figures = {
  business: Business;
  all: readonly Analysed[];
  aspects: AspectEntry[];
  aspectIndex: ReadonlyMap<string, AspectIndex>;
  technicians: Insights['entities']['technicians'];
  services: Insights['entities']['services'];
  trend: Insights['temporal']['trend'];
  overall: ReturnType<typeof sentimentCounts>;
  /** Mean star rating of all the reviews, computed once; null when there are none. */
  averageRating: number | null;
};

/** z for a two-sided 95% interval. */
const Z = 1.96;

/** Wilson score interval (95%) of a share `k` of `n`: honest at small n, where k/n alone flatters. */
function wilson(k: number, n: number): [low: number, high: number] {
  if (n === 0) return [0, 1];
  const p = k / n;
  const z2 = Z * Z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/**
 * Whether share k1/n1 is above k2/n2 by more than chance gives: the lower end of Newcombe's 95%
 * interval for the difference (built from the two Wilson intervals) is above zero.
 */
export function shareIsHigher(k1: number, n1: number, k2: number, n2: number): boolean {
  const p1 = k1 / n1;
  const p2 = k2 / n2;
  const [l1] = wilson(k1, n1);
  const [, u2] = wilson(k2, n2);
  return p1 - p2 - Math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2) > 0;
}

/** Whether count a is above count b by more than chance gives (a sign test at 95%: of a + b, a share this far above half). */
export function countIsHigher(a: number, b: number): boolean {
  return a - b > Z * Math.sqrt(a + b);
}
