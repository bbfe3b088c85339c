import { z } from 'zod';
import { IsoDate } from './common.js';
import { ReviewSchema } from './review.js';

/**
 * The search filters: one definition for GET /api/reviews/search and the MCP search_reviews
 * tool. Numbers are coerced because query strings carry text.
 */
export const SearchQuerySchema = z
  .strictObject({
    rating: z.coerce.number().int().min(1).max(5).optional().describe('Exact star rating to match (1-5)'),
    min_rating: z.coerce.number().min(1).max(5).optional().describe('Minimum star rating, inclusive (1-5)'),
    since: IsoDate.optional().describe('Only reviews dated on or after this date (YYYY-MM-DD)'),
    until: IsoDate.optional().describe('Only reviews dated on or before this date (YYYY-MM-DD)'),
    query: z.string().min(1).max(200).optional().describe('Case-insensitive substring of the review text'),
    mentions_technician: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe("Only reviews naming this technician (name or alias, matched as a whole word)"),
    mentions_service: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe('Only reviews mentioning this service (service id, label or alias)'),
    limit: z.coerce.number().int().min(1).max(100).default(20).describe('Maximum number of reviews returned (1-100)'),
  })
  .refine((q) => q.since === undefined || q.until === undefined || q.since <= q.until, {
    message: 'since must not be after until',
    path: ['until'],
  });
export type SearchQuery = z.infer<typeof SearchQuerySchema>;

export const SearchResultSchema = z
  .object({
    matched: z.int().min(0).describe('How many reviews match all filters'),
    returned: z.int().min(0).describe('How many are in this response (at most limit)'),
    reviews: z.array(ReviewSchema).describe('Matching reviews, newest first'),
  })
  .meta({ id: 'SearchResult', description: 'Reviews matching a search' });
export type SearchResult = z.infer<typeof SearchResultSchema>;

export const SincePathSchema = z.strictObject({
  date: IsoDate.describe('Return reviews dated on or after this date (YYYY-MM-DD)'),
});

export const SinceResultSchema = z
  .object({
    since: IsoDate.describe('The date asked for'),
    count: z.int().min(0).describe('Number of reviews returned'),
    reviews: z.array(ReviewSchema).describe('Reviews dated on or after since, newest first'),
  })
  .meta({ id: 'SinceResult', description: 'Reviews dated on or after a date' });
export type SinceResult = z.infer<typeof SinceResultSchema>;
