import { z } from 'zod';
import { IsoDate, Ulid, WebUrl } from './common.js';

export const OwnerReplySchema = z
  .object({
    text: z.string().min(1).max(10_000).describe("The business's public reply"),
    date: IsoDate.describe('Date of the reply'),
  })
  .meta({ id: 'OwnerReply' });

/** One verified customer review: the reference product's record, every field always present. */
export const ReviewSchema = z
  .object({
    id: Ulid,
    author: z.string().trim().min(1).max(200).describe('Reviewer display name'),
    author_avatar_url: WebUrl.nullable().describe("URL of the reviewer's avatar, or null"),
    rating: z.int().min(1).max(5).describe('Star rating, 1 to 5'),
    date: IsoDate.describe('Date the review was written'),
    text: z.string().max(20_000).nullable().describe('Review text; null for rating-only reviews'),
    source: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .regex(/^[a-z0-9][a-z0-9_.-]*$/, 'must be a lower-case source name such as "google"')
      .describe('Where the review comes from, e.g. "google"'),
    source_url: WebUrl.nullable().describe('Permalink to the original review, or null'),
    owner_reply: OwnerReplySchema.nullable().describe("The business's public reply, or null"),
    verified: z.boolean().describe('True when the review comes from a verified source'),
  })
  .meta({ id: 'Review', description: 'A verified customer review' });
export type Review = z.infer<typeof ReviewSchema>;
export type OwnerReply = z.infer<typeof OwnerReplySchema>;

/**
 * What an import may contain: the id is optional (a stable one is derived from the content),
 * nullable fields may be left out, and an empty text counts as no text.
 */
export const ReviewInputSchema = ReviewSchema.extend({
  id: Ulid.optional(),
  author_avatar_url: ReviewSchema.shape.author_avatar_url.default(null),
  text: z
    .string()
    .max(20_000)
    .nullable()
    .default(null)
    .transform((t) => (t === null || t.trim() === '' ? null : t)),
  source_url: ReviewSchema.shape.source_url.default(null),
  owner_reply: ReviewSchema.shape.owner_reply.default(null),
  verified: z.boolean().default(false),
}).strict();
export type ReviewInput = z.infer<typeof ReviewInputSchema>;
