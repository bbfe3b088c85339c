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
