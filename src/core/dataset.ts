import { aggregateRating } from './reviews.js';
import type { Business } from './schema/business.js';
import type { ReviewsDataset } from './schema/dataset.js';
import type { Review } from './schema/review.js';

/** Shown until the operator imports a business profile. */
export const PLACEHOLDER_BUSINESS: Business = { name: 'Unnamed business', service_areas: [], services: [], technicians: [] };

/** The /reviews.json document; `reviews` must already be newest first. */
export function reviewsDataset(business: Business, reviews: readonly Review[]): ReviewsDataset {
  return { business, aggregate_rating: aggregateRating(reviews), reviews: [...reviews] };
}
