import type { AggregateRating } from './schema/dataset.js';
import type { Review } from './schema/review.js';

/**
 * The review with its fields in schema order and nothing else. Stored JSON, change detection
 * and every served body use it, so equal reviews are equal bytes.
 */
export function canonicalReview(r: Review): Review {
  return {
    id: r.id,
    author: r.author,
    author_avatar_url: r.author_avatar_url,
    rating: r.rating,
    date: r.date,
    text: r.text,
    source: r.source,
    source_url: r.source_url,
    owner_reply: r.owner_reply === null ? null : { text: r.owner_reply.text, date: r.owner_reply.date },
    verified: r.verified,
  };
}

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
