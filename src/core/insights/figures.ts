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
