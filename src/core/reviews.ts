/** Review ordering, canonical form and the aggregate rating. */
import type { AggregateRating } from './schema/dataset.js';
import type { PublishedReview, Review } from './schema/review.js';

const NUMBER = new Intl.NumberFormat('en-US');

/** A count as people read it: 1,234. */
export function formatCount(n: number): string {
  return NUMBER.format(n);
}

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
    source_id: r.source_id,
  };
}

/** The review's own page on this service: every feed entry and every published review links to it. */
export function reviewPermalink(baseUrl: string, id: string): string {
  return `${baseUrl}/reviews/${id}`;
}

/** The review as served: its stored fields, then its permalink. */
export function publishReview(r: Review, baseUrl: string): PublishedReview {
  return { ...r, url: reviewPermalink(baseUrl, r.id) };
}

/** Newest first; the id (a ULID) breaks ties so the order is total and stable. */
function compareNewestFirst(a: Review, b: Review): number {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * Makes equal strings of loaded reviews one string each: authors, dates, sources and owner
 * replies repeat across reviews (replies are often a template), and parsing made each its own
 * copy (at 100k reviews of the bench data, ~20 MB of the heap). In place: the strings are equal,
 * so nothing a reader sees changes.
 */
export function shareRepeatedStrings(reviews: readonly Review[]): void {
  const seen = new Map<string, string>();
  const one = (s: string): string => {
    const kept = seen.get(s);
    if (kept !== undefined) return kept;
    seen.set(s, s);
    return s;
  };
  for (const r of reviews) {
    r.author = one(r.author);
    r.date = one(r.date);
    r.source = one(r.source);
    if (r.owner_reply) {
      r.owner_reply.text = one(r.owner_reply.text);
      r.owner_reply.date = one(r.owner_reply.date);
    }
  }
}

export function sortNewestFirst(reviews: readonly Review[]): Review[] {
  return [...reviews].sort(compareNewestFirst);
}

/** The mean of star ratings to two decimals, as every average rating is stated; null when there are none. */
export function meanRating(ratings: readonly number[]): number | null {
  return ratings.length === 0 ? null : Math.round((ratings.reduce((s, r) => s + r, 0) / ratings.length) * 100) / 100;
}

export function aggregateRating(reviews: readonly Review[]): AggregateRating {
  const distribution = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 };
  for (const r of reviews) distribution[String(r.rating) as keyof typeof distribution] += 1;
  return {
    rating_value: meanRating(reviews.map((r) => r.rating)),
    review_count: reviews.length,
    best_rating: 5,
    worst_rating: 1,
    distribution,
  };
}

/** How many reviews come from a verified source: the pages say this next to the total, never instead of it. */
export function verifiedCount(reviews: readonly Review[]): number {
  let n = 0;
  for (const r of reviews) if (r.verified) n++;
  return n;
}

/**
 * The one sentence every face (pages, llms.txt, MCP instructions) uses for the rating: the
 * total and, separately, how many are verified, so nobody reads every review as verified.
 */
export function ratingSentence(aggregate: AggregateRating, verified: number): string {
  if (aggregate.rating_value === null) return 'No reviews yet.';
  const n = aggregate.review_count;
  return `Rated ${aggregate.rating_value} out of 5 from ${formatCount(n)} review${n === 1 ? '' : 's'}, ${formatCount(verified)} verified.`;
}
