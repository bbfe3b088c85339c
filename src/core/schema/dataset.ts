/** The /reviews.json document schema. */
import { z } from 'zod';
import { BusinessSchema } from './business.js';
import { PublishedReviewSchema } from './review.js';

export const AggregateRatingSchema = z
  .object({
    rating_value: z.number().min(1).max(5).nullable().describe('Mean star rating, two decimals; null with no reviews'),
    review_count: z.int().min(0),
    best_rating: z.literal(5),
    worst_rating: z.literal(1),
    distribution: z
      .object({ '1': z.int().min(0), '2': z.int().min(0), '3': z.int().min(0), '4': z.int().min(0), '5': z.int().min(0) })
      .describe('Number of reviews per star rating'),
  })
  .meta({ id: 'AggregateRating', description: 'Aggregate of all published reviews (schema.org AggregateRating)' });
export type AggregateRating = z.infer<typeof AggregateRatingSchema>;

export const ReviewsDatasetSchema = z
  .object({
    business: BusinessSchema,
    aggregate_rating: AggregateRatingSchema,
    reviews: z.array(PublishedReviewSchema).describe('Every published review, newest first'),
  })
  .meta({ id: 'ReviewsDataset', description: 'The full reviews dataset, as served at /reviews.json' });
export type ReviewsDataset = z.infer<typeof ReviewsDatasetSchema>;
