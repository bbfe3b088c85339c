/** The review schema, as served and as imported. */
import { z } from 'zod';
import { IsoDate, Ulid, WebUrl } from './common.js';

/**
 * A review's id in the system it was imported from (Google's reviewId, a CRM's key ...): kept
 * exactly as given, never interpreted; our own id is derived from it and the source.
 */
export const SourceId = z
  .string()
  .min(1, 'must not be empty')
  .max(255, 'must be at most 255 characters')
  .regex(/\S/, 'must not be only spaces')
  // The C0 and C1 control ranges spelt out: OpenAPI tools (Spectral's ajv) compile `pattern`
  // without the u flag, where \P{Cc} would mean the letter P.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  .regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, 'must not contain control characters (tabs, line breaks ...)');

/** An unpaired UTF-16 surrogate: JSON.parse accepts "\ud800", but the JSON written back is not UTF-8, and strict parsers (jq) refuse the whole document. */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const WELL_FORMED = 'contains an unpaired UTF-16 surrogate (half of a character, e.g. "\\ud83d" alone); fix the text at its source';

/** Text that survives being written as JSON and read back by any parser. */
const wellFormed = <T extends z.ZodString>(s: T) => s.refine((v) => !UNPAIRED_SURROGATE.test(v), WELL_FORMED);

export const OwnerReplySchema = z
  .object({
    text: wellFormed(z.string().min(1).max(10_000)).describe("The business's public reply"),
    date: IsoDate.describe('Date of the reply'),
  })
  .meta({ id: 'OwnerReply' });

const STARS = 'must be a whole number from 1 to 5';
const SOURCE_NAME = 'must be a lower-case source name such as "google", up to 64 characters';

/** One customer review (verified or not, as `verified` says): the reference product's record, every field always present. */
export const ReviewSchema = z
  .object({
    id: Ulid,
    author: wellFormed(z.string().trim().min(1).max(200)).describe('Reviewer display name'),
    author_avatar_url: WebUrl.nullable().describe("URL of the reviewer's avatar, or null"),
    rating: z.int({ error: STARS }).min(1, STARS).max(5, STARS).describe('Star rating, 1 to 5'),
    date: IsoDate.describe('Date the review was written'),
    text: wellFormed(z.string().max(20_000)).nullable().describe('Review text; null for rating-only reviews'),
    // One message whatever is wrong (the pattern also refuses an empty name).
    source: z
      .string({ error: SOURCE_NAME })
      .trim()
      .max(64)
      .regex(/^[a-z0-9][a-z0-9_.-]*$/, SOURCE_NAME)
      .describe('Where the review comes from, e.g. "google"'),
    source_url: WebUrl.nullable().describe('Permalink to the original review, or null'),
    owner_reply: OwnerReplySchema.nullable().describe("The business's public reply, or null"),
    verified: z.boolean().describe('True when the review comes from a verified source'),
    source_id: SourceId.nullable().describe("The review's id in the system it came from (e.g. Google's reviewId), or null"),
  })
  .describe('A customer review, as stored and imported; `verified` says whether it comes from a verified source');
export type Review = z.infer<typeof ReviewSchema>;

/** A review as the API, the feeds and MCP publish it: the stored review and its permalink. Never stored or imported. */
export const PublishedReviewSchema = ReviewSchema.extend({
  url: z.url().describe('Permalink of the review on this service: {BASE_URL}/reviews/{id}, an HTML page with the review, the reply and JSON-LD'),
}).meta({ id: 'PublishedReview', description: 'A customer review as published, with its permalink `url`; `verified` says whether it comes from a verified source' });
export type PublishedReview = z.infer<typeof PublishedReviewSchema>;

export const ReviewPathSchema = z.strictObject({ id: Ulid.describe('Review id (ULID), as in `id` and `url` of a published review') });

/**
 * What an import may contain: the id is optional (a stable one is derived from the content),
 * and may be the source system's own id instead of a ULID (kept as source_id, ours derived from
 * it); nullable fields may be left out, and an empty text counts as no text.
 */
export const ReviewInputSchema = ReviewSchema.extend({
  id: SourceId.optional(),
  source_id: ReviewSchema.shape.source_id.default(null),
  author_avatar_url: ReviewSchema.shape.author_avatar_url.default(null),
  text: wellFormed(z.string().max(20_000))
    .nullable()
    .default(null)
    .transform((t) => (t === null || t.trim() === '' ? null : t)),
  source_url: ReviewSchema.shape.source_url.default(null),
  owner_reply: ReviewSchema.shape.owner_reply.default(null),
  verified: z.boolean().default(false),
  // A /reviews.json from a running service carries each review's permalink; it is derived, so it is accepted and dropped.
  url: z.url().optional().describe('Ignored: the permalink a published review carries'),
}).strict();
