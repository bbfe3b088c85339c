/** The /reviews.json document: business profile, aggregate rating and reviews. */
import { aggregateRating } from './reviews.js';
import type { Business } from './schema/business.js';
import type { ReviewsDataset } from './schema/dataset.js';
import type { Review } from './schema/review.js';

/** Shown until the operator imports a business profile. */
export const PLACEHOLDER_BUSINESS: Business = { name: 'Unnamed business', service_areas: [], services: [], technicians: [] };

/** The /reviews.json document (reviews published) or the CLI export (reviews as stored); `reviews` must already be newest first. */
export function reviewsDataset<R extends Review>(business: Business, reviews: readonly R[]): Omit<ReviewsDataset, 'reviews'> & { reviews: R[] } {
  return { business, aggregate_rating: aggregateRating(reviews), reviews: [...reviews] };
}

/** Reviews per piece of datasetJson: about a megabyte of text. */
const REVIEWS_PER_PIECE = 1000;

/**
 * reviewsDataset as JSON text in pieces, whose concatenation is byte for byte JSON.stringify of
 * it: a million reviews make more text than one string can hold (V8's limit, about 512 MB).
 */
export function* datasetJson(business: Business, reviews: readonly Review[]): Generator<string> {
  // `reviews` is the dataset's last key, so its outline ends in `[]}`: the reviews go between.
  const dataset = reviewsDataset(business, reviews);
  const outline = JSON.stringify({ ...dataset, reviews: [] });
  yield outline.slice(0, -2);
  for (let from = 0; from < reviews.length; from += REVIEWS_PER_PIECE) {
    const piece = reviews.slice(from, from + REVIEWS_PER_PIECE).map((r) => JSON.stringify(r)).join(',');
    yield from === 0 ? piece : `,${piece}`;
  }
  yield ']}';
}
