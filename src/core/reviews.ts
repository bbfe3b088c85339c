import type { AggregateRating } from './schema/dataset.js';
import type { Review } from './schema/review.js';

/** Newest first; the id (a ULID) breaks ties so the order is total and stable. */
export function compareNewestFirst(a: Review, b: Review): number {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

export function sortNewestFirst(reviews: readonly Review[]): Review[] {
  return [...reviews].sort(compareNewestFirst);
}

export function aggregateRating(reviews: readonly Review[]): AggregateRating {
  const distribution = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 };
  let sum = 0;
  for (const r of reviews) {
    distribution[String(r.rating) as keyof typeof distribution] += 1;
    sum += r.rating;
  }
  return {
    rating_value: reviews.length === 0 ? null : Math.round((sum / reviews.length) * 100) / 100,
    review_count: reviews.length,
    best_rating: 5,
    worst_rating: 1,
    distribution,
  };
}
