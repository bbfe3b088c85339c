/** The insights document's topics: the topic phrases (themes.ts) that recur across the analysed reviews. */
import type { Insights } from '../schema/insights.js';
import { sentimentCounts, type Analysed } from './figures.js';

/** Recurring topic phrases (by how many reviews use them), the themes customers come back to. */
export function topicsOf(all: readonly Analysed[], max = 12, minReviews = 3): Insights['topics'] {
  const byPhrase = new Map<string, Analysed[]>();
  for (const x of all) {
    for (const p of x.a.topicPhrases) {
      const list = byPhrase.get(p);
      if (list) list.push(x);
      else byPhrase.set(p, [x]);
    }
  }
  return [...byPhrase]
    .filter(([, xs]) => xs.length >= minReviews)
    .sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))
    .slice(0, max)
    .map(([label, xs]) => ({
      label,
      review_count: xs.length,
      sentiment: sentimentCounts(xs),
      example_review_ids: xs.slice(0, 5).map((x) => x.review.id),
    }));
}
