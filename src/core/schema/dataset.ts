/** The /reviews.json document schema. */
import { z } from 'zod';
import { BusinessSchema } from './business.js';
import { PublishedReviewSchema } from './review.js';

const Stars = (n: number) => z.int().min(0).describe(`Reviews with ${n} star${n > 1 ? 's' : ''}`);

export const AggregateRatingSchema = z
  .object({
    rating_value: z.number().min(1).max(5).nullable().describe('Mean star rating, two decimals; null with no reviews'),
    review_count: z.int().min(0).describe('Number of published reviews'),
    best_rating: z.literal(5).describe('The highest rating possible'),
    worst_rating: z.literal(1).describe('The lowest rating possible'),
    distribution: z
      .object({ '1': Stars(1), '2': Stars(2), '3': Stars(3), '4': Stars(4), '5': Stars(5) })
      .describe('Number of reviews per star rating'),
  })
  .meta({ id: 'AggregateRating', description: 'Aggregate of all published reviews (schema.org AggregateRating)' });
export type AggregateRating = z.infer<typeof AggregateRatingSchema>;

export const ReviewsDatasetSchema = z
  .object({
    business: BusinessSchema.describe('The business profile'),
    aggregate_rating: AggregateRatingSchema.describe('Mean rating and counts over every published review'),
    reviews: z.array(PublishedReviewSchema).describe('Every published review, newest first'),
  })
  .meta({ id: 'ReviewsDataset', description: 'The full reviews dataset, as served at /reviews.json' });
export type ReviewsDataset = z.infer<typeof ReviewsDatasetSchema>;
